//! `tns-engine`: Tigers and Sheep over the TSI protocol on standard input and output
//! (docs/protocol.md). It never exits on bad input: it answers `info string error: ...`.

use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use tns_file::{Line, MAX_LINE, read_line};

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
        // Bytes, not text: a line that is not UTF-8 is an error to answer, not a reason to stop.
        // At most 1 MiB of a line is kept: input without line ends cannot grow memory.
        match read_line(&mut input, &mut line, MAX_LINE) {
            Line::End => break,
            Line::Whole => {
                if session.handle_line(&String::from_utf8_lossy(&line)) == Flow::Quit {
                    return ExitCode::SUCCESS;
                }
            }
            Line::TooLong => session.handle_line_too_long(MAX_LINE, &line),
        }
    }
    // The controller closed our input: stop as for `quit`.
    session.finish();
    ExitCode::SUCCESS
}
