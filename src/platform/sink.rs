//! Where a command's text goes: kept in memory (tests, golden files), or streamed to stdout in
//! blocks as it is made, so that a narration or a trace of any length runs in bounded memory and
//! shows its first lines at once.
//!
//! A failed write to stdout ends the process there (it is the command's whole output, and
//! nothing more can be said): a closed pipe (`| head`) quietly with exit 0, anything else (a
//! full disk) with a message and exit 1.

use std::fmt;
use std::io::Write;

/// Bytes held before a streaming sink writes them out.
const BLOCK: usize = 1 << 16;

#[derive(Debug, Default)]
pub struct Sink {
    buf: String,
    stream: bool,
    /// Restyles whole lines as they arrive (`--format md|bbcode`); `partial` holds a line not yet
    /// ended.
    styler: Option<super::narration::Styler>,
    partial: String,
}

impl Sink {
    /// Everything kept; [`Sink::finish`] returns it.
    pub fn memory() -> Sink {
        Sink::default()
    }

    /// Written to stdout in blocks of 64 KiB; [`Sink::finish`] writes the rest.
    pub fn stdout() -> Sink {
        Sink {
            stream: true,
            ..Sink::default()
        }
    }

    /// The same sink, writing each line restyled for a page or a forum post.
    pub fn styled(mut self, style: super::narration::Style) -> Sink {
        if style != super::narration::Style::Text {
            self.styler = Some(super::narration::Styler::new(style));
        }
        self
    }

    pub fn push_str(&mut self, s: &str) {
        match &mut self.styler {
            // Told text carries a host's names: controls shown escaped (issue 62).
            None => self.buf.push_str(&super::escape::plain_lines(s)),
            Some(styler) => {
                self.partial.push_str(s);
                while let Some(end) = self.partial.find('\n') {
                    styler.line(&self.partial[..end], &mut self.buf);
                    self.partial.drain(..=end);
                }
            }
        }
        self.spill();
    }

    pub fn push(&mut self, c: char) {
        let mut b = [0u8; 4];
        self.push_str(c.encode_utf8(&mut b));
    }

    /// The text not yet written out: all of it in memory, the current block when streaming.
    pub fn pending(&self) -> &str {
        &self.buf
    }

    /// Drops the text not yet written out after byte `len` (trailing blanks before a verdict).
    pub fn truncate(&mut self, len: usize) {
        self.buf.truncate(len);
    }

    fn spill(&mut self) {
        if self.stream && self.buf.len() >= BLOCK {
            write_stdout(self.buf.as_bytes());
            self.buf.clear();
        }
    }

    /// In memory: the whole text. Streaming: writes what is left and returns "" (the caller
    /// prints what it returns, so text after the sink still comes after it).
    pub fn finish(mut self) -> String {
        if let Some(mut styler) = self.styler.take() {
            if !self.partial.is_empty() {
                styler.line(&std::mem::take(&mut self.partial), &mut self.buf);
            }
            styler.end(&mut self.buf);
        }
        if self.stream {
            write_stdout(self.buf.as_bytes());
            self.buf.clear();
            let _ = std::io::stdout().flush();
        }
        std::mem::take(&mut self.buf)
    }
}

impl fmt::Write for Sink {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.push_str(s);
        Ok(())
    }
}

/// Writes `bytes` to stdout; a failure ends the process (see the module's note).
fn write_stdout(bytes: &[u8]) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_all(bytes).and_then(|()| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: writing the output to stdout failed ({e}); it is incomplete");
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn a_memory_sink_keeps_everything_in_order() {
        let mut s = Sink::memory();
        for k in 0..20_000 {
            let _ = write!(s, "{k} ");
        }
        s.push('!');
        let text = s.finish();
        assert!(text.starts_with("0 1 2 "));
        assert!(text.ends_with("19999 !"));
        assert!(text.len() > BLOCK);
    }
}
