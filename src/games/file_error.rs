//! Errors in the files hosts write (scenarios, power files): the file, the 1-based line and
//! column, the field, and a message that says the fix. One type for every input format, so every
//! error reads the same: `file:line:col: `field`: message`.

use std::fmt;
use std::ops::Range;

/// A problem in an input file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: String,
    /// 1-based line and column, where known.
    pub at: Option<(usize, usize)>,
    pub field: String,
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some((l, c)) = self.at {
            write!(f, ":{l}:{c}")?;
        }
        if self.field.is_empty() {
            write!(f, ": {}", self.message)
        } else {
            write!(f, ": `{}`: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for FileError {}

/// A file's name and text, to turn byte spans into positioned errors.
pub struct FileCtx<'a> {
    pub file: &'a str,
    pub text: &'a str,
}

impl FileCtx<'_> {
    pub fn err(
        &self,
        span: Option<Range<usize>>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> FileError {
        FileError {
            file: self.file.to_string(),
            at: span.map(|s| line_col(self.text, s.start)),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Reads a file, or an error naming it and the fix.
pub fn read(path: &std::path::Path, what: &str) -> Result<String, FileError> {
    std::fs::read_to_string(path).map_err(|e| FileError {
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
