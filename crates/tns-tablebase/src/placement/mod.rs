//! The placement phase (sheep still in hand): each layer, one number of sheep placed, solved by
//! backward induction from the layer after it (`build.rs`), held in memory (`layer.rs`) and
//! stored in its file (`file.rs`).

pub(crate) mod build;
pub(crate) mod file;
pub(crate) mod layer;
