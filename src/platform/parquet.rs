//! Tables to Parquet bytes (and back, for tests and `skirmish` itself), through polars.
//!
//! The only module that knows polars. Files are self-describing: column names say what they hold
//! and the file's key-value metadata carries each column's description (`skirmish.columns`) and
//! the table's name. Nothing time- or machine-dependent is written, so the same rows give the same
//! bytes on any machine and thread count.

use std::io::Cursor;

use polars::prelude::{
    Column as PlColumn, DataFrame, DataType, Int32Type, IntoColumn, IntoSeries, KeyValueMetadata,
    ListBuilderTrait, ListPrimitiveChunkedBuilder, ListStringChunkedBuilder, NamedFrom,
    ParquetCompression, ParquetReader, ParquetWriter, SerReader, Series, StatisticsOptions,
};

use super::table::{Table, Values};

/// Rows per row group: large enough for good compression, small enough that a reader can skip.
const ROW_GROUP: usize = 128 * 1024;

fn to_polars(name: &str, values: &Values) -> PlColumn {
    let name = name.into();
    match values {
        Values::U64(v) => Series::new(name, v.as_slice()).into_column(),
        Values::F64(v) => Series::new(name, v.as_slice()).into_column(),
        Values::I32(v) => Series::new(name, v.as_slice()).into_column(),
        Values::U32(v) => Series::new(name, v.as_slice()).into_column(),
        Values::U16(v) => Series::new(name, v.as_slice()).into_column(),
        Values::U8(v) => Series::new(name, v.as_slice()).into_column(),
        Values::Bool(v) => Series::new(name, v.as_slice()).into_column(),
        Values::OptU16(v) => Series::new(name, v.as_slice()).into_column(),
        Values::OptI32(v) => Series::new(name, v.as_slice()).into_column(),
        Values::Label { labels, codes } => {
            let strs: Vec<&str> = codes.iter().map(|&c| labels[c as usize].as_str()).collect();
            Series::new(name, strs).into_column()
        }
        Values::LabelList {
            labels,
            offsets,
            codes,
        } => {
            let mut b = ListStringChunkedBuilder::new(name, offsets.len(), codes.len());
            for w in offsets.windows(2) {
                let row = &codes[w[0] as usize..w[1] as usize];
                b.append_values_iter(row.iter().map(|&c| labels[c as usize].as_str()));
            }
            b.finish().into_series().into_column()
        }
        Values::I32List { offsets, values } => {
            let mut b = ListPrimitiveChunkedBuilder::<Int32Type>::new(
                name,
                offsets.len(),
                values.len(),
                DataType::Int32,
            );
            for w in offsets.windows(2) {
                b.append_slice(&values[w[0] as usize..w[1] as usize]);
            }
            b.finish().into_series().into_column()
        }
    }
}

/// The table as a polars DataFrame.
pub fn to_dataframe(table: &Table) -> DataFrame {
    let rows = table.rows();
    let columns = table
        .columns
        .iter()
        .map(|c| to_polars(c.name, &c.values))
        .collect();
    DataFrame::new(rows, columns).expect("columns of equal length (checked by Table::rows)")
}

/// The table as the bytes of one Parquet file (zstd, statistics on, one thread: the platform
/// already runs one chunk per core).
pub fn encode(table: &Table) -> Result<Vec<u8>, String> {
    let mut df = to_dataframe(table);
    let docs: serde_json::Map<String, serde_json::Value> = table
        .columns
        .iter()
        .map(|c| (c.name.to_string(), c.doc.into()))
        .collect();
    let meta = KeyValueMetadata::from_static(vec![
        ("skirmish.table".to_string(), table.name.to_string()),
        (
            "skirmish.columns".to_string(),
            serde_json::Value::Object(docs).to_string(),
        ),
    ]);
    let mut bytes = Vec::new();
    ParquetWriter::new(&mut bytes)
        .with_compression(ParquetCompression::Zstd(None))
        .with_statistics(StatisticsOptions::default())
        .with_row_group_size(Some(ROW_GROUP))
        .with_key_value_metadata(Some(meta))
        .set_parallel(false)
        .finish(&mut df)
        .map_err(|e| format!("encoding table `{}` as Parquet: {e}", table.name))?;
    Ok(bytes)
}

/// Reads a Parquet file's bytes back into a DataFrame.
pub fn decode(bytes: &[u8]) -> Result<DataFrame, String> {
    ParquetReader::new(Cursor::new(bytes))
        .finish()
        .map_err(|e| format!("reading Parquet: {e}"))
}

/// Reads a Parquet file.
pub fn read(path: &std::path::Path) -> Result<DataFrame, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// One column of a Parquet file as floats (integers widen), for readers outside this module.
pub fn read_f64s(path: &std::path::Path, column: &str) -> Result<Vec<f64>, String> {
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
pub fn read_strings(path: &std::path::Path, column: &str) -> Result<Vec<String>, String> {
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
}
