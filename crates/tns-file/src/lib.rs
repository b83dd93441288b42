#![doc = include_str!("../README.md")]

mod append;
mod atomic;
mod checksum;
mod error;
mod format;
mod le;
mod lines;
mod lock;
mod report;

pub use append::AppendFile;
pub use atomic::{open, read, read_at_most, read_text, save, write_atomically};
pub use checksum::checksum;
pub use error::FileError;
pub use format::{Format, HEADER, TRAILER};
pub use le::{LeReader, u16_at, u32_at, u64_at};
pub use lines::{Line, MAX_LINE, read_line};
pub use lock::{Lock, LockError};
pub use report::one_line;
