//! Grids: an answer's compact tables (issue 50). Labelled rows and titled columns whose cells are
//! numbers of the answer (a policy's win share, score and survival on one line; a clan's wins at
//! every budget), so the summary a command prints is a rendering of its answer, laid out here
//! once for the terminal, Markdown, a forum post and HTML. Knows no game.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::tally::{Count, Mean, thousands};
use super::unit::Unit;

/// A table of labelled rows under titled columns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Grid {
    pub title: String,
    /// One line on what the cells are.
    pub meaning: String,
    /// The head of the label column ("policy", "clan").
    pub corner: String,
    pub columns: Vec<GridColumn>,
    pub rows: Vec<GridRow>,
}

/// A column: its head and the unit its numbers are shown in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridColumn {
    pub head: String,
    pub unit: Unit,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GridRow {
    pub label: String,
    pub cells: Vec<Cell>,
}

/// One cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cell {
    Empty,
    Text(String),
    Count(u64),
    Value(f64),
    /// A value and its 95% interval.
    Estimate {
        value: f64,
        lo: f64,
        hi: f64,
    },
    /// `part` of `whole` (wins of melees), with the share's 95% interval.
    Of {
        part: u64,
        whole: u64,
        lo: f64,
        hi: f64,
    },
}

impl Cell {
    /// An estimate cell from a value and its interval.
    pub fn estimate((value, lo, hi): (f64, f64, f64)) -> Cell {
        Cell::Estimate { value, lo, hi }
    }

    /// The cell as its column's unit shows it: `13.2% [12.8, 13.7]`, `2.46 [2.44, 2.48]`,
    /// `1/5 [4-62%]`.
    pub fn show(&self, unit: Unit) -> String {
        match self {
            Cell::Empty => String::new(),
            Cell::Text(t) => t.clone(),
            Cell::Count(n) => thousands(*n),
            Cell::Value(v) => unit.short(*v),
            // Every observation the same (issue 63): no interval, rather than one of no width.
            Cell::Estimate { value, lo, hi } if lo == hi => {
                format!("{} (no spread)", unit.short(*value))
            }
            Cell::Estimate { value, lo, hi } => {
                format!(
                    "{} [{}, {}]",
                    unit.short(*value),
                    unit.bare(*lo),
                    unit.bare(*hi)
                )
            }
            Cell::Of {
                part,
                whole,
                lo,
                hi,
            } => format!(
                "{}/{} [{:.0}-{:.0}%]",
                thousands(*part),
                thousands(*whole),
                100.0 * lo,
                100.0 * hi
            ),
        }
    }
}

impl Grid {
    /// An empty grid with these columns (head, unit).
    pub fn new(title: &str, meaning: &str, corner: &str, columns: &[(&str, Unit)]) -> Grid {
        Grid {
            title: title.into(),
            meaning: meaning.into(),
            corner: corner.into(),
            columns: columns
                .iter()
                .map(|&(head, unit)| GridColumn {
                    head: head.into(),
                    unit,
                })
                .collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row; it must have a cell per column.
    pub fn row(&mut self, label: impl Into<String>, cells: Vec<Cell>) {
        assert_eq!(
            cells.len(),
            self.columns.len(),
            "a row of grid `{}` has {} cells for {} columns",
            self.title,
            cells.len(),
            self.columns.len()
        );
        self.rows.push(GridRow {
            label: label.into(),
            cells,
        });
    }

    /// A grid of two columns: how many were counted (`counted`) and an estimate (`what`, in
    /// `unit`) with its 95% interval, a row per `(label, count, estimate)`.
    fn counted(
        (title, meaning, corner): (&str, &str, &str),
        (counted, what, unit): (&str, &str, Unit),
        rows: impl IntoIterator<Item = (String, u64, (f64, f64, f64))>,
    ) -> Grid {
        let mut g = Grid::new(
            title,
            meaning,
            corner,
            &[(counted, Unit::Number), (what, unit)],
        );
        for (label, n, e) in rows {
            g.row(label, vec![Cell::Count(n), Cell::estimate(e)]);
        }
        g
    }

    /// A count group of a tally, a row per label in the group's order: how many were counted
    /// (`counted`: "players", "battles") and the share won with its 95% Wilson interval.
    pub fn shares(
        title: &str,
        meaning: &str,
        corner: &str,
        counted: &str,
        group: Option<&BTreeMap<String, Count>>,
    ) -> Grid {
        let rows = group.into_iter().flatten();
        Grid::counted(
            (title, meaning, corner),
            (counted, "win share [95%]", Unit::Share),
            rows.map(|(l, c)| (l.clone(), c.trials, c.estimate())),
        )
    }

    /// A group of win points (a win 2, a draw 1) as shares with 95% intervals, highest first, at
    /// most `top` rows.
    pub fn points(
        title: &str,
        meaning: &str,
        corner: &str,
        counted: &str,
        group: Option<&BTreeMap<String, Mean>>,
        top: usize,
    ) -> Grid {
        let mut rows: Vec<_> = group.into_iter().flatten().collect();
        rows.sort_by(|a, b| b.1.mean().total_cmp(&a.1.mean()));
        Grid::counted(
            (title, meaning, corner),
            (counted, "win share [95%]", Unit::Share),
            rows.into_iter()
                .take(top)
                .map(|(l, m)| (l.clone(), m.n, m.points_estimate())),
        )
    }

    /// A group of means, a row per label: how many, and the mean (`what`) with its 95% interval.
    pub fn means(
        title: &str,
        meaning: &str,
        corner: &str,
        (counted, what): (&str, &str),
        group: Option<&BTreeMap<String, Mean>>,
    ) -> Grid {
        let rows = group.into_iter().flatten();
        Grid::counted(
            (title, meaning, corner),
            (counted, what, Unit::Number),
            rows.map(|(l, m)| (l.clone(), m.n, m.estimate())),
        )
    }

    /// The head row and every row as text cells, the label first.
    pub fn cells(&self) -> (Vec<String>, Vec<Vec<String>>) {
        let head = std::iter::once(self.corner.clone())
            .chain(self.columns.iter().map(|c| c.head.clone()))
            .collect();
        let rows = self
            .rows
            .iter()
            .map(|r| {
                std::iter::once(r.label.clone())
                    .chain(
                        r.cells
                            .iter()
                            .zip(&self.columns)
                            .map(|(c, col)| c.show(col.unit)),
                    )
                    .collect()
            })
            .collect();
        (head, rows)
    }

    /// Aligned columns (terminal and forum `[code]` blocks): labels left, cells right.
    pub fn aligned(&self, indent: &str) -> String {
        let (head, rows) = self.cells();
        // Host-written labels reach a terminal: their controls shown escaped (issue 62).
        let shown = |r: Vec<String>| -> Vec<String> {
            r.into_iter()
                .map(|c| super::escape::plain(&c).into_owned())
                .collect()
        };
        let head = shown(head);
        let rows: Vec<Vec<String>> = rows.into_iter().map(shown).collect();
        let mut w: Vec<usize> = head.iter().map(|c| c.chars().count()).collect();
        for r in &rows {
            for (k, c) in r.iter().enumerate() {
                w[k] = w[k].max(c.chars().count());
            }
        }
        let mut s = String::new();
        for r in std::iter::once(&head).chain(&rows) {
            let mut line = indent.to_string();
            for (k, c) in r.iter().enumerate() {
                let pad = w[k] - c.chars().count();
                if k == 0 {
                    line.push_str(c);
                    line.push_str(&" ".repeat(pad));
                } else {
                    line.push_str("  ");
                    line.push_str(&" ".repeat(pad));
                    line.push_str(c);
                }
            }
            let _ = writeln!(s, "{}", line.trim_end());
        }
        s
    }

    /// A Markdown table, each cell passed through `cell` (the format's escaping).
    pub fn markdown(&self, cell: impl Fn(&str) -> String) -> String {
        let (head, rows) = self.cells();
        let line = |r: &[String]| {
            let cells: Vec<String> = r.iter().map(|c| cell(c)).collect();
            format!("| {} |\n", cells.join(" | "))
        };
        let mut s = line(&head);
        s.push_str("| --- |");
        s.push_str(&" ---: |".repeat(self.columns.len()));
        s.push('\n');
        for r in &rows {
            s.push_str(&line(r));
        }
        s
    }

    /// An HTML table, each cell passed through `esc`.
    pub fn html(&self, esc: impl Fn(&str) -> String) -> String {
        let (head, rows) = self.cells();
        let mut s = String::from("<table><tr>");
        for h in &head {
            let _ = write!(s, "<th>{}</th>", esc(h));
        }
        s.push_str("</tr>\n");
        for r in &rows {
            s.push_str("<tr>");
            for c in r {
                let _ = write!(s, "<td>{}</td>", esc(c));
            }
            s.push_str("</tr>\n");
        }
        s.push_str("</table>\n");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid() -> Grid {
        let mut g = Grid::new(
            "by policy",
            "win share and score",
            "policy",
            &[
                ("players", Unit::Number),
                ("win share", Unit::Share),
                ("score", Unit::Number),
                ("wins", Unit::Share),
            ],
        );
        g.row(
            "smart",
            vec![
                Cell::Count(21_597),
                Cell::estimate((0.24, 0.234, 0.246)),
                Cell::Value(2.81),
                Cell::Of {
                    part: 1,
                    whole: 5,
                    lo: 0.036,
                    hi: 0.624,
                },
            ],
        );
        g.row(
            "a | b",
            vec![
                Cell::Empty,
                Cell::Text("none".into()),
                Cell::Value(0.5),
                Cell::Empty,
            ],
        );
        g
    }

    #[test]
    fn cells_show_their_units_and_intervals() {
        let (head, rows) = grid().cells();
        assert_eq!(head, ["policy", "players", "win share", "score", "wins"]);
        assert_eq!(
            rows[0],
            [
                "smart",
                "21,597",
                "24.0% [23.4, 24.6]",
                "2.81",
                "1/5 [4-62%]"
            ]
        );
        assert_eq!(rows[1][1], "");
    }

    #[test]
    fn every_layout_holds_every_cell_on_its_row() {
        let g = grid();
        let text = g.aligned("  ");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[1].starts_with("  smart") && lines[1].ends_with("1/5 [4-62%]"));
        assert_eq!(
            lines[0].find("win share").map(|i| i + "win share".len()),
            lines[1].find("24.6]").map(|i| i + "24.6]".len()),
            "cells right-aligned under their head:\n{text}"
        );
        let md = g.markdown(|c| c.replace('|', "\\|"));
        assert!(md.contains("| a \\| b |  | none | 0.50 |  |"), "{md}");
        assert!(
            g.html(|c| c.to_string())
                .contains("<td>24.0% [23.4, 24.6]</td>")
        );
    }

    #[test]
    #[should_panic(expected = "cells for")]
    fn a_row_of_the_wrong_width_is_caught() {
        grid().row("x", vec![Cell::Empty]);
    }
}
