//! Columns a simulation fills for one chunk of matches, in plain Rust types.
//!
//! Games fill [`Table`]s; the Parquet writer (`super::parquet`) turns them into files. Games
//! therefore never see polars, and the kernels build and test without it.

/// One named column. List columns keep arrow's layout (offsets into one flat value buffer) so
/// filling them costs a push, not an allocation per row.
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    U64(Vec<u64>),
    F64(Vec<f64>),
    I32(Vec<i32>),
    U32(Vec<u32>),
    U16(Vec<u16>),
    U8(Vec<u8>),
    Bool(Vec<bool>),
    /// An optional value per row (`None` is written as null).
    OptU16(Vec<Option<u16>>),
    OptI32(Vec<Option<i32>>),
    /// A string per row, as an index into `labels` (power names, end reasons...).
    Label {
        labels: Vec<String>,
        codes: Vec<u16>,
    },
    /// A list of strings per row: row `r` is `codes[offsets[r]..offsets[r + 1]]` into `labels`.
    LabelList {
        labels: Vec<String>,
        offsets: Vec<u32>,
        codes: Vec<u16>,
    },
    /// A list of integers per row, laid out like `LabelList`.
    I32List {
        offsets: Vec<u32>,
        values: Vec<i32>,
    },
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::U64(v) => v.len(),
            Values::F64(v) => v.len(),
            Values::I32(v) => v.len(),
            Values::U32(v) => v.len(),
            Values::U16(v) => v.len(),
            Values::U8(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::OptU16(v) => v.len(),
            Values::OptI32(v) => v.len(),
            Values::Label { codes, .. } => codes.len(),
            Values::LabelList { offsets, .. } | Values::I32List { offsets, .. } => {
                offsets.len().saturating_sub(1)
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Room for `more`'s rows too, so that appending it copies once.
    fn reserve(&mut self, more: &Values) {
        use Values::*;
        match (self, more) {
            (U64(a), U64(b)) => a.reserve(b.len()),
            (F64(a), F64(b)) => a.reserve(b.len()),
            (I32(a), I32(b)) => a.reserve(b.len()),
            (U32(a), U32(b)) => a.reserve(b.len()),
            (U16(a), U16(b)) => a.reserve(b.len()),
            (U8(a), U8(b)) => a.reserve(b.len()),
            (Bool(a), Bool(b)) => a.reserve(b.len()),
            (OptU16(a), OptU16(b)) => a.reserve(b.len()),
            (OptI32(a), OptI32(b)) => a.reserve(b.len()),
            (Label { codes, .. }, Label { codes: c, .. }) => codes.reserve(c.len()),
            (
                LabelList { offsets, codes, .. },
                LabelList {
                    offsets: o,
                    codes: c,
                    ..
                },
            ) => {
                offsets.reserve(o.len());
                codes.reserve(c.len());
            }
            (
                I32List { offsets, values },
                I32List {
                    offsets: o,
                    values: v,
                },
            ) => {
                offsets.reserve(o.len());
                values.reserve(v.len());
            }
            _ => {}
        }
    }

    /// See [`Table::append`].
    fn append(&mut self, next: Values) {
        use Values::*;
        match (self, next) {
            (U64(a), U64(b)) => a.extend(b),
            (F64(a), F64(b)) => a.extend(b),
            (I32(a), I32(b)) => a.extend(b),
            (U32(a), U32(b)) => a.extend(b),
            (U16(a), U16(b)) => a.extend(b),
            (U8(a), U8(b)) => a.extend(b),
            (Bool(a), Bool(b)) => a.extend(b),
            (OptU16(a), OptU16(b)) => a.extend(b),
            (OptI32(a), OptI32(b)) => a.extend(b),
            (
                Label { labels, codes },
                Label {
                    labels: l,
                    codes: c,
                },
            ) => {
                let map = relabel(labels, l);
                codes.extend(
                    c.into_iter()
                        .map(|c| map.get(c as usize).copied().unwrap_or(c)),
                );
            }
            (
                LabelList {
                    labels,
                    offsets,
                    codes,
                },
                LabelList {
                    labels: l,
                    offsets: o,
                    codes: c,
                },
            ) => {
                let map = relabel(labels, l);
                shift(offsets, &o, codes.len());
                codes.extend(
                    c.into_iter()
                        .map(|c| map.get(c as usize).copied().unwrap_or(c)),
                );
            }
            (
                I32List { offsets, values },
                I32List {
                    offsets: o,
                    values: v,
                },
            ) => {
                shift(offsets, &o, values.len());
                values.extend(v);
            }
            _ => panic!("appending a column of another kind"),
        }
    }
}

/// The codes `next`'s labels take in `labels`, which gains those it lacks (in `next`'s order, so
/// interning by first use is kept); the same list (a run's fixed list) maps to itself.
fn relabel(labels: &mut Vec<String>, next: Vec<String>) -> Vec<u16> {
    if *labels == next {
        return (0..next.len() as u16).collect();
    }
    next.into_iter()
        .map(|l| match labels.iter().position(|x| *x == l) {
            Some(i) => i as u16,
            None => {
                labels.push(l);
                (labels.len() - 1) as u16
            }
        })
        .collect()
}

/// `next`'s list offsets after `offsets`, whose rows hold `values` values so far.
fn shift(offsets: &mut Vec<u32>, next: &[u32], values: usize) {
    if offsets.is_empty() {
        offsets.push(0);
    }
    let base = values as u32;
    offsets.extend(next.iter().skip(1).map(|o| o + base));
}

/// A column: its name, what it means (written into the file so a reader needs nothing else), and
/// its values.
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    pub name: &'static str,
    pub doc: &'static str,
    pub values: Values,
}

/// A column from its parts.
pub fn col(name: &'static str, doc: &'static str, values: Values) -> Column {
    Column { name, doc, values }
}

/// Interns strings into a `Values::Label` column as rows arrive.
#[derive(Debug, Default)]
pub struct LabelBuilder {
    labels: Vec<String>,
    codes: Vec<u16>,
}

impl LabelBuilder {
    pub fn push(&mut self, s: &str) {
        let code = match self.labels.iter().position(|l| l == s) {
            Some(i) => i,
            None => {
                self.labels.push(s.to_string());
                self.labels.len() - 1
            }
        };
        self.codes.push(code as u16);
    }
    pub fn finish(self) -> Values {
        Values::Label {
            labels: self.labels,
            codes: self.codes,
        }
    }
}

/// What a column of a declared table ([`table!`](crate::table)) holds: the value a row gives
/// it (`Row`), how those are gathered row by row, and the [`Values`] they become.
pub trait Cell {
    type Row<'a>;
    type Builder: Default;
    fn push(b: &mut Self::Builder, v: Self::Row<'_>);
    fn finish(b: Self::Builder) -> Values;
    /// Room for `rows` rows (a chunk's known size), so that filling costs no reallocation.
    fn reserve(_b: &mut Self::Builder, _rows: usize) {}
}

macro_rules! plain_cells {
    ($($t:ty => $v:ident),* $(,)?) => {$(
        impl Cell for $t {
            type Row<'a> = $t;
            type Builder = Vec<$t>;
            #[inline]
            fn push(b: &mut Vec<$t>, v: $t) {
                b.push(v);
            }
            fn finish(b: Vec<$t>) -> Values {
                Values::$v(b)
            }
            fn reserve(b: &mut Vec<$t>, rows: usize) {
                b.reserve(rows);
            }
        }
    )*};
}

plain_cells!(
    u64 => U64, f64 => F64, i32 => I32, u32 => U32, u16 => U16, u8 => U8, bool => Bool,
    Option<u16> => OptU16, Option<i32> => OptI32,
);

/// A string column: each row's string (`&str`) interned into the table's labels in order of
/// first use.
pub struct Label;

impl Cell for Label {
    type Row<'a> = &'a str;
    type Builder = LabelBuilder;
    #[inline]
    fn push(b: &mut LabelBuilder, v: &str) {
        b.push(v);
    }
    fn finish(b: LabelBuilder) -> Values {
        b.finish()
    }
}

/// A label column whose labels are the run's own list (policies, items, classes), known only
/// when the table is built: each row gives an index into it (`u16`), and
/// [`Table::with_labels`] attaches the list.
pub struct Code;

impl Cell for Code {
    type Row<'a> = u16;
    type Builder = Vec<u16>;
    #[inline]
    fn push(b: &mut Vec<u16>, v: u16) {
        b.push(v);
    }
    fn finish(codes: Vec<u16>) -> Values {
        Values::Label {
            labels: Vec::new(),
            codes,
        }
    }
    fn reserve(b: &mut Vec<u16>, rows: usize) {
        b.reserve(rows);
    }
}

/// A list of [`Code`]s per row (`&[u16]`: the items a champion carries).
pub struct Codes;

impl Cell for Codes {
    type Row<'a> = &'a [u16];
    type Builder = ListBuilder<u16>;
    #[inline]
    fn push(b: &mut ListBuilder<u16>, v: &[u16]) {
        b.push_row(v);
    }
    fn finish(b: ListBuilder<u16>) -> Values {
        let (offsets, codes) = b.into_parts();
        Values::LabelList {
            labels: Vec::new(),
            offsets,
            codes,
        }
    }
    fn reserve(b: &mut ListBuilder<u16>, rows: usize) {
        b.offsets.reserve(rows + 1);
        b.values.reserve(2 * rows);
    }
}

/// A list of integers per row (`&[i32]`: a side's hit points after each round).
pub struct I32s;

impl Cell for I32s {
    type Row<'a> = &'a [i32];
    type Builder = ListBuilder<i32>;
    #[inline]
    fn push(b: &mut ListBuilder<i32>, v: &[i32]) {
        b.push_row(v);
    }
    fn finish(b: ListBuilder<i32>) -> Values {
        let (offsets, values) = b.into_parts();
        Values::I32List { offsets, values }
    }
    fn reserve(b: &mut ListBuilder<i32>, rows: usize) {
        b.offsets.reserve(rows + 1);
        b.values.reserve(2 * rows);
    }
}

/// Declares a table once (issue 50): a row type whose fields are the columns, each with what it
/// holds (a [`Cell`]: a number, `Option`, [`Label`], [`Code`], [`Codes`], [`I32s`]) and its one-line
/// meaning, and a builder that gathers rows column by column and becomes the [`Table`]. Column
/// order, names and meanings are the declaration's.
///
/// ```
/// use skirmish::platform::table::Label;
/// skirmish::table! {
///     /// One row per game.
///     pub struct GameRow, GameRows = "games" {
///         game_id: u64 => "game index under the master seed",
///         end: Label => "how it ended",
///         winner: Option<u16> => "the winner; null unless won",
///     }
/// }
/// let mut rows = GameRows::default();
/// rows.push(GameRow { game_id: 7, end: "won", winner: Some(2) });
/// assert_eq!(rows.finish().rows(), 1);
/// ```
#[macro_export]
macro_rules! table {
    (
        $(#[$m:meta])*
        $vis:vis struct $row:ident, $rows:ident = $name:literal {
            $($field:ident : $ty:ty => $doc:literal),* $(,)?
        }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug)]
        $vis struct $row<'a> {
            $(pub $field: <$ty as $crate::platform::table::Cell>::Row<'a>,)*
        }

        /// The rows of one chunk, gathered column by column.
        #[derive(Default)]
        $vis struct $rows {
            $($field: <$ty as $crate::platform::table::Cell>::Builder,)*
        }

        impl $rows {
            /// Room for `rows` rows in every column.
            #[allow(dead_code)]
            pub fn with_capacity(rows: usize) -> $rows {
                let mut s = $rows::default();
                $(<$ty as $crate::platform::table::Cell>::reserve(&mut s.$field, rows);)*
                s
            }

            #[inline]
            pub fn push(&mut self, r: $row<'_>) {
                $(<$ty as $crate::platform::table::Cell>::push(&mut self.$field, r.$field);)*
            }

            pub fn finish(self) -> $crate::platform::table::Table {
                $crate::platform::table::Table {
                    name: $name,
                    columns: vec![$($crate::platform::table::col(
                        stringify!($field),
                        $doc,
                        <$ty as $crate::platform::table::Cell>::finish(self.$field),
                    ),)*],
                }
            }
        }
    };
}

/// One table of one chunk (for example the `matches` rows of matches 200,000..300,000).
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: &'static str,
    pub columns: Vec<Column>,
}

impl Table {
    /// The table with `labels` attached to its [`Code`] or [`Codes`] column `column`.
    pub fn with_labels(mut self, column: &str, labels: Vec<String>) -> Table {
        let c = self
            .columns
            .iter_mut()
            .find(|c| c.name == column)
            .unwrap_or_else(|| panic!("table `{}` has no column `{column}`", self.name));
        match &mut c.values {
            Values::Label { labels: l, .. } | Values::LabelList { labels: l, .. } => *l = labels,
            _ => panic!("column `{column}` of `{}` holds no labels", self.name),
        }
        self
    }

    /// The table without its column `column`: one declaration serves two tables that differ
    /// by a column (the power values' `heroes` table and its overall `powers`).
    pub fn without(mut self, column: &str) -> Table {
        let before = self.columns.len();
        self.columns.retain(|c| c.name != column);
        assert_ne!(
            before,
            self.columns.len(),
            "table `{}` has no column `{column}`",
            self.name
        );
        self
    }

    /// The table under another name.
    pub fn named(mut self, name: &'static str) -> Table {
        self.name = name;
        self
    }

    /// The table with column `column`'s meaning told anew (one declaration, two tables whose
    /// column means a different thing: the Minion study's stat and nation changes).
    pub fn with_doc(mut self, column: &str, doc: &'static str) -> Table {
        let c = self
            .columns
            .iter_mut()
            .find(|c| c.name == column)
            .unwrap_or_else(|| panic!("table `{}` has no column `{column}`", self.name));
        c.doc = doc;
        self
    }

    /// `next`'s rows after this table's: a chunk played in pieces (on several threads) becomes
    /// the table the chunk played whole would be, byte for byte once written. Labels interned in
    /// order of first use stay in that order (the later piece's new labels follow).
    pub fn append(&mut self, next: Table) {
        assert_eq!(self.name, next.name, "appending another table");
        assert_eq!(self.columns.len(), next.columns.len(), "`{}`", self.name);
        for (a, b) in self.columns.iter_mut().zip(next.columns) {
            assert_eq!(a.name, b.name, "columns of `{}` out of order", self.name);
            a.values.append(b.values);
        }
    }

    /// The pieces' rows in order, as one table (see [`Table::append`]); room for them all is
    /// made first, so each row is copied once.
    pub fn concat(pieces: Vec<Table>) -> Table {
        let mut pieces = pieces.into_iter();
        let mut whole = pieces.next().expect("at least one piece");
        let rest: Vec<Table> = pieces.collect();
        for (i, c) in whole.columns.iter_mut().enumerate() {
            for t in &rest {
                c.values.reserve(&t.columns[i].values);
            }
        }
        rest.into_iter().for_each(|t| whole.append(t));
        whole
    }

    /// Rows, checking that every column has the same number.
    pub fn rows(&self) -> usize {
        let n = self.columns.first().map_or(0, |c| c.values.len());
        for c in &self.columns {
            assert_eq!(
                c.values.len(),
                n,
                "column `{}` of table `{}` has a different row count",
                c.name,
                self.name
            );
        }
        n
    }
}

/// Builds a list column row by row: `push` values, then `end_row`.
#[derive(Clone, Debug, Default)]
pub struct ListBuilder<T> {
    pub offsets: Vec<u32>,
    pub values: Vec<T>,
}

impl<T> ListBuilder<T> {
    pub fn with_capacity(rows: usize, values: usize) -> ListBuilder<T> {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        ListBuilder {
            offsets,
            values: Vec::with_capacity(values),
        }
    }

    #[inline]
    pub fn push(&mut self, v: T) {
        self.values.push(v);
    }

    #[inline]
    pub fn end_row(&mut self) {
        self.offsets.push(self.values.len() as u32);
    }
}

impl<T: Copy> ListBuilder<T> {
    /// One whole row (a builder made by `default()` starts its offsets here).
    #[inline]
    pub fn push_row(&mut self, row: &[T]) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.values.extend_from_slice(row);
        self.end_row();
    }

    /// The offsets (starting at 0, even with no row) and the values.
    pub fn into_parts(mut self) -> (Vec<u32>, Vec<T>) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        (self.offsets, self.values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_builder_offsets_delimit_rows() {
        let mut b = ListBuilder::with_capacity(3, 4);
        b.push(1);
        b.push(2);
        b.end_row();
        b.end_row();
        b.push(3);
        b.end_row();
        assert_eq!(b.offsets, vec![0, 2, 2, 3]);
        let v = Values::I32List {
            offsets: b.offsets,
            values: b.values,
        };
        assert_eq!(v.len(), 3);
    }

    crate::table! {
        /// A test table: one column of every kind.
        struct TestRow, TestRows = "test" {
            id: u64 => "an id",
            end: Label => "interned in order of first use",
            pair: Code => "an index into the run's list",
            items: Codes => "indices, a list per row",
            hp: I32s => "numbers, a list per row",
            winner: Option<u16> => "null or a seat",
        }
    }

    // Issue 50: a declared table is the table written column by column by hand.
    #[test]
    fn a_declared_table_is_the_hand_built_one() {
        let mut rows = TestRows::default();
        rows.push(TestRow {
            id: 1,
            end: "won",
            pair: 2,
            items: &[0, 1],
            hp: &[5, 3],
            winner: Some(1),
        });
        rows.push(TestRow {
            id: 2,
            end: "draw",
            pair: 0,
            items: &[],
            hp: &[4],
            winner: None,
        });
        rows.push(TestRow {
            id: 3,
            end: "won",
            pair: 1,
            items: &[1],
            hp: &[],
            winner: Some(0),
        });
        let got = rows
            .finish()
            .with_labels("pair", vec!["a".into(), "b".into(), "c".into()]);
        let names = || vec!["x".to_string(), "y".to_string()];
        let want = Table {
            name: "test",
            columns: vec![
                col("id", "an id", Values::U64(vec![1, 2, 3])),
                col(
                    "end",
                    "interned in order of first use",
                    Values::Label {
                        labels: vec!["won".into(), "draw".into()],
                        codes: vec![0, 1, 0],
                    },
                ),
                col(
                    "pair",
                    "an index into the run's list",
                    Values::Label {
                        labels: vec!["a".into(), "b".into(), "c".into()],
                        codes: vec![2, 0, 1],
                    },
                ),
                col(
                    "items",
                    "indices, a list per row",
                    Values::LabelList {
                        labels: Vec::new(),
                        offsets: vec![0, 2, 2, 3],
                        codes: vec![0, 1, 1],
                    },
                ),
                col(
                    "hp",
                    "numbers, a list per row",
                    Values::I32List {
                        offsets: vec![0, 2, 3, 3],
                        values: vec![5, 3, 4],
                    },
                ),
                col(
                    "winner",
                    "null or a seat",
                    Values::OptU16(vec![Some(1), None, Some(0)]),
                ),
            ],
        };
        assert_eq!(got, want);
        assert_eq!(got.with_labels("items", names()).rows(), 3);
        assert_eq!(
            TestRows::default().finish().rows(),
            0,
            "no rows, still a table"
        );
    }

    // A chunk played in pieces on several threads is appended back together: it must be the
    // chunk played whole, labels interned by first use included, at every split.
    #[test]
    fn a_table_appended_from_pieces_is_the_table_built_whole() {
        type Row<'a> = (u64, &'a str, u16, &'a [u16], &'a [i32], Option<u16>);
        let rows: [Row; 4] = [
            (1, "won", 2, &[0, 1], &[5, 3], Some(1)),
            (2, "draw", 0, &[], &[4], None),
            (3, "won", 1, &[1], &[], Some(0)),
            (4, "timeout", 1, &[2, 2, 2], &[7], Some(2)),
        ];
        let build = |rs: &[Row]| {
            let mut t = TestRows::default();
            for &(id, end, pair, items, hp, winner) in rs {
                t.push(TestRow {
                    id,
                    end,
                    pair,
                    items,
                    hp,
                    winner,
                });
            }
            t.finish()
                .with_labels("pair", vec!["a".into(), "b".into(), "c".into()])
        };
        let whole = build(&rows);
        for a in 0..=rows.len() {
            for b in a..=rows.len() {
                let t = Table::concat(vec![
                    build(&rows[..a]),
                    build(&rows[a..b]),
                    build(&rows[b..]),
                ]);
                assert_eq!(t, whole, "pieces ..{a}, {a}..{b}, {b}..");
            }
        }
    }

    #[test]
    #[should_panic(expected = "different row count")]
    fn ragged_tables_are_caught() {
        let t = Table {
            name: "t",
            columns: vec![
                Column {
                    name: "a",
                    doc: "",
                    values: Values::U8(vec![1, 2]),
                },
                Column {
                    name: "b",
                    doc: "",
                    values: Values::Bool(vec![true]),
                },
            ],
        };
        t.rows();
    }
}
