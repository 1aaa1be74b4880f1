//! Tables to Parquet bytes (its own page writer over polars' Parquet layer) and back (polars'
//! reader), for tests and `skirmish` itself.
//!
//! The only module that knows polars. Files are self-describing: column names say what they hold
//! and the file's key-value metadata carries each column's description (`skirmish.columns`) and
//! the table's name. Nothing time- or machine-dependent is written, so the same rows give the same
//! bytes on any machine and thread count.

use crate::error::Error;
use std::io::Cursor;

use polars::prelude::{DataFrame, DataType, ParquetReader, SerReader};

use super::table::{Table, Values};

/// Rows per row group: large enough for good encoding, small enough that a reader can skip.
const ROW_GROUP: usize = 128 * 1024;

/// A 64-bit column whose values span less than this is written as deltas (match indices, hit
/// counts); wider (seeds) is written plain, where deltas would only add bits.
const DELTA_SPAN: u64 = 1 << 40;

// Issue 66: the main job spent more time in polars' general writer (a DataFrame per table, arrow
// arrays, the nested-list level machinery, zstd) than in its battles. Tables have a fixed set of
// column kinds, so each kind's pages are built here directly with polars-parquet's own encoders
// and file writer: integers as DELTA_BINARY_PACKED (small numbers take their bit width, match
// indices almost nothing), labels as a dictionary page plus bit-packed codes, booleans bit-packed,
// floats and seeds plain; no compression (the main job's files come out about as large as polars'
// zstd-compressed ones: its seeds and initiatives do not compress). The bytes are a standard Parquet file (format version 1 pages) that
// polars, pyarrow and DuckDB read; `decode` below is polars' own reader.
use polars_parquet::parquet::{
    CowBuffer,
    compression::CompressionOptions,
    encoding::Encoding,
    error::{ParquetError, ParquetResult},
    metadata::{Descriptor, KeyValue, SchemaDescriptor},
    page::{DataPage, DataPageHeader, DataPageHeaderV1, DictPage, Page},
    schema::{
        Repetition,
        types::{
            GroupConvertedType, GroupLogicalType, IntegerType, ParquetType, PhysicalType,
            PrimitiveConvertedType, PrimitiveLogicalType, PrimitiveType,
        },
    },
    write::{Compressor, DynIter, DynStreamingIterator, FileWriter, Version, WriteOptions},
};

/// What a column's leaf holds, for its schema and its pages.
fn leaf(name: &str, values: &Values, repetition: Repetition) -> ParquetResult<ParquetType> {
    use IntegerType as I;
    let (physical, logical) = match values {
        Values::U64(_) => (
            PhysicalType::Int64,
            Some(PrimitiveLogicalType::Integer(I::UInt64)),
        ),
        Values::F64(_) => (PhysicalType::Double, None),
        Values::I32(_) | Values::OptI32(_) | Values::I32List { .. } => (PhysicalType::Int32, None),
        Values::U32(_) => (
            PhysicalType::Int32,
            Some(PrimitiveLogicalType::Integer(I::UInt32)),
        ),
        Values::U16(_) | Values::OptU16(_) => (
            PhysicalType::Int32,
            Some(PrimitiveLogicalType::Integer(I::UInt16)),
        ),
        Values::U8(_) => (
            PhysicalType::Int32,
            Some(PrimitiveLogicalType::Integer(I::UInt8)),
        ),
        Values::Bool(_) => (PhysicalType::Boolean, None),
        Values::Label { .. } | Values::LabelList { .. } => {
            (PhysicalType::ByteArray, Some(PrimitiveLogicalType::String))
        }
    };
    let converted = match logical {
        Some(PrimitiveLogicalType::String) => Some(PrimitiveConvertedType::Utf8),
        Some(PrimitiveLogicalType::Integer(i)) => Some(match i {
            I::UInt64 => PrimitiveConvertedType::Uint64,
            I::UInt32 => PrimitiveConvertedType::Uint32,
            I::UInt16 => PrimitiveConvertedType::Uint16,
            _ => PrimitiveConvertedType::Uint8,
        }),
        _ => None,
    };
    ParquetType::try_from_primitive(name.into(), physical, repetition, converted, logical, None)
}

fn is_list(values: &Values) -> bool {
    matches!(values, Values::LabelList { .. } | Values::I32List { .. })
}

/// The column's schema field: a leaf, or a standard three-level list of required elements.
fn field(name: &str, values: &Values) -> ParquetResult<ParquetType> {
    let optional = matches!(values, Values::OptU16(_) | Values::OptI32(_));
    if !is_list(values) {
        let rep = if optional {
            Repetition::Optional
        } else {
            Repetition::Required
        };
        return leaf(name, values, rep);
    }
    let element = leaf("element", values, Repetition::Required)?;
    let list = ParquetType::from_group(
        "list".into(),
        Repetition::Repeated,
        None,
        None,
        vec![element],
        None,
    );
    Ok(ParquetType::from_group(
        name.into(),
        Repetition::Required,
        Some(GroupConvertedType::List),
        Some(GroupLogicalType::List),
        vec![list],
        None,
    ))
}

/// Levels of bit width 1 as the RLE/bit-packed hybrid, with a 4-byte length in front (data page
/// v1): one RLE run of `alike` when all `n` are that (a column with no nulls, lists with no empty
/// one), else one bit-packed run that `fill` writes. Written here rather than with polars' general
/// encoder, which cost more than every other part of a page together.
fn levels(buf: &mut Vec<u8>, n: usize, alike: Option<bool>, fill: impl FnOnce(&mut Bits)) {
    let at = buf.len();
    buf.extend_from_slice(&[0; 4]);
    match alike {
        _ if n == 0 => {}
        Some(v) => {
            uleb(buf, (n as u64) << 1);
            buf.push(u8::from(v));
        }
        None => {
            uleb(buf, ((n.div_ceil(8) as u64) << 1) | 1);
            let mut bits = Bits { buf, acc: 0, n: 0 };
            fill(&mut bits);
            bits.finish();
        }
    }
    let len = (buf.len() - at - 4) as u32;
    buf[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// Bits written least significant first, 64 at a time; `finish` pads to a whole byte.
struct Bits<'a> {
    buf: &'a mut Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits<'_> {
    fn push(&mut self, bit: bool) {
        self.acc |= u64::from(bit) << self.n;
        self.n += 1;
        if self.n == 64 {
            self.buf.extend_from_slice(&self.acc.to_le_bytes());
            (self.acc, self.n) = (0, 0);
        }
    }

    /// `count` bits alike, up to 64 at a stroke (a list's levels are runs).
    fn push_n(&mut self, bit: bool, mut count: u32) {
        while count > 0 {
            let take = count.min(64 - self.n);
            if bit {
                let ones = if take == 64 { !0 } else { (1u64 << take) - 1 };
                self.acc |= ones << self.n;
            }
            self.n += take;
            count -= take;
            if self.n == 64 {
                self.buf.extend_from_slice(&self.acc.to_le_bytes());
                (self.acc, self.n) = (0, 0);
            }
        }
    }

    fn finish(self) {
        let bytes = self.n.div_ceil(8) as usize;
        self.buf.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

/// Values at `width` bits each (each below 2^width), least significant bit first, padded with
/// zeros to a whole group of 8 (the layout of the hybrid's bit-packed runs and of delta
/// miniblocks alike).
fn bitpack(buf: &mut Vec<u8>, values: impl Iterator<Item = u64>, width: u32) {
    if width == 0 {
        return;
    }
    let (mut acc, mut bits, mut n) = (0u64, 0u32, 0usize);
    for v in values {
        acc |= v << bits;
        n += 1;
        let used = bits + width;
        if used >= 64 {
            buf.extend_from_slice(&acc.to_le_bytes());
            // The high bits of `v` that did not fit (none when it ended exactly at 64).
            acc = if bits == 0 { 0 } else { v >> (64 - bits) };
            bits = used - 64;
        } else {
            bits = used;
        }
    }
    // Whole groups of 8 values fill whole bytes; what is left of them is in `acc`.
    let total = n.next_multiple_of(8) * width as usize / 8;
    let written = n * width as usize / 64 * 8;
    let mut rest = total - written;
    while rest > 8 {
        buf.extend_from_slice(&acc.to_le_bytes());
        (acc, rest) = (0, rest - 8);
    }
    buf.extend_from_slice(&acc.to_le_bytes()[..rest]);
}

/// Values per DELTA_BINARY_PACKED block, and per miniblock (the sizes parquet-mr writes: each
/// miniblock of 32 deltas takes its own bit width).
const BLOCK: usize = 128;
const MINI: usize = 32;

fn uleb(buf: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        buf.push(x as u8 | 0x80);
        x >>= 7;
    }
    buf.push(x as u8);
}

fn zigzag(x: i64) -> u64 {
    ((x << 1) ^ (x >> 63)) as u64
}

/// DELTA_BINARY_PACKED: the first value, then blocks of deltas (wrapping, as the format says),
/// each block as its smallest delta and miniblocks of the rest, bit-packed least significant bit
/// first at the miniblock's width. Written here because polars-parquet keeps its encoder private.
fn deltas(buf: &mut Vec<u8>, it: impl ExactSizeIterator<Item = i64>) {
    let mut it = it;
    uleb(buf, BLOCK as u64);
    uleb(buf, (BLOCK / MINI) as u64);
    uleb(buf, it.len() as u64);
    let Some(first) = it.next() else {
        uleb(buf, 0);
        return;
    };
    uleb(buf, zigzag(first));
    let mut prev = first;
    let mut block = [0u64; BLOCK];
    loop {
        let (mut n, mut min) = (0, i64::MAX);
        for x in it.by_ref().take(BLOCK) {
            let d = x.wrapping_sub(prev);
            (block[n], min, prev) = (d as u64, min.min(d), x);
            n += 1;
        }
        if n == 0 {
            return;
        }
        uleb(buf, zigzag(min));
        let at = buf.len();
        buf.extend_from_slice(&[0; BLOCK / MINI]);
        // A short last miniblock is padded with zeros to its whole size.
        block[n..n.next_multiple_of(MINI)].fill(min as u64);
        for (m, mini) in block[..n.next_multiple_of(MINI)]
            .chunks_mut(MINI)
            .enumerate()
        {
            let mut or = 0;
            for d in mini.iter_mut() {
                *d = d.wrapping_sub(min as u64);
                or |= *d;
            }
            let width = u64::BITS - or.leading_zeros();
            buf[at + m] = width as u8;
            bitpack(buf, mini.iter().copied(), width);
        }
        if n < BLOCK {
            return;
        }
    }
}

/// Bit-packed booleans, least significant bit first (PLAIN for BOOLEAN).
fn plain_bools(buf: &mut Vec<u8>, v: &[bool]) {
    for byte in v.chunks(8) {
        buf.push(
            byte.iter()
                .enumerate()
                .fold(0u8, |b, (i, &x)| b | (u8::from(x) << i)),
        );
    }
}

/// Dictionary codes: their bit width, then one bit-packed run of the codes.
fn codes(buf: &mut Vec<u8>, labels: usize, it: impl ExactSizeIterator<Item = u16>) {
    let width = u32::BITS - (labels.saturating_sub(1) as u32).leading_zeros();
    buf.push(width as u8);
    if it.len() > 0 {
        uleb(buf, ((it.len().div_ceil(8) as u64) << 1) | 1);
        bitpack(buf, it.map(u64::from), width);
    }
}

fn dictionary(labels: &[String]) -> Page {
    let mut buf = Vec::with_capacity(labels.iter().map(|l| 4 + l.len()).sum());
    for l in labels {
        buf.extend_from_slice(&(l.len() as u32).to_le_bytes());
        buf.extend_from_slice(l.as_bytes());
    }
    Page::Dict(DictPage::new(CowBuffer::Owned(buf), labels.len(), false))
}

/// One column's pages for rows `rows`: a dictionary page first for labels, then one data page.
fn pages(
    values: &Values,
    rows: std::ops::Range<usize>,
    ty: PrimitiveType,
) -> ParquetResult<Vec<Page>> {
    let n = rows.len();
    let mut buf = Vec::new();
    let mut out = Vec::new();
    let (mut def, mut rep) = (0, 0);
    let mut count = n;
    let bad = |what: &str| ParquetError::OutOfSpec(format!("a {what} code past its labels"));
    let encoding = match values {
        Values::U64(v) => {
            let v = &v[rows];
            let (lo, hi) = v
                .iter()
                .fold((u64::MAX, 0), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            if hi.saturating_sub(lo) < DELTA_SPAN {
                deltas(&mut buf, v.iter().map(|&x| x as i64));
                Encoding::DeltaBinaryPacked
            } else {
                buf.reserve(8 * n);
                v.iter()
                    .for_each(|x| buf.extend_from_slice(&x.to_le_bytes()));
                Encoding::Plain
            }
        }
        Values::F64(v) => {
            buf.reserve(8 * n);
            v[rows]
                .iter()
                .for_each(|x| buf.extend_from_slice(&x.to_le_bytes()));
            Encoding::Plain
        }
        Values::I32(v) => {
            deltas(&mut buf, v[rows].iter().map(|&x| x as i64));
            Encoding::DeltaBinaryPacked
        }
        // Unsigned 32-bit values are stored as the INT32 of the same bits, as the format says.
        Values::U32(v) => {
            deltas(&mut buf, v[rows].iter().map(|&x| x as i32 as i64));
            Encoding::DeltaBinaryPacked
        }
        Values::U16(v) => {
            deltas(&mut buf, v[rows].iter().map(|&x| x as i64));
            Encoding::DeltaBinaryPacked
        }
        Values::U8(v) => {
            deltas(&mut buf, v[rows].iter().map(|&x| x as i64));
            Encoding::DeltaBinaryPacked
        }
        Values::Bool(v) => {
            plain_bools(&mut buf, &v[rows]);
            Encoding::Plain
        }
        Values::OptU16(v) => {
            def = 1;
            optional(&mut buf, &v[rows])
        }
        Values::OptI32(v) => {
            def = 1;
            optional(&mut buf, &v[rows])
        }
        Values::Label { labels, codes: c } => {
            let c = &c[rows];
            if c.iter().any(|&x| x as usize >= labels.len()) {
                return Err(bad("label"));
            }
            out.push(dictionary(labels));
            codes(&mut buf, labels.len(), c.iter().copied());
            Encoding::RleDictionary
        }
        Values::LabelList {
            labels,
            offsets,
            codes: c,
        } => {
            let span = offsets[rows.start] as usize..offsets[rows.end] as usize;
            if c[span.clone()].iter().any(|&x| x as usize >= labels.len()) {
                return Err(bad("label list"));
            }
            (def, rep) = (1, 1);
            count = list_levels(&mut buf, &offsets[rows.start..=rows.end]);
            out.push(dictionary(labels));
            codes(&mut buf, labels.len(), c[span].iter().copied());
            Encoding::RleDictionary
        }
        Values::I32List { offsets, values: v } => {
            let span = offsets[rows.start] as usize..offsets[rows.end] as usize;
            (def, rep) = (1, 1);
            count = list_levels(&mut buf, &offsets[rows.start..=rows.end]);
            deltas(&mut buf, v[span].iter().map(|&x| x as i64));
            Encoding::DeltaBinaryPacked
        }
    };
    let header = DataPageHeader::V1(DataPageHeaderV1 {
        num_values: count as i32,
        encoding: encoding.into(),
        definition_level_encoding: Encoding::Rle.into(),
        repetition_level_encoding: Encoding::Rle.into(),
        statistics: None,
    });
    let descriptor = Descriptor {
        primitive_type: ty,
        max_def_level: def,
        max_rep_level: rep,
    };
    out.push(Page::Data(DataPage::new(
        header,
        CowBuffer::Owned(buf),
        descriptor,
        n,
    )));
    Ok(out)
}

/// A required list of required elements: repetition levels (0 starts a row) then definition
/// levels (0 for an empty list), one pair per element or per empty row. The count of levels.
fn list_levels(buf: &mut Vec<u8>, offsets: &[u32]) -> usize {
    let lens = || offsets.windows(2).map(|w| w[1] - w[0]);
    let count = lens().map(|l| l.max(1) as usize).sum();
    levels(buf, count, None, |b| {
        for l in lens() {
            b.push(false);
            b.push_n(true, l.saturating_sub(1));
        }
    });
    let empty = lens().any(|l| l == 0);
    levels(buf, count, (!empty).then_some(true), |b| {
        for l in lens() {
            b.push_n(l > 0, l.max(1));
        }
    });
    count
}

/// An optional column's page body: its definition levels, then its present values as deltas.
fn optional<T: Copy + Into<i64>>(buf: &mut Vec<u8>, v: &[Option<T>]) -> Encoding {
    optional_levels(buf, v);
    let present: Vec<i64> = v.iter().flatten().map(|&x| x.into()).collect();
    deltas(buf, present.into_iter());
    Encoding::DeltaBinaryPacked
}

/// Definition levels of an optional column: 1 for a value, 0 for a null.
fn optional_levels<T>(buf: &mut Vec<u8>, v: &[Option<T>]) {
    let all = v.iter().all(Option::is_some);
    levels(buf, v.len(), all.then_some(true), |b| {
        v.iter().for_each(|x| b.push(x.is_some()))
    });
}

/// The table as the bytes of one Parquet file. The file's key-value metadata carries the table's
/// name (`skirmish.table`) and each column's description (`skirmish.columns`). The same rows
/// give the same bytes on any machine and thread count.
pub fn encode(table: &Table) -> Result<Vec<u8>, Error> {
    let fail =
        |e: ParquetError| Error::machine(format!("encoding table `{}` as Parquet", table.name), e);
    let rows = table.rows();
    let fields = table
        .columns
        .iter()
        .map(|c| field(c.name, &c.values))
        .collect::<ParquetResult<Vec<_>>>()
        .map_err(fail)?;
    let schema = SchemaDescriptor::new("skirmish".into(), fields);
    let leaves: Vec<PrimitiveType> = schema
        .columns()
        .iter()
        .map(|c| c.descriptor.primitive_type.clone())
        .collect();
    let options = WriteOptions {
        write_statistics: false,
        version: Version::V1,
    };
    let size: usize = table.columns.iter().map(|c| c.values.len()).sum::<usize>() * 4;
    let mut w = FileWriter::new(
        Vec::with_capacity(size),
        schema,
        options,
        Some("skirmish".into()),
    );
    let mut start = 0;
    while start < rows || (rows == 0 && start == 0) {
        let end = (start + ROW_GROUP).min(rows);
        let columns = table
            .columns
            .iter()
            .zip(&leaves)
            .map(|(c, ty)| pages(&c.values, start..end, ty.clone()))
            .collect::<ParquetResult<Vec<_>>>()
            .map_err(fail)?;
        let group = DynIter::new(columns.into_iter().map(|p| {
            let pages = DynIter::new(p.into_iter().map(Ok));
            Ok(DynStreamingIterator::new(Compressor::new(
                pages,
                CompressionOptions::Uncompressed,
                Vec::new(),
            )))
        }));
        w.write::<ParquetError>((end - start) as u64, group)
            .map_err(fail)?;
        if rows == 0 {
            break;
        }
        start = end;
    }
    let docs: serde_json::Map<String, serde_json::Value> = table
        .columns
        .iter()
        .map(|c| (c.name.to_string(), c.doc.into()))
        .collect();
    let meta = vec![
        KeyValue::new("skirmish.table".to_string(), table.name.to_string()),
        KeyValue::new(
            "skirmish.columns".to_string(),
            serde_json::Value::Object(docs).to_string(),
        ),
    ];
    w.end(Some(meta)).map_err(fail)?;
    Ok(w.into_inner())
}

/// Reads a Parquet file's bytes back into a DataFrame.
pub fn decode(bytes: &[u8]) -> Result<DataFrame, Error> {
    ParquetReader::new(Cursor::new(bytes))
        .finish()
        .map_err(|e| Error::Input(format!("reading Parquet: {e}")))
}

/// Reads a Parquet file.
pub fn read(path: &std::path::Path) -> Result<DataFrame, Error> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| Error::Input(format!("{}: {e}", path.display())))
}

/// One column of a Parquet file as floats (integers widen), for readers outside this module.
pub fn read_f64s(path: &std::path::Path, column: &str) -> Result<Vec<f64>, Error> {
    let df = read(path)?;
    let c = df
        .column(column)
        .map_err(|_| format!("{}: no column `{column}`", path.display()))?;
    let c = c
        .cast(&DataType::Float64)
        .map_err(|e| format!("{}: column `{column}` is not numeric ({e})", path.display()))?;
    Ok(c.f64()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .iter()
        .map(|v| v.unwrap_or(f64::NAN))
        .collect())
}

/// One column of a Parquet file as strings.
pub fn read_strings(path: &std::path::Path, column: &str) -> Result<Vec<String>, Error> {
    let df = read(path)?;
    let c = df
        .column(column)
        .map_err(|_| format!("{}: no column `{column}`", path.display()))?;
    Ok(c.str()
        .map_err(|e| format!("{}: column `{column}` is not text ({e})", path.display()))?
        .iter()
        .map(|v| v.unwrap_or_default().to_string())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::table::Column;

    fn sample() -> Table {
        Table {
            name: "t",
            columns: vec![
                Column {
                    name: "id",
                    doc: "row id",
                    values: Values::U64(vec![7, 8]),
                },
                Column {
                    name: "winner",
                    doc: "winning slot or null",
                    values: Values::OptU16(vec![Some(2), None]),
                },
                Column {
                    name: "powers",
                    doc: "held powers",
                    values: Values::LabelList {
                        labels: vec!["Amoeba".into(), "Souleater".into()],
                        offsets: vec![0, 2, 2],
                        codes: vec![1, 0],
                    },
                },
                Column {
                    name: "strengths",
                    doc: "strength per power",
                    values: Values::I32List {
                        offsets: vec![0, 2, 2],
                        values: vec![5, -3],
                    },
                },
            ],
        }
    }

    #[test]
    fn tables_round_trip_through_parquet() {
        let bytes = encode(&sample()).unwrap();
        let df = decode(&bytes).unwrap();
        assert_eq!(df.height(), 2);
        let id = df.column("id").unwrap().u64().unwrap();
        assert_eq!(id.get(1), Some(8));
        let w = df.column("winner").unwrap().u16().unwrap();
        assert_eq!((w.get(0), w.get(1)), (Some(2), None));
        let p = df.column("powers").unwrap().list().unwrap();
        let first = p.get_as_series(0).unwrap();
        let names: Vec<Option<&str>> = first.str().unwrap().iter().collect();
        assert_eq!(names, [Some("Souleater"), Some("Amoeba")]);
        assert_eq!(p.get_as_series(1).unwrap().len(), 0);
    }

    #[test]
    fn the_same_table_encodes_to_the_same_bytes() {
        assert_eq!(encode(&sample()).unwrap(), encode(&sample()).unwrap());
    }

    /// A small deterministic generator for the round-trip test (no rand: this module's tests
    /// must not depend on a stream's values).
    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 11
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// Every column kind at `rows` rows; `spread` sets how wide the integers range (delta widths
    /// from 0 bits to 64) and how often values are null or lists empty.
    fn every_kind(rows: usize, spread: u32, g: &mut Lcg) -> Table {
        let mask = if spread >= 64 {
            u64::MAX
        } else {
            (1u64 << spread) - 1
        };
        let int = |g: &mut Lcg| g.next().wrapping_mul(0x9E37_79B9_7F4A_7C15) & mask;
        let labels: Vec<String> = (0..(1 + spread as usize * 3))
            .map(|i| format!("label {i} é"))
            .collect();
        let (mut offsets, mut codes, mut ints) = (vec![0u32], Vec::new(), Vec::new());
        for _ in 0..rows {
            // Mostly short lists, and now and then one longer than a 64-bit word of levels.
            let len = match (spread, g.below(40)) {
                (0, _) => 0,
                (_, 0) => 60 + g.below(100),
                _ => g.below(4),
            };
            for _ in 0..len {
                codes.push(g.below(labels.len() as u64) as u16);
                ints.push(int(g) as i32);
            }
            offsets.push(codes.len() as u32);
        }
        let col = |name, values| Column {
            name,
            doc: "a column",
            values,
        };
        Table {
            name: "every kind",
            columns: vec![
                col("u64", Values::U64((0..rows).map(|_| int(g)).collect())),
                col(
                    "seq",
                    Values::U64((0..rows as u64).map(|i| i * 3 + 5).collect()),
                ),
                col(
                    "f64",
                    Values::F64((0..rows).map(|_| int(g) as f64 / 7.0).collect()),
                ),
                col(
                    "i32",
                    Values::I32((0..rows).map(|_| int(g) as i32).collect()),
                ),
                col(
                    "u32",
                    Values::U32((0..rows).map(|_| int(g) as u32).collect()),
                ),
                col(
                    "u16",
                    Values::U16((0..rows).map(|_| int(g) as u16).collect()),
                ),
                col("u8", Values::U8((0..rows).map(|_| int(g) as u8).collect())),
                col(
                    "bool",
                    Values::Bool((0..rows).map(|_| g.below(2) == 1).collect()),
                ),
                col(
                    "opt_u16",
                    Values::OptU16(
                        (0..rows)
                            .map(|_| (spread == 0 || g.below(3) > 0).then(|| int(g) as u16))
                            .collect(),
                    ),
                ),
                col(
                    "opt_i32",
                    Values::OptI32(
                        (0..rows)
                            .map(|_| (spread % 2 == 1 && g.below(3) == 0).then(|| int(g) as i32))
                            .collect(),
                    ),
                ),
                col(
                    "label",
                    Values::Label {
                        labels: labels.clone(),
                        codes: (0..rows)
                            .map(|_| g.below(labels.len() as u64) as u16)
                            .collect(),
                    },
                ),
                col(
                    "label_list",
                    Values::LabelList {
                        labels: labels.clone(),
                        offsets: offsets.clone(),
                        codes,
                    },
                ),
                col(
                    "i32_list",
                    Values::I32List {
                        offsets,
                        values: ints,
                    },
                ),
            ],
        }
    }

    /// What polars reads back, as the table's own values.
    fn read_back(df: &DataFrame, c: &Column) -> Values {
        let s = df.column(c.name).unwrap().as_materialized_series().clone();
        // Each row's list, and the offsets of their concatenation.
        let rows = || {
            let l = s.list().unwrap();
            let rows: Vec<_> = (0..l.len()).map(|i| l.get_as_series(i).unwrap()).collect();
            let mut offsets = vec![0u32];
            for r in &rows {
                offsets.push(offsets.last().unwrap() + r.len() as u32);
            }
            (rows, offsets)
        };
        match &c.values {
            Values::U64(_) => Values::U64(s.u64().unwrap().into_no_null_iter().collect()),
            Values::F64(_) => Values::F64(s.f64().unwrap().into_no_null_iter().collect()),
            Values::I32(_) => Values::I32(s.i32().unwrap().into_no_null_iter().collect()),
            Values::U32(_) => Values::U32(s.u32().unwrap().into_no_null_iter().collect()),
            Values::U16(_) => Values::U16(s.u16().unwrap().into_no_null_iter().collect()),
            Values::U8(_) => Values::U8(s.u8().unwrap().into_no_null_iter().collect()),
            Values::Bool(_) => Values::Bool(s.bool().unwrap().iter().map(Option::unwrap).collect()),
            Values::OptU16(_) => Values::OptU16(s.u16().unwrap().iter().collect()),
            Values::OptI32(_) => Values::OptI32(s.i32().unwrap().iter().collect()),
            Values::Label { labels, .. } => Values::Label {
                labels: labels.clone(),
                codes: s
                    .str()
                    .unwrap()
                    .iter()
                    .map(|x| labels.iter().position(|l| Some(l.as_str()) == x).unwrap() as u16)
                    .collect(),
            },
            Values::LabelList { labels, .. } => {
                let (rows, offsets) = rows();
                let codes = rows
                    .iter()
                    .flat_map(|r| r.str().unwrap().iter().collect::<Vec<_>>())
                    .map(|x| labels.iter().position(|l| Some(l.as_str()) == x).unwrap() as u16)
                    .collect();
                Values::LabelList {
                    labels: labels.clone(),
                    offsets,
                    codes,
                }
            }
            Values::I32List { .. } => {
                let (rows, offsets) = rows();
                let values = rows
                    .iter()
                    .flat_map(|r| r.i32().unwrap().into_no_null_iter().collect::<Vec<_>>())
                    .collect();
                Values::I32List { offsets, values }
            }
        }
    }

    #[test]
    fn every_column_kind_reads_back_exactly_at_every_width_and_size() {
        let mut g = Lcg(66);
        let sizes = [0, 1, 7, 8, 9, 31, 32, 33, 127, 128, 129, 300, ROW_GROUP + 9];
        for (k, rows) in sizes.into_iter().enumerate() {
            for spread in [0, 1, 3, 7, 13, 31, 32, 40, 63, 64] {
                if rows > 1000 && spread % 3 != 1 {
                    continue;
                }
                let t = every_kind(rows, spread, &mut g);
                let bytes = encode(&t).unwrap();
                let df = decode(&bytes).unwrap();
                assert_eq!(df.height(), rows, "case {k}, spread {spread}");
                for c in &t.columns {
                    assert_eq!(
                        read_back(&df, c),
                        c.values,
                        "column {} at {rows} rows, spread {spread}",
                        c.name
                    );
                }
            }
        }
    }
}
