//! `tns-engine`: Tigers and Sheep over the TSI protocol on standard input and output
//! (docs/protocol.md). It never exits on bad input: it answers `info string error: ...`.

use std::io::{BufRead, Read as _};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use tns_engine::{Flow, Output, Session};

fn main() -> ExitCode {
    // The arguments as the system gives them: one that is not UTF-8 is refused, not a panic.
    if let Some(arg) = std::env::args_os().nth(1) {
        let help = arg == "--help" || arg == "-h";
        let version = arg == "--version" || arg == "-V";
        if version {
            println!("tns-engine {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        eprintln!(
            "{}tns-engine takes no arguments: it speaks the TSI protocol on standard input and \
             output (send `tsi` to start; see docs/protocol.md)",
            if help { "" } else { "tns-engine: unexpected argument; " }
        );
        return if help { ExitCode::SUCCESS } else { ExitCode::from(2) };
    }
    let out: Output = Arc::new(Mutex::new(std::io::stdout()));
    let mut session = Session::new(out);
    let mut input = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        // Bytes, not text: a line that is not UTF-8 is an error to answer, not a reason to stop.
        match read_line(&mut input, &mut line) {
            Line::End => break,
            Line::Whole => {
                if session.handle_line(&String::from_utf8_lossy(&line)) == Flow::Quit {
                    return ExitCode::SUCCESS;
                }
            }
            Line::TooLong => session.handle_line_too_long(MAX_LINE),
        }
    }
    // The controller closed our input: stop as for `quit`.
    session.finish();
    ExitCode::SUCCESS
}

/// The longest line the engine reads: a longer one is refused and skipped to its end, so input
/// without line ends cannot grow memory without limit.
const MAX_LINE: usize = 1 << 20;

/// What [`read_line`] found.
enum Line {
    /// A line (with its `\n`, unless the input ended first) in the buffer.
    Whole,
    /// A line longer than [`MAX_LINE`], skipped to its end; the buffer holds nothing of use.
    TooLong,
    /// The end of the input, or an error reading it.
    End,
}

/// Reads one line into `line` (empty on entry), at most [`MAX_LINE`] bytes of it kept.
fn read_line(input: &mut impl BufRead, line: &mut Vec<u8>) -> Line {
    let limit = u64::try_from(MAX_LINE).unwrap_or(u64::MAX) + 1;
    match input.by_ref().take(limit).read_until(b'\n', line) {
        Ok(0) | Err(_) => return Line::End,
        Ok(_) if line.len() <= MAX_LINE || line.ends_with(b"\n") => return Line::Whole,
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
