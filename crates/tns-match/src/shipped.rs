//! What the library carries built in: the shipped network, the chances fitted for it and for
//! the heuristic, and the endgame (the table's movement phase up to one kill), each decoded
//! once and shared.

use std::sync::{Arc, OnceLock};

use tns_board::KILLS_TO_WIN;
use tns_nn::Network;
use tns_search::{Evaluator, WdlModel};
use tns_tablebase::{Tablebase, WithTablebase};

use crate::error::PlayerError;

/// The shipped network (`weights/latest.bin`), built into the library: the `network` player
/// needs no file at run time.
const SHIPPED_NETWORK: &[u8] = include_bytes!("../network.bin");

/// The shipped network, as the `network` player searches with it.
///
/// # Errors
/// [`PlayerError::ShippedNetwork`] if the bytes built in are not a weights file this version reads
/// (a build from a damaged checkout).
pub fn shipped_network() -> Result<Network, PlayerError> {
    shipped_network_shared().map(|net| Network::clone(&net))
}

/// The shipped network, decoded once and shared.
pub(crate) fn shipped_network_shared() -> Result<Arc<Network>, PlayerError> {
    static NETWORK: OnceLock<Result<Arc<Network>, Arc<tns_nn::NetworkError>>> = OnceLock::new();
    NETWORK
        .get_or_init(|| Network::from_bytes(SHIPPED_NETWORK).map(Arc::new).map_err(Arc::new))
        .clone()
        .map_err(PlayerError::ShippedNetwork)
}

/// The chances fitted on the solved game by `tns-calibrate`, in [`Fitted`]'s order: the shipped
/// network's evaluation (`weights/latest.wdl`) and its search's root score
/// (`weights/latest-search.wdl`), the heuristic's default weights' evaluation
/// (`weights/heuristic.wdl`) and its search's root score (`weights/heuristic-search.wdl`).
const SHIPPED_CHANCES: [&str; 4] = [
    include_str!("../network.wdl"),
    include_str!("../network-search.wdl"),
    include_str!("../heuristic.wdl"),
    include_str!("../heuristic-search.wdl"),
];

/// Which evaluator's fitted chances [`shipped_chances`] gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fitted {
    /// The shipped network's evaluation.
    Network,
    /// The root score of a search with the shipped network, read through its chances
    /// ([`Calibrated::with_root`](tns_search::Calibrated::with_root)).
    NetworkSearch,
    /// The heuristic's default weights' evaluation.
    Heuristic,
    /// The root score of a search with the heuristic's default weights, on their own scores.
    HeuristicSearch,
}

/// The chances fitted for the shipped network or the heuristic, built in, parsed once.
///
/// # Errors
/// [`PlayerError::Chances`] if the text built in does not parse (a build from a damaged
/// checkout).
pub fn shipped_chances(which: Fitted) -> Result<Arc<WdlModel>, PlayerError> {
    static MODELS: OnceLock<[Result<Arc<WdlModel>, tns_search::WdlModelError>; 4]> =
        OnceLock::new();
    let models = MODELS.get_or_init(|| SHIPPED_CHANCES.map(|text| text.parse().map(Arc::new)));
    models[which as usize].clone().map_err(PlayerError::Chances)
}

/// The endgame built into the library: the tablebase's movement slices of no and of one dead
/// sheep (`k5-d0.tnstb`, `k5-d1.tnstb`; their size is in docs/results.md), every position of the movement phase before the
/// tigers' second kill. The network players search with it unless told `endgame=off`.
const SHIPPED_ENDGAME: [&[u8]; 2] =
    [include_bytes!("../endgame/k5-d0.tnstb"), include_bytes!("../endgame/k5-d1.tnstb")];

/// The endgame built into the library ([`PlayerSpec::endgame`](crate::PlayerSpec::endgame)), decoded once (every block
/// checked, on the calling thread; docs/results.md says how long it takes and how much memory)
/// and shared.
///
/// # Errors
/// [`PlayerError::Endgame`] if the bytes built in do not decode (a build from a damaged
/// checkout).
pub fn shipped_endgame() -> Result<Arc<Tablebase>, PlayerError> {
    static ENDGAME: OnceLock<Result<Arc<Tablebase>, Arc<tns_tablebase::TablebaseError>>> =
        OnceLock::new();
    ENDGAME
        .get_or_init(|| {
            Tablebase::from_slice_bytes(KILLS_TO_WIN, &SHIPPED_ENDGAME)
                .map(Arc::new)
                .map_err(Arc::new)
        })
        .clone()
        .map_err(PlayerError::Endgame)
}

/// `evaluator` with the endgame built in ([`shipped_endgame`]) in front of it, as the players
/// with `endgame=on` search: every move open at the root, and the table's wins and losses
/// exact wherever the search reaches a position it holds; below its draws the search goes on
/// with `evaluator` ([`WithTablebase::endgame_on`]).
///
/// # Errors
/// [`PlayerError::Endgame`] when the endgame built in does not decode.
pub fn with_endgame<E: Evaluator>(evaluator: E) -> Result<WithTablebase<E>, PlayerError> {
    let evaluator = WithTablebase::new(evaluator, shipped_endgame()?)
        .map_err(|e| PlayerError::Endgame(Arc::new(e)))?;
    Ok(evaluator.endgame_on())
}
