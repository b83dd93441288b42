#![doc = include_str!("../README.md")]

mod calibrated;
mod clock;
mod config;
mod error;
mod eval;
mod eval_cache;
mod heuristic;
mod limits;
mod ordering;
mod pv;
mod report;
mod score;
mod search;
mod stats;
mod tt;
mod wdl;
mod wdl_fit;
mod wdl_model;
mod worker;

pub use calibrated::{CERTAIN_WIN, Calibrated};
pub use clock::{Clock, MOVE_OVERHEAD};
pub use config::{Parts, SearchConfig};
pub use error::SearchError;
pub use eval::{EvalError, Evaluator};
pub use heuristic::{Heuristic, Terms, Weights};
pub use limits::{Limits, MAX_DEPTH, MAX_THREADS, MAX_TT_MB};
pub use report::{Report, SearchResult};
pub use score::{
    DRAW, EVAL_LIMIT, INFINITY, MAX_PLY, WIN, WIN_THRESHOLD, describe, is_decisive, loss_in,
    plies_to_end, shown_score, win_in,
};
pub use search::Search;
pub use stats::Stats;
pub use tt::{Bound, Entry, TranspositionTable};
pub use wdl::{Chances, Wdl};
pub use wdl_fit::WdlSample;
pub use wdl_model::{CLASSES, Logistic, PHASES, Reading, WdlModel, WdlModelError, class_of};
