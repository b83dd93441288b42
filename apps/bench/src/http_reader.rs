//! Reading HTTP/1.1 answers off a socket by hand, for the load tests: a status line and headers,
//! a body by its length or in chunks, and a chunked body's lines (a stream of JSON lines) with a
//! limit on a line's length. A read that times out loses nothing: the reader keeps what it has
//! and the next call goes on from there, so a stream can be read with a short timeout.

use std::io::{self, Read};

/// The most bytes a status line, a header or a chunk's size line may have.
const HEAD_LINE: usize = 8 * 1024;

/// How many bytes a read asks the socket for.
const READ_SIZE: usize = 16 * 1024;

fn invalid(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

/// An answer's status and how its body comes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    pub status: u16,
    /// `Content-Length`, when given.
    pub length: Option<usize>,
    /// `Transfer-Encoding: chunked`.
    pub chunked: bool,
}

/// The bytes of a connection, read as they are needed.
#[derive(Debug)]
pub(crate) struct HttpReader<R> {
    inner: R,
    /// Read and not yet used: `buf[pos..]`.
    buf: Vec<u8>,
    pos: usize,
}

impl<R: Read> HttpReader<R> {
    pub(crate) fn new(inner: R) -> HttpReader<R> {
        HttpReader { inner, buf: Vec::new(), pos: 0 }
    }

    fn unread(&self) -> &[u8] {
        &self.buf[self.pos..]
    }

    /// Reads more; `Ok(0)` at the end of the connection. Keeps what was there on an error.
    fn fill(&mut self) -> io::Result<usize> {
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        let start = self.buf.len();
        self.buf.resize(start + READ_SIZE, 0);
        let read = loop {
            match self.inner.read(&mut self.buf[start..]) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other,
            }
        };
        self.buf.truncate(start + *read.as_ref().unwrap_or(&0));
        read
    }

    /// One line of at most `limit` bytes, without its `\r\n` (or `\n`). Consumes nothing until
    /// the whole line is there.
    fn line(&mut self, limit: usize) -> io::Result<String> {
        loop {
            if let Some(end) = self.unread().iter().position(|&b| b == b'\n') {
                if end > limit {
                    return Err(invalid(format!("a chunk's line above {limit} bytes")));
                }
                let line = String::from_utf8_lossy(&self.unread()[..end]);
                let line = line.strip_suffix('\r').unwrap_or(&line).to_owned();
                self.pos += end + 1;
                return Ok(line);
            }
            if self.unread().len() > limit {
                return Err(invalid(format!("a chunk's line above {limit} bytes")));
            }
            if self.fill()? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        }
    }

    /// The status line and the headers. Consumes nothing until the whole head is there.
    pub(crate) fn head(&mut self) -> io::Result<Head> {
        let end = loop {
            let unread = self.unread();
            if let Some(end) = unread.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            if unread.len() > HEAD_LINE {
                return Err(invalid(format!("an answer's head above {HEAD_LINE} bytes")));
            }
            if self.fill()? == 0 {
                return Err(io::ErrorKind::UnexpectedEof.into());
            }
        };
        let text = String::from_utf8_lossy(&self.unread()[..end]).into_owned();
        self.pos += end;
        let mut lines = text.split("\r\n");
        let status_line = lines.next().unwrap_or("");
        let status = status_line
            .strip_prefix("HTTP/1.")
            .and_then(|rest| rest.get(2..5))
            .and_then(|code| code.parse().ok())
            .ok_or_else(|| invalid(format!("not an HTTP/1 status line: {status_line:?}")))?;
        let mut head = Head { status, length: None, chunked: false };
        for line in lines {
            let Some((name, value)) = line.split_once(':') else { continue };
            let value = value.trim();
            if name.eq_ignore_ascii_case("content-length") {
                head.length = Some(value.parse().map_err(|_| invalid("a bad Content-Length"))?);
            } else if name.eq_ignore_ascii_case("transfer-encoding") {
                head.chunked = value.to_ascii_lowercase().contains("chunked");
            }
        }
        Ok(head)
    }

    /// Up to `most` bytes (at least one) of what is read, consumed; an error at the end.
    fn some(&mut self, most: usize) -> io::Result<&[u8]> {
        if self.unread().is_empty() && self.fill()? == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        let n = self.unread().len().min(most);
        let start = self.pos;
        self.pos += n;
        Ok(&self.buf[start..start + n])
    }

    /// A whole body after `head`, of at most `limit` bytes. Not for a body that has no end.
    pub(crate) fn body(&mut self, head: Head, limit: usize) -> io::Result<Vec<u8>> {
        let mut body = Vec::new();
        if head.chunked {
            let mut chunks = Chunked::default();
            loop {
                let room = limit + 1 - body.len().min(limit);
                if !chunks.data(self, &mut body, room)? {
                    break;
                }
                if body.len() > limit {
                    return Err(invalid(format!("a body above {limit} bytes")));
                }
            }
        } else {
            let length = head.length.unwrap_or(0);
            if length > limit {
                return Err(invalid(format!("a body of {length} bytes, above {limit}")));
            }
            while body.len() < length {
                let piece = self.some(length - body.len())?;
                body.extend_from_slice(piece);
            }
        }
        Ok(body)
    }
}

/// Where a chunked body's reading is.
#[derive(Debug, Default)]
pub(crate) struct Chunked {
    /// Bytes left in the chunk being read.
    left: usize,
    /// The chunk's data has been read; its `\r\n` has not.
    after_data: bool,
    /// The last chunk (size 0) has been read: then its trailers, up to a blank line.
    trailers: bool,
    /// The body is over.
    done: bool,
    /// Data read that is not yet a whole line.
    line: Vec<u8>,
}

impl Chunked {
    /// Appends the next piece of the body's data (at most `most` bytes, at least one) to `out`;
    /// `false` once the body is over. Keeps its place on an error.
    pub(crate) fn data<R: Read>(
        &mut self,
        reader: &mut HttpReader<R>,
        out: &mut Vec<u8>,
        most: usize,
    ) -> io::Result<bool> {
        loop {
            if self.done {
                return Ok(false);
            }
            if self.trailers {
                if reader.line(HEAD_LINE)?.is_empty() {
                    self.done = true;
                }
                continue;
            }
            if self.after_data {
                if !reader.line(2)?.is_empty() {
                    return Err(invalid("a chunk longer than its size"));
                }
                self.after_data = false;
                continue;
            }
            if self.left == 0 {
                let size_line = reader.line(HEAD_LINE)?;
                let hex = size_line.split(';').next().unwrap_or("").trim();
                let size = usize::from_str_radix(hex, 16)
                    .map_err(|_| invalid(format!("not a chunk's size: {size_line:?}")))?;
                if size == 0 {
                    self.trailers = true;
                } else {
                    self.left = size;
                }
                continue;
            }
            let piece = reader.some(self.left.min(most.max(1)))?;
            self.left -= piece.len();
            out.extend_from_slice(piece);
            if self.left == 0 {
                self.after_data = true;
            }
            return Ok(true);
        }
    }

    /// The body's next line (without its `\n` or `\r\n`), of at most `limit` bytes; `None` at the
    /// body's end (a last line without `\n` is a line). Keeps its place on an error, a timeout
    /// among them.
    pub(crate) fn next_line<R: Read>(
        &mut self,
        reader: &mut HttpReader<R>,
        limit: usize,
    ) -> io::Result<Option<String>> {
        loop {
            if let Some(end) = self.line.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.line.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return String::from_utf8(line).map(Some).map_err(|_| invalid("a line not UTF-8"));
            }
            if self.line.len() > limit {
                return Err(invalid(format!("a line of the stream above {limit} bytes")));
            }
            let room = limit + 1 - self.line.len();
            let mut piece = Vec::new();
            if !self.data(reader, &mut piece, room)? {
                if self.line.is_empty() {
                    return Ok(None);
                }
                let line = std::mem::take(&mut self.line);
                return String::from_utf8(line).map(Some).map_err(|_| invalid("a line not UTF-8"));
            }
            self.line.extend_from_slice(&piece);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that hands out its bytes in pieces, with a timeout between each.
    struct Trickle {
        pieces: Vec<Vec<u8>>,
        timeouts: bool,
        next: usize,
        waited: bool,
    }

    impl Trickle {
        fn new(text: &[u8], size: usize, timeouts: bool) -> Trickle {
            Trickle {
                pieces: text.chunks(size).map(<[u8]>::to_vec).collect(),
                timeouts,
                next: 0,
                waited: false,
            }
        }
    }

    impl Read for Trickle {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.timeouts && !self.waited {
                self.waited = true;
                return Err(io::ErrorKind::WouldBlock.into());
            }
            self.waited = false;
            let Some(piece) = self.pieces.get(self.next) else { return Ok(0) };
            self.next += 1;
            out[..piece.len()].copy_from_slice(piece);
            Ok(piece.len())
        }
    }

    /// Every line of a chunked body, going on after each timeout.
    fn lines(text: &[u8], size: usize, timeouts: bool, limit: usize) -> io::Result<Vec<String>> {
        let mut reader = HttpReader::new(Trickle::new(text, size, timeouts));
        let head = loop {
            match reader.head() {
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                other => break other?,
            }
        };
        assert_eq!(head, Head { status: 200, length: None, chunked: true });
        let mut chunks = Chunked::default();
        let mut out = Vec::new();
        loop {
            match chunks.next_line(&mut reader, limit) {
                Ok(Some(line)) => out.push(line),
                Ok(None) => return Ok(out),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    }

    const STREAM: &[u8] = b"HTTP/1.1 200 OK\r\ncontent-type: application/x-ndjson\r\n\
        Transfer-Encoding: chunked\r\n\r\n\
        19\r\n{\"version\":1,\"type\":\"x\"}\n\r\n\
        3\r\n{}\n\r\n\
        5;ext=1\r\n{\"ver\r\n\
        C\r\nsion\":2}\n{\"a\r\n\
        2\r\n\":\r\n\
        3\r\n3}\n\r\n\
        0\r\nTrailer: x\r\n\r\n";

    #[test]
    fn chunked_lines_whatever_the_pieces_and_timeouts() {
        let want = ["{\"version\":1,\"type\":\"x\"}", "{}", "{\"version\":2}", "{\"a\":3}"];
        for size in [1, 2, 3, 7, 64, 4096] {
            for timeouts in [false, true] {
                let got = lines(STREAM, size, timeouts, 100).unwrap();
                assert_eq!(got, want, "pieces of {size}, timeouts {timeouts}");
            }
        }
    }

    #[test]
    fn a_line_above_the_limit_is_an_error() {
        let e = lines(STREAM, 5, false, 10).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("above 10 bytes"), "{e}");
        // The longest line is 25 bytes: allowed at 25.
        assert_eq!(lines(STREAM, 5, true, 25).unwrap().len(), 4);
    }

    #[test]
    fn an_end_before_the_last_chunk_is_an_error() {
        let cut = &STREAM[..STREAM.len() - 20];
        let e = lines(cut, 4, true, 100).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn bad_chunk_sizes_are_errors() {
        let bad = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nab\r\n0\r\n\r\n";
        assert_eq!(lines(bad, 3, false, 100).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let long = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n0\r\n\r\n";
        assert_eq!(lines(long, 3, false, 100).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn bodies_by_length_and_in_chunks_on_one_connection() {
        let text =
            b"HTTP/1.1 201 Created\r\nContent-Length: 5\r\n\r\nhelloHTTP/1.1 409 Conflict\r\n\
            transfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n\
            HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n";
        for size in [1, 4, 1000] {
            let mut reader = HttpReader::new(Trickle::new(text, size, false));
            let head = reader.head().unwrap();
            assert_eq!(head, Head { status: 201, length: Some(5), chunked: false });
            assert_eq!(reader.body(head, 100).unwrap(), b"hello");
            let head = reader.head().unwrap();
            assert_eq!(head.status, 409);
            assert_eq!(reader.body(head, 100).unwrap(), b"abcde");
            let head = reader.head().unwrap();
            assert_eq!(reader.body(head, 100).unwrap(), b"");
            assert_eq!(reader.head().unwrap_err().kind(), io::ErrorKind::UnexpectedEof);
        }
    }

    #[test]
    fn a_body_above_the_limit_is_an_error() {
        let text = b"HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\n";
        let mut reader = HttpReader::new(&text[..]);
        let head = reader.head().unwrap();
        assert_eq!(reader.body(head, 10).unwrap_err().kind(), io::ErrorKind::InvalidData);
        let text =
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n0\r\n\r\n";
        let mut reader = HttpReader::new(&text[..]);
        let head = reader.head().unwrap();
        assert_eq!(reader.body(head, 5).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }

    #[test]
    fn not_http_is_an_error() {
        let mut reader = HttpReader::new(&b"SSH-2.0-OpenSSH\r\n\r\n"[..]);
        assert_eq!(reader.head().unwrap_err().kind(), io::ErrorKind::InvalidData);
    }
}
