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
mod shown;
mod stats;
mod tt;
mod wdl;
mod wdl_fit;
mod wdl_model;
mod worker;

pub use calibrated::Calibrated;
pub use clock::{Clock, MOVE_OVERHEAD};
pub use config::{Parts, SearchConfig};
pub use error::SearchError;
pub use eval::{Eval, EvalError, Evaluator};
pub use heuristic::{Heuristic, Terms, Weights};
pub use limits::{Limits, MAX_DEPTH, MAX_THREADS, MAX_TT_MB};
pub use report::{Report, SearchResult};
pub use score::{MAX_PLY, Score};
pub use search::Search;
pub use shown::{Expected, ShownScore};
pub use stats::Stats;
pub use tt::{Bound, Entry, TranspositionTable};
pub use wdl::{Chances, Wdl};
pub use wdl_fit::WdlSample;
pub use wdl_model::{CLASSES, Logistic, PHASES, Reading, WdlModel, WdlModelError, class_of};
