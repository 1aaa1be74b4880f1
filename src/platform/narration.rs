//! A told battle for a terminal, a Markdown page or a forum post (issue 50: `--narrate --format
//! text|md|bbcode` in every game).
//!
//! Every game's narration has one shape, so this knows no game: a line at the margin opens a
//! step of the story ("Round 1 (3 heroes alive)", "Turn 4:", the header lines), indented lines
//! tell what happened in it, one level deeper per two spaces, and maps are lines of short cells
//! ("`. . F . .`"). Markdown makes the steps that begin with a word and a number headings and the
//! indented lines nested lists; BBCode makes them bold lines and `[list]`s; maps keep their
//! columns in a code block. Lines are restyled one at a time, so a narration of any length still
//! streams.

use crate::error::Error;
use std::fmt::Write as _;

/// How a narration is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// As told: aligned plain text.
    #[default]
    Text,
    Markdown,
    BBCode,
}

impl Style {
    pub fn parse(s: &str) -> Result<Style, Error> {
        match s {
            "text" => Ok(Style::Text),
            "md" | "markdown" => Ok(Style::Markdown),
            "bbcode" => Ok(Style::BBCode),
            other => Err(Error::Input(format!(
                "--format `{other}`: a narration is written as text, md or bbcode"
            ))),
        }
    }
}

/// What a game's `play` tells of its one match: its result only, every step in words (written
/// in a [`Style`]), or every step as JSON Lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Told {
    Result(Style),
    Narrated(Style),
    Traced,
}

impl Told {
    /// What a command's `--trace`, `--narrate` and `--format` ask (a trace first: they conflict).
    pub fn of(trace: bool, narrate: bool, style: Style) -> Told {
        if trace {
            Told::Traced
        } else if narrate {
            Told::Narrated(style)
        } else {
            Told::Result(style)
        }
    }

    /// The style its words are written in (a trace's JSON Lines: plain text).
    pub fn style(self) -> Style {
        match self {
            Told::Result(s) | Told::Narrated(s) => s,
            Told::Traced => Style::Text,
        }
    }
}

/// The restyling of a narration, a line at a time.
#[derive(Debug, Default)]
pub struct Styler {
    style: Style,
    /// Lists open (BBCode), one per level.
    lists: usize,
    /// Inside a code block (a map).
    code: bool,
}

/// A line of a map: three cells or more, every cell short, and a third of them empty (`.`)
/// unless the map has begun (a row where every square is taken).
fn is_map(line: &str, in_map: bool) -> bool {
    let cells: Vec<&str> = line.split_whitespace().collect();
    cells.len() >= 3
        && cells.iter().all(|c| c.chars().count() <= 4)
        && (in_map || cells.iter().filter(|c| **c == ".").count() * 3 >= cells.len())
}

/// A step that opens a part of the story: a word and a number ("Round 3", "Turn 12:",
/// "=== Round 1 (3x3 map) ===").
fn is_heading(line: &str) -> bool {
    let line = line.trim_matches(|c: char| c == '=' || c == ' ');
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let second = words.next().unwrap_or("");
    first.starts_with(|c: char| c.is_ascii_uppercase())
        && second
            .trim_end_matches([':', ',', '.'])
            .chars()
            .all(|c| c.is_ascii_digit())
        && second.starts_with(|c: char| c.is_ascii_digit())
}

/// A heading with its step on the same line ("Turn 1: Clan1 4 (978 hp), ..."): the label, then
/// the rest.
fn labelled(line: &str) -> Option<(&str, &str)> {
    let (label, rest) = line.split_once(": ")?;
    (is_heading(label) && label.split_whitespace().count() == 2 && !rest.is_empty())
        .then(|| (&line[..label.len() + 1], rest))
}

/// Markdown's inline markup in a told line, escaped so names print as written (and never as
/// links, images or HTML: issue 62).
fn escape_markdown(s: &str) -> String {
    super::escape::markdown(s)
}

impl Styler {
    pub fn new(style: Style) -> Styler {
        Styler {
            style,
            ..Styler::default()
        }
    }

    pub fn style(&self) -> Style {
        self.style
    }

    /// Appends `line` (without its newline) to `out`, restyled.
    pub fn line(&mut self, line: &str, out: &mut String) {
        // Names in a told line are a host's: no control character reaches the terminal raw, no
        // bracket opens a BBCode tag (issue 62).
        let plain = super::escape::plain(line);
        let escaped;
        let line = if self.style == Style::BBCode {
            escaped = super::escape::bbcode(&plain);
            escaped.as_str()
        } else {
            &plain
        };
        if self.style == Style::Text {
            out.push_str(line);
            out.push('\n');
            return;
        }
        let map = is_map(line, self.code);
        if map != self.code {
            self.close_lists(out);
            out.push_str(match (self.style, map) {
                (Style::Markdown, true) => "\n```text\n",
                (Style::Markdown, false) => "```\n\n",
                (_, true) => "[code]\n",
                (_, false) => "[/code]\n",
            });
            self.code = map;
        }
        if map {
            // A map's cells are short, but none may close the Markdown fence.
            out.push_str(&line.replace('`', "'"));
            out.push('\n');
            return;
        }
        let text = line.trim_start();
        if text.is_empty() {
            self.close_lists(out);
            out.push('\n');
            return;
        }
        let depth = (line.len() - text.len()) / 2;
        match self.style {
            Style::Markdown => {
                if depth == 0 {
                    self.close_lists(out);
                    if let Some((label, rest)) = labelled(text) {
                        let _ = writeln!(
                            out,
                            "**{}** {}  ",
                            escape_markdown(label),
                            escape_markdown(rest)
                        );
                    } else if is_heading(text) {
                        let bare = text.trim_matches(|c: char| c == '=' || c == ' ');
                        let _ = writeln!(out, "\n### {}\n", escape_markdown(bare));
                    } else {
                        // A line of its own: two trailing spaces break it in Markdown.
                        let _ = writeln!(out, "{}  ", escape_markdown(text));
                    }
                } else {
                    self.lists = 1;
                    let _ = writeln!(out, "{}- {}", "  ".repeat(depth - 1), escape_markdown(text));
                }
            }
            Style::BBCode => {
                while self.lists > depth {
                    out.push_str("[/list]\n");
                    self.lists -= 1;
                }
                while self.lists < depth {
                    out.push_str("[list]\n");
                    self.lists += 1;
                }
                if depth == 0 {
                    if let Some((label, rest)) = labelled(text) {
                        let _ = writeln!(out, "[b]{label}[/b] {rest}");
                    } else if is_heading(text) {
                        let bare = text.trim_matches(|c: char| c == '=' || c == ' ');
                        let _ = writeln!(out, "[b]{bare}[/b]");
                    } else {
                        let _ = writeln!(out, "{text}");
                    }
                } else {
                    let _ = writeln!(out, "[*]{text}");
                }
            }
            Style::Text => unreachable!("plain text returned above"),
        }
    }

    /// Ends the open lists: BBCode closes each; Markdown leaves a blank line, or the next line
    /// at the margin would continue the last item.
    fn close_lists(&mut self, out: &mut String) {
        while self.lists > 0 {
            out.push_str(if self.style == Style::BBCode {
                "[/list]\n"
            } else {
                "\n"
            });
            self.lists = if self.style == Style::BBCode {
                self.lists - 1
            } else {
                0
            };
        }
    }

    /// Closes what is open at the end of the narration.
    pub fn end(&mut self, out: &mut String) {
        self.close_lists(out);
        if self.code {
            out.push_str(if self.style == Style::Markdown {
                "```\n"
            } else {
                "[/code]\n"
            });
            self.code = false;
        }
    }
}

/// A whole told text restyled (a narration kept in memory).
pub fn restyle(style: Style, text: &str) -> String {
    if style == Style::Text {
        return text.to_string();
    }
    let mut s = Styler::new(style);
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    for line in text.lines() {
        s.line(line, &mut out);
    }
    s.end(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOLD: &str = "Alice enters with 118 Energy.\n\nRound 1 (3 heroes alive)\n  Alice attacks.\n    Bob is hit for 16.\n  After round 1: Alice 118.\n    . . F . .\n    . C . G .\n    A B C D E\n\nAlice wins after 2 rounds.\n";

    #[test]
    fn markdown_makes_rounds_headings_steps_lists_and_maps_code() {
        let md = restyle(Style::Markdown, TOLD);
        assert!(md.contains("\n### Round 1 (3 heroes alive)\n"), "{md}");
        assert!(
            md.contains("\n- Alice attacks.\n  - Bob is hit for 16.\n"),
            "{md}"
        );
        assert!(
            md.contains("```text\n    . . F . .\n    . C . G .\n    A B C D E\n```\n"),
            "{md}"
        );
        assert!(md.contains("Alice wins after 2 rounds.  \n"), "{md}");
        let royale = restyle(Style::Markdown, "=== Round 1 (3x3 map) ===\n");
        assert!(royale.contains("### Round 1 (3x3 map)\n"), "{royale}");
        // A line at the margin after a list is not read as the list's last item.
        let after = restyle(Style::Markdown, "Round 2\n  Bob falls.\nAlice wins.\n");
        assert!(after.contains("- Bob falls.\n\nAlice wins."), "{after}");
    }

    #[test]
    fn bbcode_balances_its_lists_and_code() {
        let bb = restyle(Style::BBCode, TOLD);
        assert_eq!(
            bb.matches("[list]").count(),
            bb.matches("[/list]").count(),
            "{bb}"
        );
        assert_eq!(
            bb.matches("[code]").count(),
            bb.matches("[/code]").count(),
            "{bb}"
        );
        assert!(bb.contains("[b]Round 1 (3 heroes alive)[/b]\n[list]\n[*]Alice attacks.\n[list]\n[*]Bob is hit for 16.\n[/list]\n"), "{bb}");
    }

    #[test]
    fn a_turn_told_on_its_own_line_keeps_its_label_bold() {
        let md = restyle(Style::Markdown, "Turn 1: Clan1 4 (978 hp). Clan2 fell.\n");
        assert_eq!(md, "**Turn 1:** Clan1 4 (978 hp). Clan2 fell.  \n");
        let bb = restyle(Style::BBCode, "Turn 1: Clan1 4 (978 hp).\n");
        assert_eq!(bb, "[b]Turn 1:[/b] Clan1 4 (978 hp).\n");
    }

    #[test]
    fn text_is_told_as_it_is() {
        assert_eq!(restyle(Style::Text, TOLD), TOLD);
    }

    #[test]
    fn names_with_markdown_characters_print_as_written() {
        let md = restyle(Style::Markdown, "Big_Claws *hits* Bob\n");
        assert_eq!(md, "Big\\_Claws \\*hits\\* Bob  \n");
    }

    #[test]
    fn a_format_not_known_is_refused_by_name() {
        assert!(
            Style::parse("html")
                .unwrap_err()
                .to_string()
                .contains("text, md or bbcode")
        );
        assert_eq!(Style::parse("md"), Ok(Style::Markdown));
    }
}
