//! An answer written for a terminal, a Markdown page, a forum post (BBCode), JSON, or a
//! self-contained HTML page whose charts are inline SVG (issue 78: the renderers apart from the
//! model they read, `platform::answer`).

use crate::error::Error;
use std::fmt::Write as _;

use super::answer::{Answer, Estimate, FILE, HeatMap, REPORT, Section, Unit};
use super::escape::plain;
use super::grid::Grid;
use super::tally::thousands;

/// An answer as the two files a command writes beside its tables: `result.json` and
/// `report.html`.
pub fn files(a: &Answer) -> [(String, Vec<u8>); 2] {
    [
        // Sealed (issue 62): an edited grid or estimate is refused when the folder is read.
        (FILE.to_string(), super::digest::sealed_text(a).into_bytes()),
        (REPORT.to_string(), render(a, Format::Html).into_bytes()),
    ]
}

/// The last line of a command that wrote an answer into `dir`: where its report is.
pub fn report_line(dir: &std::path::Path) -> String {
    let d = dir.display();
    format!("report: {d}/{REPORT} (for a forum post: skirmish report {d} --format bbcode)\n")
}

impl HeatMap {
    fn show(&self, v: f64) -> String {
        self.unit.short(v)
    }

    /// The matrix as aligned text, rows labelled, columns numbered (their names below).
    fn text(&self) -> String {
        let w = self
            .rows
            .iter()
            .map(|r| r.chars().count())
            .max()
            .unwrap_or(1);
        let mut s = format!("{:w$}", "");
        for c in 0..self.columns.len() {
            s.push_str(&format!(" {:>7}", format!("[{}]", c + 1)));
        }
        s.push('\n');
        for (r, name) in self.rows.iter().enumerate() {
            s.push_str(&format!("{:w$}", plain(name)));
            for v in &self.values[r] {
                s.push_str(&format!(" {:>7}", self.show(*v)));
            }
            s.push('\n');
        }
        for (c, name) in self.columns.iter().enumerate() {
            s.push_str(&format!("  [{}] {}\n", c + 1, plain(name)));
        }
        s
    }

    /// Inline SVG: one cell per value, shaded from white (the smallest) to blue (the largest),
    /// its value written in it.
    pub fn svg(&self) -> String {
        // Column names written at 45 degrees above their columns (issue 64: they read [1]..[6]
        // with a legend), the head and the right margin as large as the longest name needs
        // (about 6 px a character at 11 px); the row labels' column as wide as the longest.
        let chars = |v: &[String]| v.iter().map(|x| x.chars().count()).max().unwrap_or(0) as f64;
        let slant = 6.0 * chars(&self.columns) * std::f64::consts::FRAC_1_SQRT_2;
        let label_w = (6.2 * chars(&self.rows) + 12.0).max(120.0);
        let (cell_w, cell_h, head_h) = (64.0, 24.0, slant + 16.0);
        let (nr, nc) = (self.rows.len(), self.columns.len());
        let (w, h) = (
            (label_w + cell_w * nc as f64 + 8.0)
                .max(label_w + cell_w * (nc as f64 - 0.5) + slant + 8.0),
            head_h + cell_h * nr as f64 + 8.0,
        );
        let all = self.values.iter().flatten().filter(|v| v.is_finite());
        let lo = all.clone().fold(f64::INFINITY, |a, &b| a.min(b));
        let hi = all.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
        let span = if hi > lo { hi - lo } else { 1.0 };
        let mut s = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\" font-family=\"sans-serif\" font-size=\"11\">\n",
            esc_attr(&self.title)
        );
        for c in 0..nc {
            let (x, y) = (label_w + cell_w * (c as f64 + 0.5), head_h - 6.0);
            s.push_str(&format!(
                "<text x=\"{x:.1}\" y=\"{y:.1}\" transform=\"rotate(-45 {x:.1} {y:.1})\">{}</text>\n",
                esc(&self.columns[c]),
            ));
        }
        for r in 0..nr {
            let y = head_h + cell_h * r as f64;
            s.push_str(&format!(
                "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
                label_w - 6.0,
                y + cell_h * 0.65,
                esc(&self.rows[r])
            ));
            for c in 0..nc {
                let v = self.values[r][c];
                let t = if v.is_finite() { (v - lo) / span } else { 0.0 };
                let (red, green) = ((255.0 - 200.0 * t) as u8, (255.0 - 140.0 * t) as u8);
                let x = label_w + cell_w * c as f64;
                s.push_str(&format!(
                    "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" fill=\"rgb({red},{green},255)\" stroke=\"#fff\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"{}\">{}</text>\n",
                    cell_w,
                    cell_h,
                    x + cell_w / 2.0,
                    y + cell_h * 0.65,
                    if t > 0.6 { "#fff" } else { "#222" },
                    esc(&self.show(v))
                ));
            }
        }
        s.push_str("</svg>\n");
        s
    }
}

/// The formats an answer is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Markdown,
    BBCode,
    Json,
    Html,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format, Error> {
        Ok(match s {
            "text" | "terminal" => Format::Text,
            "md" | "markdown" => Format::Markdown,
            "bbcode" | "forum" => Format::BBCode,
            "json" => Format::Json,
            "html" => Format::Html,
            other => {
                return Err(Error::Input(format!(
                    "--format `{other}`: one of text, md, bbcode, json, html"
                )));
            }
        })
    }
}

/// A value as its unit shows it: `52.10%` or `3.25`.
pub(crate) fn show(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Share => format!("{:.2}%", 100.0 * v),
        Unit::Points => format!("{:+.2} pt", 100.0 * v),
        Unit::Number => format!("{v:.2}"),
        Unit::Signed => format!("{v:+.2}"),
    }
}

/// An estimate's 95% interval, or "exact" for one exact by construction.
fn interval(unit: Unit, e: &Estimate) -> String {
    if e.exact {
        return "exact".into();
    }
    if e.lo == e.hi {
        return NO_SPREAD.into();
    }
    format!("[{}, {}]", show(unit, e.lo), show(unit, e.hi))
}

/// What stands for an interval where every observation was the same and nothing bounds the
/// value (issue 63: `[4.00, 4.00]` read as certainty): not exact, and no width to show.
pub const NO_SPREAD: &str = "all the same (no spread to measure)";

/// A section's rows as four cells (label, count, estimate, interval), the label passed through
/// the format's own escaping: every renderer lays out the same cells.
fn rows(sec: &Section, marked: &[String], label: impl Fn(&str) -> String) -> Vec<[String; 4]> {
    sec.estimates
        .iter()
        .map(|e| {
            [
                label(&mark(marked, &e.label)),
                thousands(e.count),
                show(sec.unit, e.value),
                interval(sec.unit, e),
            ]
        })
        .collect()
}

/// A label as shown in a table: the candidate's says so (issue 64: highlighted wherever it
/// appears).
fn mark(marked: &[String], label: &str) -> String {
    if marked.iter().any(|m| m == label) {
        format!("{label} (candidate)")
    } else {
        label.to_string()
    }
}

/// The verdict card as text lines (terminal), empty without one.
fn verdict_text(a: &Answer) -> String {
    let mut s = String::new();
    if !a.verdict.is_empty() {
        s.push_str(
            "
VERDICT
",
        );
        for v in &a.verdict {
            let _ = writeln!(s, "  {}", plain(v));
        }
    }
    s
}

/// Rows as aligned columns (terminal and forum `[code]` blocks), each line after `indent`.
fn aligned(rows: &[[String; 4]], indent: &str) -> String {
    let w = rows.iter().map(|r| r[0].chars().count()).max().unwrap_or(0);
    let mut s = String::new();
    for [l, n, v, i] in rows {
        let _ = writeln!(s, "{indent}{l:<w$}  {n:>12}  {v:>8}  {i}");
    }
    s
}

/// Renders an answer in `format`.
pub fn render(a: &Answer, format: Format) -> String {
    match format {
        Format::Text => text(a),
        Format::Markdown => markdown(a),
        Format::BBCode => bbcode(a),
        Format::Json => a.to_json(),
        Format::Html => html(a),
    }
}

fn text(a: &Answer) -> String {
    let mut s = format!("{}\n{}\n", plain(&a.title), plain(&a.provenance.command));
    s.push_str(&verdict_text(a));
    if !a.verdict.is_empty() {
        s.push('\n');
    }
    for (k, v) in &a.totals {
        let _ = writeln!(s, "  {}: {}", plain(k), plain(v));
    }
    s.push_str(&grids_text(a));
    s.push_str(&sections_text(a));
    s.push_str(&tail_text(a));
    s
}

/// The answer's grids with the candidate's rows marked as in [`mark`].
fn marked_grids(a: &Answer) -> Vec<Grid> {
    a.grids
        .iter()
        .map(|g| {
            let mut g = g.clone();
            for r in &mut g.rows {
                r.label = mark(&a.highlight, &r.label);
            }
            g
        })
        .collect()
}

fn grids_text(a: &Answer) -> String {
    let mut s = String::new();
    for g in &marked_grids(a) {
        let _ = writeln!(s, "\n{}   ({})", plain(&g.title), plain(&g.meaning));
        s.push_str(&g.aligned(""));
    }
    s
}

fn sections_text(a: &Answer) -> String {
    let mut s = String::new();
    for sec in &a.sections {
        let _ = writeln!(s, "\n{}   ({})", plain(&sec.title), plain(&sec.meaning));
        s.push_str(&aligned(
            &rows(sec, &a.highlight, |l| plain(l).into_owned()),
            "  ",
        ));
    }
    s
}

/// Heat maps and notes: the end of a text rendering.
fn tail_text(a: &Answer) -> String {
    let mut s = heatmaps_text(a);
    for n in &a.notes {
        let _ = writeln!(s, "\nnote: {}", plain(n));
    }
    s
}

fn heatmaps_text(a: &Answer) -> String {
    let mut s = String::new();
    for m in &a.heatmaps {
        let _ = writeln!(s, "\n{}   ({})", plain(&m.title), plain(&m.meaning));
        s.push_str(&super::escape::plain_lines(&m.text()));
    }
    s
}

/// What a command prints when it ends (issue 50: its summary is a rendering of its answer): the
/// grids where the answer has them, else every section; then heat maps, and the notes as lines
/// of their own (a candidate's standing, a stop's reason). The command line and totals are left
/// to the command's own head (how it ran); `skirmish report` shows everything.
pub fn brief(a: &Answer) -> String {
    let mut s = verdict_text(a);
    s.push_str(&if a.grids.is_empty() {
        sections_text(a)
    } else {
        grids_text(a)
    });
    s.push_str(&heatmaps_text(a));
    if !a.notes.is_empty() {
        s.push('\n');
    }
    for n in &a.notes {
        let _ = writeln!(s, "{}", plain(n));
    }
    s
}

/// Markdown's paragraphs and table cells: host-written text never read as markup (issue 62).
fn md_cell(s: &str) -> String {
    super::escape::markdown(s)
}

fn markdown(a: &Answer) -> String {
    let mut s = format!(
        "## {}\n\n{}\n\n",
        md_cell(&a.title),
        super::escape::markdown_code(&a.provenance.command)
    );
    if !a.verdict.is_empty() {
        s.push_str("> **Verdict**\n>\n");
        for v in &a.verdict {
            let _ = writeln!(s, "> - {}", md_cell(v));
        }
        s.push('\n');
    }
    for (k, v) in &a.totals {
        let _ = writeln!(s, "- {}: {}", md_cell(k), md_cell(v));
    }
    for g in &marked_grids(a) {
        let _ = writeln!(
            s,
            "\n### {}\n\n{}\n",
            md_cell(&g.title),
            md_cell(&g.meaning)
        );
        s.push_str(&g.markdown(md_cell));
    }
    for sec in &a.sections {
        let _ = writeln!(
            s,
            "\n### {}\n\n{}\n",
            md_cell(&sec.title),
            md_cell(&sec.meaning)
        );
        s.push_str("| | count | estimate | 95% interval |\n| --- | ---: | ---: | --- |\n");
        for [l, n, v, i] in rows(sec, &a.highlight, md_cell) {
            let _ = writeln!(s, "| {l} | {n} | {v} | {i} |");
        }
    }
    for m in &a.heatmaps {
        let _ = writeln!(
            s,
            "\n### {}\n\n{}\n",
            md_cell(&m.title),
            md_cell(&m.meaning)
        );
        s.push_str("| |");
        for c in &m.columns {
            let _ = write!(s, " {} |", md_cell(c));
        }
        s.push_str("\n| --- |");
        s.push_str(&" ---: |".repeat(m.columns.len()));
        s.push('\n');
        for (r, name) in m.rows.iter().enumerate() {
            let _ = write!(s, "| {} |", md_cell(name));
            for v in &m.values[r] {
                let _ = write!(s, " {} |", m.show(*v));
            }
            s.push('\n');
        }
    }
    for n in &a.notes {
        let _ = writeln!(s, "\n> {}", md_cell(n));
    }
    s
}

/// BBCode: forums differ in their table support, so each section is a `[code]` block of aligned
/// columns, which every forum shows as it is.
/// The most characters a forum post of an answer takes by default (issue 64: forums commonly
/// cap a post at 10,000 to 25,000; a Loot Arena report was 35,295).
pub const POST_LIMIT: usize = 10_000;

fn bbcode(a: &Answer) -> String {
    bbcode_post(
        a,
        Some(POST_LIMIT),
        "skirmish report FOLDER --format bbcode --full, or the folder's report.html",
    )
}

/// The answer as a forum post: the title, command and totals, then what it finds in words (its
/// notes: a candidate's verdict, what a what-if changed), then its tables in order as long as
/// the post stays within `limit` characters; the tables left out are named at the end, with
/// `everything` saying where they all are (`None`: everything).
pub fn bbcode_post(a: &Answer, limit: Option<usize>, everything: &str) -> String {
    let mut s = format!(
        "[b]{}[/b]\n[i]{}[/i]\n",
        bb(&a.title),
        bb(&a.provenance.command)
    );
    // The verdict is part of the head: never left out of a post.
    if !a.verdict.is_empty() {
        s.push_str("[quote][b]Verdict[/b]\n[list]\n");
        for v in &a.verdict {
            let _ = writeln!(s, "[*]{}", bb(v));
        }
        s.push_str("[/list][/quote]\n");
    }
    for (k, v) in &a.totals {
        let _ = writeln!(s, "{}: {}", bb(k), bb(v));
    }
    // Every block after the head, with its title (to name it when left out).
    let mut blocks: Vec<(String, String)> = Vec::new();
    for n in &a.notes {
        blocks.push(("a note".into(), format!("\n[i]{}[/i]\n", bb(n))));
    }
    for g in &marked_grids(a) {
        let mut b = format!("\n[b]{}[/b] ({})\n[code]\n", bb(&g.title), bb(&g.meaning));
        b.push_str(&super::escape::bbcode_lines(&g.aligned("")));
        b.push_str("[/code]\n");
        blocks.push((g.title.clone(), b));
    }
    for sec in &a.sections {
        let mut b = format!(
            "\n[b]{}[/b] ({})\n[code]\n",
            bb(&sec.title),
            bb(&sec.meaning)
        );
        b.push_str(&aligned(&rows(sec, &a.highlight, bb), ""));
        b.push_str("[/code]\n");
        blocks.push((sec.title.clone(), b));
    }
    for m in &a.heatmaps {
        let mut b = format!("\n[b]{}[/b] ({})\n[code]\n", bb(&m.title), bb(&m.meaning));
        b.push_str(&super::escape::bbcode_lines(&m.text()));
        b.push_str("[/code]\n");
        blocks.push((m.title.clone(), b));
    }
    // Room kept for the closing line that names what was left out.
    const CLOSING: usize = 600;
    let mut left_out: Vec<&str> = Vec::new();
    for (title, b) in &blocks {
        let fits = limit.is_none_or(|l| s.len() + b.len() + CLOSING <= l);
        if fits && left_out.is_empty() {
            s.push_str(b);
        } else {
            left_out.push(title);
        }
    }
    if !left_out.is_empty() {
        let notes = left_out.iter().filter(|t| **t == "a note").count();
        let tables: Vec<&str> = left_out
            .iter()
            .copied()
            .filter(|t| *t != "a note")
            .collect();
        let mut named = tables
            .iter()
            .take(4)
            .map(|t| bb(t))
            .collect::<Vec<_>>()
            .join("; ");
        if tables.len() > 4 {
            named.push_str(&format!("; and {} more", tables.len() - 4));
        }
        let _ = writeln!(
            s,
            "\n[i]Left out to fit a forum post: {}{}{}. Everything: {}.[/i]",
            if notes > 0 {
                format!("{notes} notes")
            } else {
                String::new()
            },
            if notes > 0 && !tables.is_empty() {
                "; "
            } else {
                ""
            },
            if tables.is_empty() {
                String::new()
            } else {
                format!("{} tables ({named})", tables.len())
            },
            bb(everything)
        );
    }
    s
}

/// Square brackets in text would read as tags; controls are shown escaped.
fn bb(s: &str) -> String {
    super::escape::bbcode(s)
}

fn esc(s: &str) -> String {
    html_escape::encode_text(&super::escape::plain(s)).into_owned()
}

fn esc_attr(s: &str) -> String {
    html_escape::encode_double_quoted_attribute(&super::escape::plain(s)).into_owned()
}

/// One self-contained page: no script, no network, readable on a phone.
fn html(a: &Answer) -> String {
    let mut s = String::from(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n",
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&a.title));
    s.push_str(
        "<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem;color:#222}\
code{background:#f3f3f3;padding:.1rem .3rem;word-break:break-all}\
table{border-collapse:collapse;margin:.5rem 0;display:block;max-width:100%;overflow-x:auto}td,th{padding:.2rem .6rem;border-bottom:1px solid #ddd;text-align:right}\
td:first-child,th:first-child{text-align:left}.chart{max-width:100%;overflow-x:auto}.chart svg.wide{max-width:100%;height:auto}.chart svg.narrow{display:none}@media (max-width:760px){.chart svg.wide{display:none}.chart svg.narrow{display:block;max-width:100%;height:auto}}.note{color:#8a4b00}\
.verdict{border-left:.3rem solid #d9822b;background:#fff6ec;padding:.3rem 1rem;margin:1rem 0}\
.verdict li{margin:.3rem 0}tr.you td{font-weight:bold;background:#fff6ec}\
h1,h2,h3,p,li{overflow-wrap:anywhere}</style>\n</head><body>\n",
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&a.title));
    let _ = writeln!(s, "<p><code>{}</code></p>", esc(&a.provenance.command));
    if !a.verdict.is_empty() {
        s.push_str("<div class=\"verdict\"><h2>Verdict</h2><ul>\n");
        for v in &a.verdict {
            let _ = writeln!(s, "<li>{}</li>", esc(v));
        }
        s.push_str("</ul></div>\n");
    }
    s.push_str("<ul>\n");
    for (k, v) in &a.totals {
        let _ = writeln!(s, "<li>{}: {}</li>", esc(k), esc(v));
    }
    let _ = writeln!(
        s,
        "<li>skirmish {}, seed {}</li>",
        esc(&a.provenance.version),
        a.provenance.seed
    );
    s.push_str("</ul>\n");
    for n in &a.notes {
        let _ = writeln!(s, "<p class=\"note\">{}</p>", esc(n));
    }
    for g in &marked_grids(a) {
        let _ = writeln!(s, "<h2>{}</h2>\n<p>{}</p>", esc(&g.title), esc(&g.meaning));
        s.push_str(&g.html(esc));
    }
    for sec in &a.sections {
        let _ = writeln!(
            s,
            "<h2>{}</h2>\n<p>{}</p>",
            esc(&sec.title),
            esc(&sec.meaning)
        );
        // Two drawings, the page's style showing one: the wide one scaled to the column on a
        // desktop (issue 80: drawn wider than the column), the narrow one, labels over bars, on
        // a phone (scaled down to a phone the wide one's text was under 7 px, issue 64).
        let _ = writeln!(
            s,
            "<div class=\"chart\">{}{}</div>",
            bars_marked(sec, &a.highlight, Layout::Wide),
            bars_marked(sec, &a.highlight, Layout::Narrow)
        );
        s.push_str(
            "<table><tr><th></th><th>count</th><th>estimate</th><th>95% interval</th></tr>\n",
        );
        for (e, [l, n, v, i]) in sec.estimates.iter().zip(rows(sec, &a.highlight, esc)) {
            let you = if a.highlight.contains(&e.label) {
                " class=\"you\""
            } else {
                ""
            };
            let _ = writeln!(
                s,
                "<tr{you}><td>{l}</td><td>{n}</td><td>{v}</td><td>{i}</td></tr>"
            );
        }
        s.push_str("</table>\n");
    }
    for m in &a.heatmaps {
        let _ = writeln!(s, "<h2>{}</h2>\n<p>{}</p>", esc(&m.title), esc(&m.meaning));
        let _ = writeln!(s, "<div class=\"chart\">{}</div>", m.svg());
    }
    if !a.provenance.inputs.is_empty() {
        s.push_str("<h2>Inputs</h2>\n<table><tr><th>file</th><th>SHA-256</th></tr>\n");
        for (f, d) in &a.provenance.inputs {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td><code>{}</code></td></tr>",
                esc(f),
                esc(d)
            );
        }
        s.push_str("</table>\n");
    }
    s.push_str("</body></html>\n");
    s
}

/// A horizontal bar chart with 95% intervals as inline SVG. Written here rather than with
/// plotters: its chart layout measures text through a font backend, which its SVG backend
/// without default features does not have, and these bars need none.
pub fn bars_svg(sec: &Section) -> String {
    bars_marked(sec, &[], Layout::Figure)
}

/// How a bar chart is drawn: a figure for the docs, or one of a report's two drawings.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    Figure,
    Wide,
    Narrow,
}

/// Most characters of a label on a phone's chart (its full words are in the bar's title and the
/// table below): about 330 px of 12 px text.
const NARROW_LABEL: usize = 44;

/// [`bars_svg`] with the bars of `marked` labels drawn in another colour (the candidate's).
/// `narrow`: for a phone (issue 80: at 390 px the wide chart showed only its labels), each
/// label on its own line above its bar, scaled to the column.
fn bars_marked(sec: &Section, marked: &[String], layout: Layout) -> String {
    let narrow = layout == Layout::Narrow;
    // The label column as wide as the longest label needs (about 6.6 px a character at 12 px,
    // issue 64: long labels were cut at the left edge), at least the 190 px it always had.
    let longest = sec
        .estimates
        .iter()
        .map(|e| mark(marked, &e.label).chars().count())
        .max()
        .unwrap_or(0) as f64;
    let label_w = if narrow {
        0.0
    } else {
        (6.6 * longest + 12.0).max(190.0)
    };
    let (bar_w, row_h, pad) = if narrow {
        (220.0, 36.0, 8.0)
    } else {
        (420.0, 22.0, 8.0)
    };
    // A narrow row's bar sits under its label.
    let bar_top = if narrow { 16.0 } else { 0.0 };
    let n = sec.estimates.len().max(1) as f64;
    let (w, h) = (label_w + bar_w + 90.0, pad * 2.0 + row_h * n + 18.0);
    // A phone's labels run over the bars: the drawing is at least as wide as the longest.
    let w = if narrow {
        w.max(7.6 * longest.min(NARROW_LABEL as f64) + 8.0)
    } else {
        w
    };
    // The scale holds every interval and the band, when there is one.
    let band = sec
        .band
        .filter(|(a, b)| a.is_finite() && b.is_finite() && a <= b);
    let top = sec
        .estimates
        .iter()
        .map(|e| e.hi.max(e.value))
        .chain(band.map(|b| b.1))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::max);
    let low = sec
        .estimates
        .iter()
        .map(|e| e.lo.min(e.value))
        .chain(band.map(|b| b.0))
        .filter(|v| v.is_finite())
        .fold(0.0f64, f64::min);
    let span = if top - low > 0.0 { top - low } else { 1.0 };
    // Room left of the bars for the value of one that goes left.
    let lead = if low < 0.0 { 64.0 } else { 0.0 };
    let w = w + lead;
    let x = |v: f64| label_w + lead + bar_w * ((v - low) / span).clamp(0.0, 1.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\"{} viewBox=\"0 0 {w:.0} {h:.0}\" width=\"{w:.0}\" height=\"{h:.0}\" role=\"img\" aria-label=\"{}\">\n",
        match layout {
            Layout::Figure => "",
            Layout::Wide => " class=\"wide\"",
            Layout::Narrow => " class=\"narrow\"",
        },
        esc_attr(&sec.title)
    );
    if let Some((a, b)) = band {
        // What counts as met, shaded behind the bars (a balance's response).
        let _ = writeln!(
            s,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#dcefdc\"><title>target: {} to {}</title></rect>",
            x(a),
            pad,
            (x(b) - x(a)).max(1.0),
            h - 18.0 - pad,
            show(sec.unit, a),
            show(sec.unit, b)
        );
    }
    let _ = writeln!(
        s,
        "<line x1=\"{0:.1}\" y1=\"{1:.1}\" x2=\"{0:.1}\" y2=\"{2:.1}\" stroke=\"#999\"/>",
        x(0.0),
        pad,
        h - 18.0
    );
    for (k, e) in sec.estimates.iter().enumerate() {
        let y = pad + row_h * k as f64;
        let label = mark(marked, &e.label);
        let label = if narrow && label.chars().count() > NARROW_LABEL {
            let cut: String = label.chars().take(NARROW_LABEL - 1).collect();
            format!("{cut}\u{2026}")
        } else {
            label
        };
        // The label's anchor: right of its column, or over its bar on a phone.
        let (label_x, label_y, anchor) = if narrow {
            (2.0, y + 12.0, "start")
        } else {
            (label_w - 6.0, y + row_h * 0.68, "end")
        };
        let (bar_y, bar_h) = if narrow {
            (y + bar_top, row_h - bar_top - 6.0)
        } else {
            (y + 4.0, row_h - 8.0)
        };
        let mid = bar_y + bar_h / 2.0;
        let v = if e.value.is_finite() { e.value } else { 0.0 };
        let (x0, x1) = (x(0.0).min(x(v)), x(0.0).max(x(v)));
        let _ = writeln!(
            s,
            "<g><title>{}: {} {}</title>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"{}\">{}</text>\
<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{}\"/>\
<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"#222\" stroke-width=\"1.5\"/>\
<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\"{}>{}</text></g>",
            esc(&e.label),
            show(sec.unit, e.value),
            interval(sec.unit, e),
            label_x,
            label_y,
            anchor,
            esc(&label),
            bar_y,
            (x1 - x0).max(0.5),
            bar_h,
            if marked.contains(&e.label) {
                "#d9822b"
            } else {
                "#4a7fb5"
            },
            x(e.lo),
            mid,
            x(e.hi),
            mid,
            // A value beside its bar's outer end: right of a bar that goes right, left of one
            // that goes left (it read over the bar).
            if v < 0.0 {
                x(e.lo.min(v)) - 4.0
            } else {
                x(e.hi.max(v)) + 4.0
            },
            mid + 4.0,
            if v < 0.0 { " text-anchor=\"end\"" } else { "" },
            show(sec.unit, e.value)
        );
    }
    let _ = writeln!(
        s,
        "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"11\" text-anchor=\"end\">{}</text>",
        label_w + lead,
        h - 4.0,
        show(sec.unit, low),
        label_w + lead + bar_w,
        h - 4.0,
        show(sec.unit, top)
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::answer::tests::answer;

    // Issue 54: a payoff table drawn as a heat map in every format; an answer without one keeps
    // its JSON bytes (no key).
    #[test]
    fn a_heat_map_renders_everywhere_and_is_absent_from_json_when_empty() {
        let plain = answer();
        assert!(!plain.to_json().contains("heatmaps"));
        let mut a = plain.clone();
        a.heatmaps.push(HeatMap {
            title: "payoffs".into(),
            meaning: "row against column".into(),
            unit: Unit::Share,
            rows: vec!["rock".into(), "paper".into()],
            columns: vec!["rock".into(), "paper".into()],
            values: vec![vec![0.5, 0.0], vec![1.0, 0.5]],
        });
        let html = render(&a, Format::Html);
        assert!(html.contains("<svg") && html.contains(">100.0%<"), "{html}");
        assert!(render(&a, Format::Markdown).contains("| paper | 100.0% | 50.0% |"));
        assert!(render(&a, Format::Text).contains("[2] paper"));
        assert!(render(&a, Format::BBCode).contains("[code]"));
        assert_eq!(Answer::from_json(&a.to_json()).unwrap(), a);
    }

    // Issue 63: `4.00 [4.00, 4.00]` read as certainty. An interval of no width is "exact" when
    // the value is exact by construction, and otherwise says there was no spread to measure.
    #[test]
    fn an_interval_of_no_width_says_exact_or_no_spread_in_every_format() {
        let mut a = answer();
        a.sections[0].estimates[0].lo = 0.5;
        a.sections[0].estimates[0].hi = 0.5;
        a.sections[0].estimates[1].lo = 0.1;
        a.sections[0].estimates[1].hi = 0.1;
        a.sections[0].estimates[1].exact = true;
        for f in [Format::Text, Format::Markdown, Format::BBCode, Format::Html] {
            let s = render(&a, f);
            assert!(s.contains(NO_SPREAD) && s.contains("exact"), "{f:?}: {s}");
            assert!(
                !s.contains("[50.0%, 50.0%]") && !s.contains("50.0% 50.0%"),
                "{s}"
            );
        }
    }

    #[test]
    fn every_format_shows_every_estimate_and_escapes_what_it_must() {
        let a = answer();
        for f in [Format::Text, Format::Markdown, Format::BBCode, Format::Html] {
            let s = render(&a, f);
            assert!(
                s.contains("50.00%") && s.contains("[40.00%, 60.00%]"),
                "{f:?}: {s}"
            );
        }
        assert!(render(&a, Format::Markdown).contains("Amoeba \\| x"));
        assert!(render(&a, Format::BBCode).contains("(none)"));
        let h = render(&a, Format::Html);
        assert!(h.contains("t &lt;b&gt;") && !h.contains("<script"));
        // One chart, drawn twice: wide for a desktop, labels over bars for a phone.
        assert_eq!(h.matches("<svg").count(), 2);
        assert!(h.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"wide\""));
        assert!(h.contains("class=\"narrow\"") && h.contains("@media (max-width:760px)"));
        assert_eq!(Answer::from_json(&render(&a, Format::Json)).unwrap(), a);
    }

    #[test]
    fn a_phone_s_chart_puts_each_label_over_its_bar_and_cuts_a_long_one() {
        let mut a = answer();
        a.sections[0].estimates[0].label = "x".repeat(80);
        let narrow = bars_marked(&a.sections[0], &[], Layout::Narrow);
        assert!(narrow.contains("text-anchor=\"start\""), "{narrow}");
        assert!(narrow.contains(&format!("{}\u{2026}", "x".repeat(NARROW_LABEL - 1))));
        // Whole only in the bar's title (a tooltip), never as drawn text.
        assert!(
            !narrow.contains(&format!(">{}<", "x".repeat(80))),
            "{narrow}"
        );
        // The figure for the docs is drawn as before: no class, labels right-aligned.
        let figure = bars_svg(&a.sections[0]);
        assert!(!figure.contains("class=") && figure.contains("text-anchor=\"end\""));
    }

    // Issue 80: a balance's response is drawn against its target, what counts as met shaded
    // behind the bars (and inside the scale); a section without one draws none, and its JSON
    // is as it was (no `band` key).
    #[test]
    fn a_section_s_band_is_shaded_behind_its_bars_and_absent_without_one() {
        let mut a = answer();
        assert!(!bars_svg(&a.sections[0]).contains("<title>target:"));
        assert!(!render(&a, Format::Json).contains("\"band\""));
        a.sections[0].band = Some((0.7, 0.8));
        let svg = bars_svg(&a.sections[0]);
        assert!(
            svg.contains("<title>target: 70.00% to 80.00%</title>"),
            "{svg}"
        );
        // The scale reaches the band's end past every interval.
        assert!(svg.contains(">80.00%</text>"), "{svg}");
        assert_eq!(Answer::from_json(&render(&a, Format::Json)).unwrap(), a);
    }
}
