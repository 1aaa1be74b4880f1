//! Errors in the files hosts write (scenarios, power files): the file, the 1-based line and
//! column, the field, and a message that says the fix. One type for every input format, so every
//! error reads the same: `file:line:col: `field`: message`. The type itself is
//! [`crate::error::FileError`], one variant of the crate's error.

use std::ops::Range;

pub use crate::error::FileError;

/// ` (did you mean `KEY`?)` for serde's "unknown field `X`, expected one of `A`, `B`" when one
/// of the expected keys is close to X (issue 80: docs promise it for a misspelt rules key).
fn did_you_mean(msg: &str) -> String {
    let ticked = |s: &str| -> Vec<String> {
        s.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let Some((head, expected)) = msg.split_once("expected") else {
        return String::new();
    };
    let (Some(unknown), options) = (ticked(head).into_iter().next(), ticked(expected)) else {
        return String::new();
    };
    crate::names::closest_name(&unknown, options.iter().map(String::as_str))
        .map_or(String::new(), |c| format!(" (did you mean `{c}`?)"))
}

/// A file's name and text, to turn byte spans into positioned errors.
pub struct FileCtx<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl FileCtx<'_> {
    /// Reads the file's TOML into `T`: a syntax error or an unknown key is located on its line,
    /// and an unknown key's message names where `format` is documented.
    pub fn toml<T: serde::de::DeserializeOwned>(&self, format: &str) -> Result<T, FileError> {
        toml::from_str(self.text).map_err(|e| {
            let msg = e.message().to_string();
            let hint = if msg.contains("unknown field") {
                format!(
                    "{}: remove it or fix its spelling ({format} lists the format)",
                    did_you_mean(&msg)
                )
            } else {
                String::new()
            };
            self.err(e.span(), "", format!("{msg}{hint}"))
        })
    }

    pub fn err(
        &self,
        span: Option<Range<usize>>,
        field: impl Into<String>,
        message: impl std::fmt::Display,
    ) -> FileError {
        let field = field.into();
        // Every error names a line and a field: a check that knows the field but not the span
        // finds the field's line; a parse error that knows the span but not the field reads the
        // key written on that line.
        let at = span
            .map(|s| line_col(self.text, s.start))
            .or_else(|| locate(self.text, &field));
        let field = match (field.is_empty(), at) {
            (true, Some((line, _))) => key_on_line(self.text, line).unwrap_or_default(),
            _ => field,
        };
        FileError {
            file: self.file.to_string(),
            at,
            field,
            message: message.to_string(),
        }
    }
}

/// The line and column where a dotted field path (`roster[1].members[0].hp`, `kinds.w.type`) is
/// written: each segment is looked for after the previous one, as a table header or as a key,
/// its `[i]` counting occurrences. `None` when not even its first segment is written.
pub fn locate(text: &str, field: &str) -> Option<(usize, usize)> {
    let mut pos = 0usize;
    let mut found = None;
    for seg in field.split('.').filter(|s| !s.is_empty()) {
        let (name, index) = match seg.split_once('[') {
            Some((n, rest)) => (n, rest.trim_end_matches(']').parse::<usize>().unwrap_or(0)),
            None => (seg, 0),
        };
        let mut from = pos;
        let mut hit = None;
        for _ in 0..=index {
            hit = find_key(text, from, name);
            match hit {
                Some(h) => from = h + name.len(),
                None => break,
            }
        }
        match hit {
            Some(h) => {
                pos = h;
                found = Some(line_col(text, h));
            }
            None => break,
        }
    }
    found
}

/// The next place at or after `from` where `name` is written as a key (`name =`) or ends a table
/// header (`[name]`, `[[name]]`, `[a.name]`).
fn find_key(text: &str, from: usize, name: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let mut start = from;
    while let Some(i) = text.get(start..)?.find(name) {
        let at = start + i;
        let end = at + name.len();
        let before_ok = at == 0 || !word(bytes[at - 1]);
        let after = text[end..].trim_start_matches([' ', '\t']);
        let is_key = after.starts_with('=') && !after.starts_with("==");
        let is_header = (after.starts_with(']') || after.starts_with('.'))
            && text[..at]
                .rsplit('\n')
                .next()
                .is_some_and(|l| l.trim_start().starts_with('['));
        if before_ok && (end >= bytes.len() || !word(bytes[end])) && (is_key || is_header) {
            return Some(at);
        }
        start = end;
    }
    None
}

/// The key written on 1-based `line` (`coins = "many"` gives `coins`; a header gives its name).
fn key_on_line(text: &str, line: usize) -> Option<String> {
    let l = text.lines().nth(line.checked_sub(1)?)?.trim();
    if l.starts_with('[') {
        return Some(l.trim_matches(['[', ']']).trim().to_string());
    }
    let key = l.split_once('=')?.0.trim();
    let bare = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    bare.then(|| key.to_string())
}

/// Reads a file from `sources` (the disk, or a text a question holds in its place), or an error
/// naming it and the fix.
pub fn read(
    sources: &crate::platform::sources::Sources,
    path: &std::path::Path,
    what: &str,
) -> Result<String, FileError> {
    sources.read(path).map_err(|e| FileError {
        file: path.display().to_string(),
        at: None,
        field: String::new(),
        message: format!("cannot read the {what} ({e}): check the path"),
    })
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::FileCtx;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Rules {
        decay: Option<i64>,
        free_ap: Option<i64>,
    }

    /// Issue 80: a misspelt rules key is named with the key it most likely meant, on its line.
    #[test]
    fn a_misspelt_key_is_told_the_key_it_meant() {
        let cx = FileCtx {
            file: "r.toml",
            text: "free_ap = 2\ndecy = 3\n",
        };
        let e = cx.toml::<Rules>("docs").unwrap_err().to_string();
        assert!(e.starts_with("r.toml:2:"), "{e}");
        assert!(e.contains("(did you mean `decay`?)"), "{e}");
        let far = FileCtx {
            file: "r.toml",
            text: "xyzzy = 3\n",
        };
        let e = far.toml::<Rules>("docs").unwrap_err().to_string();
        assert!(!e.contains("did you mean"), "{e}");
    }
}
