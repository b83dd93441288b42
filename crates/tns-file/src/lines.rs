//! Reading lines of text from a stream that may never end one: at most a limit of each line is
//! kept, and a longer line is skipped to its end, so input without line ends cannot grow
//! memory without limit (a protocol's pipe, a program's output).

use std::io::{BufRead, Read as _};

/// The longest line the programs' protocols read: 1 MiB.
pub const MAX_LINE: usize = 1 << 20;

/// What [`read_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line in the buffer, with its `\n` unless the input ended first.
    Whole,
    /// A line longer than the limit, skipped to its end (or to the end of the input); the
    /// buffer holds its first bytes only.
    TooLong,
    /// The end of the input, or an error reading it.
    End,
}

/// Reads one line of `input` into `line` (cleared first), keeping at most `limit` bytes of it.
///
/// ```
/// use tns_file::{Line, read_line};
///
/// let mut input = &b"go\nxxxxxxxxxx\nquit"[..];
/// let mut line = Vec::new();
/// assert_eq!(read_line(&mut input, &mut line, 8), Line::Whole);
/// assert_eq!(line, b"go\n");
/// assert_eq!(read_line(&mut input, &mut line, 8), Line::TooLong);
/// assert_eq!(read_line(&mut input, &mut line, 8), Line::Whole);
/// assert_eq!(line, b"quit");
/// assert_eq!(read_line(&mut input, &mut line, 8), Line::End);
/// ```
pub fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>, limit: usize) -> Line {
    line.clear();
    let most = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    match input.by_ref().take(most).read_until(b'\n', line) {
        Ok(0) | Err(_) => return Line::End,
        Ok(_) if line.len() <= limit || line.ends_with(b"\n") => return Line::Whole,
        Ok(_) => {}
    }
    // Skip the rest of the long line, a buffer at a time, keeping none of it.
    loop {
        let (skipped, done) = match input.fill_buf() {
            Ok([]) | Err(_) => return Line::TooLong,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buf.len(), false),
            },
        };
        input.consume(skipped);
        if done {
            return Line::TooLong;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endless stream of one byte, as `/dev/zero` is.
    struct Endless;
    impl std::io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            buf.fill(0);
            Ok(buf.len())
        }
    }

    #[test]
    fn a_line_of_exactly_the_limit_is_whole_and_one_byte_more_is_not() {
        let mut line = Vec::new();
        let exact = [vec![b'a'; 16], b"\n".to_vec()].concat();
        assert_eq!(read_line(&mut &exact[..], &mut line, 16), Line::Whole);
        let over = [vec![b'a'; 17], b"\nnext\n".to_vec()].concat();
        let mut input = &over[..];
        assert_eq!(read_line(&mut input, &mut line, 16), Line::TooLong);
        assert!(line.len() <= 17);
        assert_eq!(read_line(&mut input, &mut line, 16), Line::Whole);
        assert_eq!(line, b"next\n");
    }

    #[test]
    fn an_endless_line_is_read_in_bounded_memory_up_to_a_byte_budget() {
        // Skipping an endless line never returns, so the stream is cut after 64 MiB: what
        // matters is that the buffer never holds more than the limit.
        let mut input = std::io::BufReader::new(Endless.take(64 << 20));
        let mut line = Vec::new();
        assert_eq!(read_line(&mut input, &mut line, 1024), Line::TooLong);
        assert!(line.capacity() < 64 << 10, "{}", line.capacity());
        assert_eq!(read_line(&mut input, &mut line, 1024), Line::End);
    }
}
