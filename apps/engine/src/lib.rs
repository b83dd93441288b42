//! The pieces of `tns-engine`, the engine behind the TSI protocol (docs/protocol.md): command
//! parsing, and a session that answers commands while its search runs on another thread.

mod command;
mod session;

pub use command::{Command, CommandError, Go, TimeLeft, parse, quote};
pub use session::{Flow, Output, Session, info_line};
