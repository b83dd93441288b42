//! The pieces of `tns-engine`, the engine behind the TSI protocol (docs/protocol.md): a session
//! that answers commands while its search runs on another thread. The protocol's lines are
//! `tns_match::protocol`'s, which the match runner's external player speaks too.

mod session;

pub use session::{Flow, Output, Session, info_line};
pub use tns_match::protocol::{Command, CommandError, Go, TimeLeft, parse, quote};
