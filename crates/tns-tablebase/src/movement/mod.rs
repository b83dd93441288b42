//! The movement phase (no sheep in hand): each slice, one number of dead sheep, solved by
//! retrograde analysis (`build.rs`), held in memory (`slice.rs`) and stored in its file
//! (`file.rs`).

pub(crate) mod build;
pub(crate) mod file;
pub(crate) mod slice;
