//! Text a host wrote (names of powers, items, players, clans, files) on its way into each output
//! format (issue 62): shown as written, never read as markup or as terminal commands.
//!
//! - [`plain`]: control characters (ESC, BEL, a newline inside a name...) and the bidirectional
//!   overrides that reorder what a terminal shows, as `\u{1b}`; everything else as it is. Every
//!   other escaper starts from it.
//! - [`markdown`]: CommonMark's inline syntax escaped with backslashes (links, images, emphasis,
//!   code, table pipes, `<` and `&` so no raw HTML or entity survives), and `://` broken so no
//!   bare address turns into a link.
//! - [`bbcode`]: square brackets as parentheses, so no tag opens or closes.
//!
//! HTML goes through the `html-escape` crate (in `answer`), after [`plain`].

use std::borrow::Cow;

/// Whether `c` must not reach a terminal or a page raw: C0 and C1 controls (newline included: a
/// name is one line), DEL, and the Unicode bidirectional controls.
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// `s` with every hidden character written as `\u{..}`.
pub fn plain(s: &str) -> Cow<'_, str> {
    if !s.chars().any(hidden) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// [`plain`] for text of several lines: hidden characters escaped, newlines and tabs kept.
pub fn plain_lines(s: &str) -> Cow<'_, str> {
    let kept = |c: char| c == '\n' || c == '\t';
    if !s.chars().any(|c| !kept(c) && hidden(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if !kept(c) && hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` for a Markdown paragraph or table cell.
pub fn markdown(s: &str) -> String {
    let s = plain(s);
    let mut out = String::with_capacity(s.len() + 8);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '!' | '~' | '#' | '<' | '>' | '&' => {
                out.push('\\');
                out.push(c);
            }
            ':' if chars.peek() == Some(&'/') => out.push_str("\\:"),
            _ => out.push(c),
        }
    }
    out
}

/// `s` inside a Markdown code span: fenced by more backticks than it holds in a row.
pub fn markdown_code(s: &str) -> String {
    let s = plain(s);
    let (mut run, mut longest) = (0, 0);
    for c in s.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    let pad = if longest > 0 { " " } else { "" };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// `s` for a BBCode post.
pub fn bbcode(s: &str) -> String {
    inert_brackets(&plain(s))
}

/// [`bbcode`] for text of several lines.
pub fn bbcode_lines(s: &str) -> String {
    inert_brackets(&plain_lines(s))
}

/// Brackets that could open a tag (`[b]`, `[/url]`, `[*]`: anything but a number) become
/// parentheses with their closing bracket; a number's brackets, an interval's `[52.5, 53.3]`,
/// stay as written (issue 80: the post read `(52.5, 53.3)`), since no tag starts with one.
fn inert_brackets(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    // Whether the bracket open now was made inert (its `]` then is too).
    let mut inert = false;
    while let Some(c) = chars.next() {
        match c {
            '[' => {
                let number = matches!(chars.peek(), Some(d) if d.is_ascii_digit() || matches!(d, '-' | '+' | '.'));
                inert = !number;
                out.push(if number { '[' } else { '(' });
            }
            ']' if inert => {
                inert = false;
                out.push(')');
            }
            c => out.push(c),
        }
    }
    out
}

/// `word` as one POSIX shell word: unchanged when it holds only characters no shell treats
/// specially, else in single quotes (a `'` inside written `'\''`). The manifest's recorded
/// command is pasted into a shell; a path holding a quote or a space must survive that.
pub fn shell_quote(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./,:=@%+".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_shown_escaped() {
        assert_eq!(plain("a\u{1b}[2Jb\u{7}"), "a\\u{1b}[2Jb\\u{7}");
        assert_eq!(plain("x\u{202e}y\nz"), "x\\u{202e}y\\u{a}z");
        assert!(matches!(plain("Thorns"), Cow::Borrowed(_)));
        assert_eq!(plain_lines("a\u{7}\nb"), "a\\u{7}\nb");
    }

    #[test]
    fn bbcode_keeps_an_interval_s_brackets_and_makes_every_tag_inert() {
        assert_eq!(bbcode("52.9% [52.5, 53.3]"), "52.9% [52.5, 53.3]");
        assert_eq!(bbcode("[-0.3, 0.3] and [+1, 2]"), "[-0.3, 0.3] and [+1, 2]");
        assert_eq!(
            bbcode("[b]x[/b] [*] [url=http://e.com]"),
            "(b)x(/b) (*) (url=http://e.com)"
        );
        assert_eq!(bbcode("a ] b"), "a ] b");
        assert!(!bbcode("[[b]]").contains("[b"));
    }

    #[test]
    fn markdown_links_images_html_and_pipes_are_escaped() {
        let m = markdown("![x](http://e.com) <img src=x onerror=alert(1)> a|b *c* &amp;");
        assert!(m.contains("\\<img") && !m.contains(" <img"));
        assert!(m.contains("\\!\\[x\\](http\\://e.com)"));
        assert!(m.contains("a\\|b"));
        assert!(m.contains("\\&amp;"));
    }

    #[test]
    fn a_code_span_outlasts_the_backticks_inside() {
        assert_eq!(markdown_code("a"), "`a`");
        assert_eq!(markdown_code("a`b"), "`` a`b ``");
    }

    #[test]
    fn bbcode_tags_cannot_open() {
        assert_eq!(bbcode("[/list][url=x]y[/url]"), "(/list)(url=x)y(/url)");
    }
}
