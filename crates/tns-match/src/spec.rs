//! Players, named on the command line the same way by every program here.
//!
//! A player is written `KIND[:OPTION=VALUE,...]`: `heuristic`, `network` (the shipped network,
//! built in), `perfect`, `random`, or a
//! weights file, with options that set its limits (`time`, `depth`, `threads`, `tt`)
//! and, for `heuristic` and `perfect`, any of the heuristic's weights (`dead=350,mobility=15`);
//! for `perfect`, `traps=on` to play for the opponent's mistakes among the drawing moves;
//! for `heuristic`, `network` and a weights file, `table=on` to search with the exact values of
//! the tablebase's movement phase wherever the search reaches it;
//! or `cmd:PROGRAM [ARGS]` for another program, with `name=`, `option.NAME=` and limits among its
//! words.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use tns_board::{Board, KILLS_TO_WIN};
use tns_nn::{Network, NeuralEvaluator};
use tns_search::{Calibrated, Evaluator, Heuristic, Search, Weights};
use tns_tablebase::{Tablebase, TablebaseError, WithTablebase};

use crate::error::PlayerError;
use crate::external::{External, ExternalPlayer};
use crate::level::Level;
use crate::limit;
use crate::player::{Budget, Player, RandomPlayer, SearchPlayer};
use crate::shipped::{Fitted, shipped_chances, shipped_network_shared, with_endgame};

/// What kind of player a [`PlayerSpec`] builds.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerKind {
    /// The search with the hand-written evaluator and these weights.
    Heuristic(Weights),
    /// The search with the tablebase in front of the heuristic: perfect from the first move
    /// when the placement layers are built, else once the last sheep is placed. With `traps`
    /// (`perfect:traps=on`) it plays, among the drawing moves, those that leave the opponent
    /// the fewest replies that hold the draw ([`WithTablebase::setting_traps`]).
    Perfect {
        /// The heuristic's weights, for the positions the table does not hold.
        weights: Weights,
        /// Whether it sets traps.
        traps: bool,
    },
    /// The search with a network as its evaluator, from a weights file.
    Neural(Arc<Network>),
    /// A uniformly random legal move.
    Random,
    /// Another program speaking the TSI protocol.
    External(External),
}

/// A player as named on the command line: its kind, and any limits it sets for itself (those it
/// leaves unset come from the match's defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// The text it was parsed from, used as its name in reports and records.
    pub name: String,
    /// What kind of player.
    pub kind: PlayerKind,
    /// Seconds per move, if set for this player.
    pub time: Option<f64>,
    /// Plies per move, if set for this player.
    pub depth: Option<u32>,
    /// Search threads, if set for this player.
    pub threads: Option<usize>,
    /// Table size in MiB, if set for this player.
    pub tt_mb: Option<usize>,
    /// Whether the search takes the tablebase's exact values wherever it reaches a position
    /// with no sheep in hand (`table=on`, for `heuristic`, `network` and weights files; see
    /// [`WithTablebase::movement_only`]). The perfect player always does.
    pub table: bool,
    /// Whether the search takes the exact wins and losses of the endgame built into the program
    /// (the movement phase after at most one kill, [`shipped_endgame`](crate::shipped_endgame), [`with_endgame`](crate::with_endgame)) where
    /// it has no `table=on`:
    /// `endgame=on`, the default of the network players (`network` and weights files);
    /// `endgame=off` leaves the network alone. The heuristic takes it only when told.
    pub endgame: bool,
    /// Whether the evaluator's scores are read through the chances fitted for it on the solved
    /// game ([`Calibrated`], [`shipped_chances`](crate::shipped_chances)): its scores are then the expected result in
    /// permille, steady from depth to depth, and its chances are calibrated. On by default for
    /// the shipped network (and a weights file that holds it); `calibrated=off` searches with
    /// its raw scores, which change sign with the horizon's parity. Off by default for the
    /// heuristic, whose chances are fitted only on the table's last placement layers so far;
    /// `heuristic:calibrated=on` reads its default weights' scores through them. Other
    /// evaluators have no fitted chances and are never calibrated.
    pub calibrated: bool,
}

const LIMIT_KEYS: &str = "time, depth, threads, tt";
const WEIGHT_KEYS: [&str; 7] = [
    "dead",
    "capturable_tiger",
    "capturable_sheep",
    "trapped",
    "mobility",
    "in_hand",
    "edge_sheep",
];

fn weight_mut<'w>(weights: &'w mut Weights, key: &str) -> Option<&'w mut i32> {
    Some(match key {
        "dead" => &mut weights.dead,
        "capturable_tiger" => &mut weights.capturable_tiger_to_move,
        "capturable_sheep" => &mut weights.capturable_sheep_to_move,
        "trapped" => &mut weights.trapped_tiger,
        "mobility" => &mut weights.tiger_mobility,
        "in_hand" => &mut weights.in_hand,
        "edge_sheep" => &mut weights.edge_sheep,
        _ => return None,
    })
}

/// `on` or `off`, as the options `traps`, `table` and `endgame` take.
fn on_off(key: &str, value: &str) -> Result<bool, PlayerError> {
    match value {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(PlayerError::Value { key: key.into(), value: value.into(), why: "on or off" }),
    }
}

fn parse_value<T: FromStr>(key: &str, value: &str, why: &'static str) -> Result<T, PlayerError> {
    value.parse().map_err(|_| PlayerError::Value { key: key.into(), value: value.into(), why })
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerError> {
        if let Some(command) = s.strip_prefix("cmd:") {
            return external_spec(s, command);
        }
        // A level's name stands for its spec; the player keeps the name it was chosen by.
        if let Some(expanded) = Level::expand(s) {
            let spec: PlayerSpec = expanded.parse()?;
            return Ok(PlayerSpec { name: s.to_string(), ..spec });
        }
        let (kind_text, options) = s.split_once(':').unwrap_or((s, ""));
        let mut kind = match kind_text {
            "heuristic" => PlayerKind::Heuristic(Weights::DEFAULT),
            "perfect" => PlayerKind::Perfect { weights: Weights::DEFAULT, traps: false },
            "random" => PlayerKind::Random,
            "network" => PlayerKind::Neural(shipped_network_shared()?),
            _ if std::path::Path::new(kind_text).is_file() => {
                let net = Network::load(std::path::Path::new(kind_text))
                    .map_err(|e| PlayerError::Network(Arc::new(e)))?;
                PlayerKind::Neural(Arc::new(net))
            }
            _ => return Err(PlayerError::Unknown(s.into())),
        };
        let mut spec = PlayerSpec::new(s, PlayerKind::Random);
        spec.endgame = matches!(kind, PlayerKind::Neural(_));
        spec.calibrated = matches!(kind, PlayerKind::Neural(_));
        let expected: String = match kind {
            PlayerKind::Heuristic(_) => format!(
                "{LIMIT_KEYS}, table, endgame or calibrated (on or off) or a weight ({})",
                WEIGHT_KEYS.join(", ")
            ),
            PlayerKind::Perfect { .. } => {
                format!("{LIMIT_KEYS}, traps (on or off) or a weight ({})", WEIGHT_KEYS.join(", "))
            }
            PlayerKind::Neural(_) => {
                format!("{LIMIT_KEYS}, table, endgame or calibrated (on or off)")
            }
            PlayerKind::Random | PlayerKind::External(_) => "no options".into(),
        };
        for option in options.split(',').filter(|o| !o.is_empty()) {
            let bad_option = || PlayerError::Option {
                option: option.into(),
                kind: kind_text.into(),
                expected: expected.clone(),
            };
            let (key, value) = option.split_once('=').ok_or_else(bad_option)?;
            if matches!(kind, PlayerKind::Random) {
                return Err(bad_option());
            }
            match key {
                "time" => spec.time = Some(limit::seconds(value)?),
                "depth" => spec.depth = Some(limit::depth(value)?),
                "threads" => spec.threads = Some(limit::threads(value)?),
                "tt" => spec.tt_mb = Some(limit::hash_mb(value)?),
                "traps" => {
                    let PlayerKind::Perfect { traps, .. } = &mut kind else {
                        return Err(bad_option());
                    };
                    *traps = on_off(key, value)?;
                }
                "table" => {
                    if !matches!(kind, PlayerKind::Heuristic(_) | PlayerKind::Neural(_)) {
                        return Err(bad_option());
                    }
                    spec.table = on_off(key, value)?;
                }
                "endgame" => {
                    if !matches!(kind, PlayerKind::Heuristic(_) | PlayerKind::Neural(_)) {
                        return Err(bad_option());
                    }
                    spec.endgame = on_off(key, value)?;
                }
                "calibrated" => {
                    if !matches!(kind, PlayerKind::Heuristic(_) | PlayerKind::Neural(_)) {
                        return Err(bad_option());
                    }
                    spec.calibrated = on_off(key, value)?;
                }
                _ => {
                    let (PlayerKind::Heuristic(weights) | PlayerKind::Perfect { weights, .. }) =
                        &mut kind
                    else {
                        return Err(bad_option());
                    };
                    let slot = weight_mut(weights, key).ok_or_else(bad_option)?;
                    *slot = parse_value(key, value, "a whole number (hundredths of a sheep)")?;
                }
            }
        }
        spec.kind = kind;
        Ok(spec)
    }
}

/// A `cmd:` spec: the program and its arguments, with the words `name=`, `option.NAME=`,
/// `time=`, `depth=`, `threads=` and `tt=` taken as the runner's settings for it.
fn external_spec(text: &str, command: &str) -> Result<PlayerSpec, PlayerError> {
    let mut spec = PlayerSpec::new(text, PlayerKind::Random);
    let mut external = External { command: Vec::new(), options: Vec::new() };
    let mut name = None;
    for word in command.split_whitespace() {
        let setting = word.split_once('=').filter(|(key, _)| {
            matches!(*key, "name" | "time" | "depth" | "threads" | "tt")
                || key.starts_with("option.")
        });
        match setting {
            Some(("name", value)) => name = Some(value.to_string()),
            Some(("time", value)) => spec.time = Some(limit::seconds(value)?),
            Some(("depth", value)) => spec.depth = Some(limit::depth(value)?),
            Some(("threads", value)) => spec.threads = Some(limit::threads(value)?),
            Some(("tt", value)) => spec.tt_mb = Some(limit::hash_mb(value)?),
            Some((key, value)) => {
                let option = key.trim_start_matches("option.");
                if option.is_empty() {
                    return Err(PlayerError::Option {
                        option: word.into(),
                        kind: "cmd".into(),
                        expected: "option.NAME=VALUE".into(),
                    });
                }
                external.options.push((option.to_string(), value.to_string()));
            }
            None => external.command.push(word.to_string()),
        }
    }
    if external.command.is_empty() {
        return Err(PlayerError::NoProgram);
    }
    if let Some(name) = name {
        spec.name = name;
    }
    spec.kind = PlayerKind::External(external);
    Ok(spec)
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// A search ready to play as a player: its evaluator, threads and table. Programs that run
/// the search themselves (to show its lines, to stop it) get one from
/// [`PlayerSpec::searcher`].
pub type Searcher = Search<Box<dyn Evaluator>>;

impl PlayerSpec {
    /// A player of `kind` named `name`, setting no limits of its own.
    pub fn new(name: impl Into<String>, kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            name: name.into(),
            endgame: matches!(kind, PlayerKind::Neural(_)),
            calibrated: matches!(kind, PlayerKind::Neural(_)),
            kind,
            time: None,
            depth: None,
            threads: None,
            tt_mb: None,
            table: false,
        }
    }

    /// `network`: the search with the shipped network, within the limits a program gives it.
    ///
    /// # Errors
    /// As [`shipped_network`](crate::shipped_network).
    pub fn network() -> Result<PlayerSpec, PlayerError> {
        Ok(PlayerSpec::new("network", PlayerKind::Neural(shipped_network_shared()?)))
    }

    /// `heuristic`: the search with the hand-written evaluator's default weights, within the
    /// limits a program gives it.
    pub fn heuristic() -> PlayerSpec {
        PlayerSpec::new("heuristic", PlayerKind::Heuristic(Weights::DEFAULT))
    }

    /// `perfect`: the search behind the tablebase, with the heuristic's default weights where
    /// the table does not hold a position.
    pub fn perfect() -> PlayerSpec {
        PlayerSpec::new("perfect", PlayerKind::Perfect { weights: Weights::DEFAULT, traps: false })
    }

    /// The strongest player without a table: the shipped network (the heuristic only if the
    /// network built in will not load).
    ///
    /// ```
    /// use tns_match::{PlayerKind, PlayerSpec};
    ///
    /// let best = PlayerSpec::strongest();
    /// assert_eq!(best.name, "network");
    /// assert!(matches!(best.kind, PlayerKind::Neural(_)));
    /// ```
    pub fn strongest() -> PlayerSpec {
        PlayerSpec::network().unwrap_or_else(|_| PlayerSpec::heuristic())
    }

    /// The same player with `table=on` (its name says so): its search takes the exact values
    /// of the tablebase's movement phase. The perfect player, which always does, and players
    /// that do not search are returned as they are.
    ///
    /// ```
    /// use tns_match::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "heuristic:depth=4".parse()?;
    /// let with = spec.using_table();
    /// assert!(with.table);
    /// assert_eq!(with.name, "heuristic:depth=4,table=on");
    /// assert_eq!(with.name.parse::<PlayerSpec>()?, with);
    /// # Ok::<(), tns_match::PlayerError>(())
    /// ```
    #[must_use]
    pub fn using_table(mut self) -> PlayerSpec {
        if self.table || !matches!(self.kind, PlayerKind::Heuristic(_) | PlayerKind::Neural(_)) {
            return self;
        }
        self.table = true;
        let joint = if self.name.contains(':') { ',' } else { ':' };
        self.name = format!("{}{joint}table=on", self.name);
        self
    }

    /// The same player without `table=on` (its name no longer says it): for a saved game whose
    /// player searched with a table that is not here now.
    ///
    /// ```
    /// use tns_match::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "network:depth=4,table=on".parse()?;
    /// let without = spec.without_table();
    /// assert!(!without.table);
    /// assert_eq!(without.name, "network:depth=4");
    /// assert_eq!(without.name.parse::<PlayerSpec>()?, without);
    /// # Ok::<(), tns_match::PlayerError>(())
    /// ```
    #[must_use]
    pub fn without_table(mut self) -> PlayerSpec {
        if !self.table {
            return self;
        }
        self.table = false;
        let (kind, options) = self.name.split_once(':').unwrap_or((&self.name, ""));
        let kept: Vec<&str> =
            options.split(',').filter(|o| !o.is_empty() && !o.starts_with("table=")).collect();
        self.name =
            if kept.is_empty() { kind.to_string() } else { format!("{kind}:{}", kept.join(",")) };
        self
    }

    /// The strongest player there is for `board`: `perfect` where a table of the real game
    /// holds the position, else [`PlayerSpec::strongest`], with `table=on` when there is a
    /// table (its movement phase is always there: the network sees exactly how the movement
    /// phase ends wherever its search reaches it). A table built only from the last placement
    /// layers (`build --from-placed 18`) does not hold the early placement, where the perfect
    /// player would search with the heuristic behind it, weaker than the network.
    ///
    /// # Errors
    /// The table's error when it cannot answer for `board` for any reason but that it does
    /// not hold it (a damaged block, an unreadable file): a damaged table is never quietly
    /// taken for a missing one.
    pub fn strongest_at(
        board: Board,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Result<PlayerSpec, TablebaseError> {
        let Some(table) = tablebase.filter(|t| t.kills() == KILLS_TO_WIN) else {
            return Ok(PlayerSpec::strongest());
        };
        match table.probe_wdl(board) {
            Ok(_) => Ok(PlayerSpec::perfect()),
            Err(TablebaseError::NoLayer(_) | TablebaseError::GameOver(_)) => {
                Ok(PlayerSpec::strongest().using_table())
            }
            Err(e) => Err(e),
        }
    }

    /// The search this player plays with, with `defaults` for the threads and table it does
    /// not set, or `None` for a player that does not search (`random`). The one place a
    /// program makes a searcher from a spec: the game, the engine, `analyse`, `line` and the
    /// web server alike, so that every option of a spec works in each.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use tns_board::Board;
    /// use tns_match::{Budget, PlayerSpec};
    /// use tns_search::Limits;
    ///
    /// let spec: PlayerSpec = "heuristic:threads=2,tt=8".parse()?;
    /// let defaults = Budget { time: None, depth: Some(4), threads: 1, tt_mb: 16 };
    /// let mut search = spec.searcher(defaults, None)?.expect("the heuristic searches");
    /// assert_eq!(search.threads(), 2);
    /// assert_eq!(search.table_bytes() >> 20, 8);
    /// let result = search.go(Board::START, Limits::depth(3))?;
    /// assert!(result.best_move.is_some());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`PlayerSpec::evaluator`], and [`PlayerError::Search`] when the search cannot be
    /// made (its table's memory).
    pub fn searcher(
        &self,
        defaults: Budget,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Result<Option<Searcher>, PlayerError> {
        let Some(evaluator) = self.evaluator(tablebase)? else { return Ok(None) };
        Search::new(evaluator, self.budget(defaults).config())
            .map(Some)
            .map_err(|e| PlayerError::Search(Arc::new(e)))
    }

    /// This player's budget: its own settings, and `defaults` for the rest. A player that sets
    /// a depth but no time searches to that depth only, and the other way round.
    pub fn budget(&self, defaults: Budget) -> Budget {
        let (time, depth) = match (self.time, self.depth) {
            (None, None) => (defaults.time, defaults.depth),
            own => own,
        };
        Budget {
            time,
            depth,
            threads: self.threads.unwrap_or(defaults.threads),
            tt_mb: self.tt_mb.unwrap_or(defaults.tt_mb),
        }
    }

    /// The evaluator this player searches with, or `None` for a player that does not search
    /// (`random`). A program that runs the search itself (to show its progress, say) uses this
    /// with [`PlayerSpec::budget`]; others use [`PlayerSpec::build`].
    ///
    /// # Errors
    /// [`PlayerError::NoTablebase`] for a perfect player or one with `table=on` without a
    /// table (or with a table for a variant rather than the real game).
    pub fn evaluator(
        &self,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Result<Option<Box<dyn Evaluator>>, PlayerError> {
        // `table=on`: the table's movement phase in front of the player's own evaluator; else
        // `endgame=on`: the endgame built in.
        let exact = |evaluator: Box<dyn Evaluator>| -> Result<Box<dyn Evaluator>, PlayerError> {
            if !self.table {
                if !self.endgame {
                    return Ok(evaluator);
                }
                return Ok(Box::new(with_endgame(evaluator)?));
            }
            let table = tablebase.ok_or(PlayerError::NoTablebase)?;
            let evaluator = WithTablebase::new(evaluator, Arc::clone(table))
                .map_err(|e| PlayerError::WrongTablebase(Arc::new(e)))?;
            Ok(Box::new(evaluator.movement_only()))
        };
        Ok(match &self.kind {
            PlayerKind::Heuristic(weights) => {
                let heuristic = Heuristic::new(*weights);
                // Fitted chances for the default weights: searched through them with
                // `calibrated=on`, else read through them, so that its chances and printed
                // expected result are fitted either way.
                // Read through, its search's root has chances of its own.
                Some(exact(match (*weights == Weights::DEFAULT, self.calibrated) {
                    (true, true) => {
                        Box::new(Calibrated::new(heuristic, shipped_chances(Fitted::Heuristic)?))
                    }
                    (true, false) => Box::new(
                        Calibrated::read_through(heuristic, shipped_chances(Fitted::Heuristic)?)
                            .with_root(shipped_chances(Fitted::HeuristicSearch)?),
                    ),
                    (false, _) => Box::new(heuristic),
                })?)
            }
            PlayerKind::Perfect { weights, traps } => {
                let table = tablebase.ok_or(PlayerError::NoTablebase)?;
                let evaluator = WithTablebase::new(Heuristic::new(*weights), Arc::clone(table))
                    .map_err(|e| PlayerError::WrongTablebase(Arc::new(e)))?;
                Some(Box::new(if *traps { evaluator.setting_traps() } else { evaluator }))
            }
            PlayerKind::Neural(net) => {
                let neural = NeuralEvaluator::new(Network::clone(net));
                let shipped = shipped_network_shared()?;
                let is_shipped = Arc::ptr_eq(net, &shipped) || **net == *shipped;
                // Searching through its chances, its root has chances of its own.
                Some(exact(match (is_shipped, self.calibrated) {
                    (true, true) => Box::new(
                        Calibrated::new(neural, shipped_chances(Fitted::Network)?)
                            .with_root(shipped_chances(Fitted::NetworkSearch)?),
                    ),
                    (true, false) => Box::new(Calibrated::read_through(
                        neural,
                        shipped_chances(Fitted::Network)?,
                    )),
                    (false, _) => Box::new(neural),
                })?)
            }
            PlayerKind::Random => None,
            PlayerKind::External(_) => return Err(PlayerError::External(self.name.clone())),
        })
    }

    /// Builds the player, with `defaults` for the limits it does not set and `tablebase` for a
    /// perfect player.
    ///
    /// # Errors
    /// [`PlayerError::NoTablebase`] for a perfect player without a table (or with a table for a
    /// variant rather than the real game).
    pub fn build(
        &self,
        defaults: Budget,
        tablebase: Option<&Arc<Tablebase>>,
    ) -> Result<Box<dyn Player>, PlayerError> {
        self.build_with_margin(defaults, tablebase, crate::external::LATE_MARGIN)
    }

    /// As [`PlayerSpec::build`], with an external program allowed `margin` beyond a move's
    /// time (or its clock) before its answer counts as late.
    ///
    /// # Errors
    /// As [`PlayerSpec::build`].
    pub fn build_with_margin(
        &self,
        defaults: Budget,
        tablebase: Option<&Arc<Tablebase>>,
        margin: Duration,
    ) -> Result<Box<dyn Player>, PlayerError> {
        if let PlayerKind::External(external) = &self.kind {
            let player = ExternalPlayer::new(external.clone(), self.budget(defaults));
            return Ok(Box::new(player.with_margin(margin)));
        }
        Ok(match self.evaluator(tablebase)? {
            Some(evaluator) => Box::new(
                SearchPlayer::new(evaluator, self.budget(defaults))
                    .map_err(|e| PlayerError::Search(Arc::new(e)))?,
            ),
            None => Box::new(RandomPlayer::new(0)),
        })
    }

    /// Whether this player needs the tablebase: the perfect player, and those with `table=on`.
    pub fn needs_tablebase(&self) -> bool {
        self.table || matches!(self.kind, PlayerKind::Perfect { .. })
    }

    /// Whether this player is one of ours that searches (and so has limits): not `random`,
    /// not an external program.
    pub fn searches(&self) -> bool {
        !matches!(self.kind, PlayerKind::Random | PlayerKind::External(_))
    }
}

#[cfg(test)]
mod tests {
    use crate::shipped::{shipped_endgame, shipped_network};
    use std::sync::atomic::AtomicBool;

    use tns_board::Game;

    use super::*;

    /// The root scores of a search of the start at each depth from 4 to `deepest`.
    fn scores_by_depth(spec: &str, deepest: u32) -> Vec<i32> {
        let spec: PlayerSpec = spec.parse().unwrap();
        let evaluator = spec.evaluator(None).unwrap().unwrap();
        let mut search = Search::new(evaluator, tns_search::SearchConfig::default()).unwrap();
        let stop = AtomicBool::new(false);
        let mut scores = Vec::new();
        search
            .search(Board::START, &[], tns_search::Limits::depth(deepest), &stop, |r| {
                if r.depth >= 4 {
                    scores.push(r.score);
                }
            })
            .unwrap();
        scores
    }

    #[test]
    fn the_calibrated_network_keeps_its_score_steady_from_depth_to_depth() {
        // The largest change from one depth to the next, as a share of a certain win (the raw
        // network's is 1,000, the calibrated one's 10,000).
        let swing = |scores: &[i32], certain: f64| {
            let most = scores.windows(2).map(|w| (w[1] - w[0]).abs()).max().unwrap();
            f64::from(most) / certain
        };
        let raw = scores_by_depth("network:calibrated=off", 7);
        let calibrated = scores_by_depth("network", 7);
        // The raw scores jump by more than a whole win either way with the horizon's parity;
        // read through the fitted chances they move by a small share of it.
        assert!(swing(&raw, 1000.0) > 1.0, "{raw:?}");
        assert!(swing(&calibrated, 10_000.0) < 0.2, "{calibrated:?}");
        assert!(calibrated.iter().all(|s| s.abs() < 1500), "a drawn start: {calibrated:?}");
    }

    #[test]
    fn where_the_endgame_holds_a_position_its_result_is_certain() {
        let endgame = shipped_endgame().unwrap();
        let evaluator = PlayerSpec::network().unwrap().evaluator(None).unwrap().unwrap();
        let mut held = 0;
        // Positions of the movement phase with no sheep dead: the endgame holds them all.
        for text in ["SSSSS/SSTSS/SS1SS/STSTS/SSTSS s 0", "SSSSS/SSTSS/SS1SS/STSTS/SSTSS t 0"] {
            let board: Board = text.parse().unwrap();
            let value = endgame.probe(board).unwrap();
            for score in [-500, 0, 700] {
                let chances = evaluator.chances(score, board);
                assert_eq!(chances, tns_search::Chances::certain(value.wdl()), "{text}");
                assert_eq!(chances.of(value.wdl()), 1000);
            }
            held += 1;
        }
        assert_eq!(held, 2);
        // Elsewhere the network's fitted chances: an expected result of half a win is not
        // certain, and a better score has better chances.
        let half = evaluator.chances(tns_search::CERTAIN_WIN / 2, Board::START);
        assert!(half.win > 0 && half.win < 1000, "{half}");
        assert!(evaluator.chances(tns_search::CERTAIN_WIN * 3 / 4, Board::START).win > half.win);
    }

    #[test]
    fn calibrated_is_the_networks_default_and_an_option_of_the_heuristic() {
        let spec = |s: &str| s.parse::<PlayerSpec>().unwrap();
        assert!(spec("network").calibrated && !spec("network:calibrated=off").calibrated);
        assert!(!spec("heuristic").calibrated && spec("heuristic:calibrated=on").calibrated);
        assert!(matches!(
            "random:calibrated=on".parse::<PlayerSpec>(),
            Err(PlayerError::Option { .. })
        ));
        for which in
            [Fitted::Network, Fitted::NetworkSearch, Fitted::Heuristic, Fitted::HeuristicSearch]
        {
            assert!(shipped_chances(which).is_ok());
        }
        // Raw, the heuristic searches on its own scores and its chances are the ones fitted on
        // its searches' root scores.
        let raw = spec("heuristic").evaluator(None).unwrap().unwrap();
        let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
        let score = raw.evaluate(board);
        assert_eq!(score, Heuristic::default().evaluate(board));
        let fitted = shipped_chances(Fitted::HeuristicSearch).unwrap().chances(score, board);
        assert_eq!(raw.chances(score, board), fitted);
        assert_ne!(fitted, Heuristic::default().chances(score, board), "not the default reading");
        // Read through the chances, every evaluation is an expected result in permille.
        let evaluator = spec("heuristic:calibrated=on").evaluator(None).unwrap().unwrap();
        let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
        assert!(evaluator.evaluate(board).abs() <= tns_search::CERTAIN_WIN);
        let chances = evaluator.chances(evaluator.evaluate(board), board);
        assert_eq!(
            u32::from(chances.win) + u32::from(chances.draw) + u32::from(chances.loss),
            1000
        );
    }

    #[test]
    fn table_on_is_for_the_searching_players_and_needs_the_real_games_table() {
        for text in ["network:table=on", "heuristic:depth=3,table=on"] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert!(spec.table && spec.needs_tablebase(), "{text}");
            // Without a table, or with a variant's, it is refused, never quietly dropped.
            assert!(matches!(spec.evaluator(None), Err(PlayerError::NoTablebase)), "{text}");
            let variant = Arc::new(Tablebase::build(1, None, |_| {}).unwrap());
            let refused = spec.evaluator(Some(&variant));
            let Err(e @ PlayerError::WrongTablebase(_)) = refused else { panic!("{text}") };
            assert!(std::error::Error::source(&e).is_some(), "the table's own error is kept");
        }
        let off: PlayerSpec = "network:table=off".parse().unwrap();
        assert!(!off.table && !off.needs_tablebase());
        assert!(off.evaluator(None).unwrap().is_some());
        assert!(!PlayerSpec::heuristic().table);
        let err = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        assert!(matches!(err("perfect:table=on"), PlayerError::Option { .. }));
        assert!(matches!(err("random:table=on"), PlayerError::Option { .. }));
        let PlayerError::Value { key, why, .. } = err("network:table=yes") else { panic!() };
        assert_eq!((key.as_str(), why), ("table", "on or off"));
        // `using_table` names what it adds, once, and leaves the perfect player as it is.
        let network = PlayerSpec::network().unwrap().using_table();
        assert_eq!(network.name, "network:table=on");
        assert_eq!(network.clone().using_table(), network);
        assert_eq!(PlayerSpec::perfect().using_table(), PlayerSpec::perfect());
    }

    #[test]
    #[ignore = "needs the built tablebase (TNS_TABLEBASE_DIR); CI runs it"]
    fn table_on_searches_with_the_movement_phases_exact_values() {
        let dir = std::env::var_os("TNS_TABLEBASE_DIR").expect("TNS_TABLEBASE_DIR names the table");
        let table = Arc::new(Tablebase::load(KILLS_TO_WIN, std::path::Path::new(&dir)).unwrap());
        // The sheep to move, none in hand: the table holds it, the network alone does not know.
        let board: Board = "SSSSS/S1TTS/STS2/S1S1S/TSSSS s 0".parse().unwrap();
        let value = table.probe(board).expect("the movement phase holds it");
        let spec: PlayerSpec = "network:table=on".parse().unwrap();
        let evaluator = spec.evaluator(Some(&table)).unwrap().unwrap();
        assert_eq!(evaluator.exact(board), Some(tns_tablebase::score_of(value)));
        assert_eq!(evaluator.exact(Board::START), None);
        assert!(evaluator.root_moves(Board::START).unwrap().is_none());
        let plain = PlayerSpec::network().unwrap().evaluator(Some(&table)).unwrap().unwrap();
        assert_eq!(plain.exact(board), None, "without table=on the table is not read");
        // The endgame built in is the table's: the same values, slice for slice.
        let slices =
            |t: &Tablebase| -> Vec<_> { t.stats().into_iter().filter(|s| s.dead <= 1).collect() };
        assert_eq!(slices(&shipped_endgame().unwrap()), slices(&table));
        assert_eq!(shipped_endgame().unwrap().stats().len(), 4, "two slices, two sides each");
        // Where the table does not hold the position, the strongest player is the network
        // searching with it.
        let start = PlayerSpec::strongest_at(Board::START, Some(&table)).unwrap();
        if table.placement_from().is_none_or(|from| from > 0) {
            assert_eq!(start.name, "network:table=on");
        }
    }

    #[test]
    fn the_network_players_search_with_the_endgame_built_in() {
        let endgame = shipped_endgame().unwrap();
        assert!(!endgame.holds_whole_movement());
        // No sheep in hand and one dead: held; two dead, or sheep in hand: not.
        let one_dead: Board = "T1SST/SSSSS/SS1SS/SSSSS/TSSST s 0".parse().unwrap();
        let two_dead: Board = "T1SST/SSSSS/SS1SS/SSSS1/TSSST s 0".parse().unwrap();
        assert_eq!((one_dead.dead(), two_dead.dead()), (1, 2));
        let value = endgame.probe(one_dead).expect("the endgame holds one kill");
        assert_eq!(endgame.probe(two_dead), None);
        assert_eq!(endgame.probe(Board::START), None);
        let exact = |text: &str, board: Board| {
            let spec: PlayerSpec = text.parse().unwrap();
            spec.evaluator(None).unwrap().unwrap().exact(board)
        };
        let score = Some(tns_tablebase::score_of(value));
        let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/network.bin");
        for on in ["network", "network:endgame=on", weights, "heuristic:endgame=on"] {
            assert_eq!(exact(on, one_dead), score, "{on}");
            assert_eq!(exact(on, two_dead), None, "{on}");
        }
        for off in ["network:endgame=off", "heuristic"] {
            assert_eq!(exact(off, one_dead), None, "{off}");
        }
        assert!(PlayerSpec::network().unwrap().endgame && !PlayerSpec::heuristic().endgame);
        // Asking for the table instead needs the table; the endgame does not stand in for it.
        let both: PlayerSpec = "network:table=on,endgame=on".parse().unwrap();
        assert!(matches!(both.evaluator(None), Err(PlayerError::NoTablebase)));
        let err = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        assert!(matches!(err("perfect:endgame=on"), PlayerError::Option { .. }));
        assert!(matches!(err("random:endgame=off"), PlayerError::Option { .. }));
        let PlayerError::Value { key, why, .. } = err("network:endgame=yes") else { panic!() };
        assert_eq!((key.as_str(), why), ("endgame", "on or off"));
        assert!(
            err("network:speed=1").to_string().contains("table, endgame or calibrated (on or off)")
        );
    }

    #[test]
    fn the_endgame_takes_the_tables_wins_and_losses_and_searches_on_below_its_draws() {
        let endgame = shipped_endgame().unwrap();
        let decisive = with_endgame(Heuristic::default()).unwrap();
        let plain =
            WithTablebase::new(Heuristic::default(), Arc::clone(&endgame)).unwrap().movement_only();
        // A position of the endgame and every position three plies on.
        let mut boards: Vec<Board> = vec!["T1SST/SSSSS/SS1SS/SSSSS/TSSST s 0".parse().unwrap()];
        for _ in 0..3 {
            let next: Vec<Board> = boards
                .iter()
                .flat_map(|b| b.legal_moves().into_iter().map(|m| b.after(m).unwrap()))
                .collect();
            boards.extend(next);
        }
        let (mut draws, mut decided) = (Vec::new(), Vec::new());
        for board in boards {
            let Some(value) = endgame.probe(board) else { continue };
            let score = Some(tns_tablebase::score_of(value));
            assert_eq!(plain.exact(board), score, "{board}");
            if value == tns_tablebase::Value::Draw {
                assert_eq!(decisive.exact(board), None, "{board}: a draw is searched on");
                draws.push(board);
            } else {
                assert_eq!(decisive.exact(board), score, "{board}");
                decided.push((board, score));
            }
        }
        assert!(!draws.is_empty() && !decided.is_empty(), "the walk meets both");
        // The players with the endgame search so.
        let network = PlayerSpec::network().unwrap().evaluator(None).unwrap().unwrap();
        assert_eq!(network.exact(draws[0]), None);
        assert_eq!(network.exact(decided[0].0), decided[0].1);
    }

    #[test]
    fn parses_kinds_limits_and_weights() {
        assert_eq!("heuristic".parse::<PlayerSpec>().unwrap(), PlayerSpec::heuristic());
        let spec: PlayerSpec = "heuristic:time=0.2,dead=350,in_hand=-5".parse().unwrap();
        assert_eq!(spec.time, Some(0.2));
        let PlayerKind::Heuristic(w) = spec.kind else { panic!("{spec:?}") };
        assert_eq!((w.dead, w.in_hand, w.trapped_tiger), (350, -5, Weights::DEFAULT.trapped_tiger));
        assert_eq!(spec.to_string(), "heuristic:time=0.2,dead=350,in_hand=-5");
        assert_eq!("random".parse::<PlayerSpec>().unwrap().kind, PlayerKind::Random);
        let traps: PlayerSpec = "perfect:traps=on,dead=300".parse().unwrap();
        let PlayerKind::Perfect { weights, traps: true } = traps.kind else { panic!("{traps:?}") };
        assert_eq!(weights.dead, 300);
        let plain: PlayerSpec = "perfect:traps=off".parse().unwrap();
        assert!(matches!(plain.kind, PlayerKind::Perfect { traps: false, .. }));
        assert_eq!(
            PlayerSpec::perfect().kind,
            PlayerKind::Perfect { weights: Weights::DEFAULT, traps: false }
        );
    }

    #[test]
    fn the_strongest_without_the_real_games_table_is_the_network() {
        assert_eq!(PlayerSpec::strongest_at(Board::START, None).unwrap().name, "network");
        // A variant's table (one kill wins) holds the start, but not for the real game.
        let variant = Arc::new(Tablebase::build(1, None, |_| {}).unwrap());
        let spec = PlayerSpec::strongest_at(Board::START, Some(&variant)).unwrap();
        assert_eq!(spec.name, "network");
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let err = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        assert!(matches!(err("alphazero"), PlayerError::Unknown(_)));
        // The shipped network is built in: no file needed; it is the file in the repository.
        let on_disk = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("network.bin");
        assert_eq!(Network::load(&on_disk).unwrap(), shipped_network().unwrap());
        let net: PlayerSpec = "network:depth=3".parse().unwrap();
        assert!(matches!(&net.kind, PlayerKind::Neural(n) if **n == shipped_network().unwrap()));
        assert_eq!((net.name.as_str(), net.depth), ("network:depth=3", Some(3)));
        assert!(matches!(err("heuristic:speed=3"), PlayerError::Option { .. }));
        assert!(matches!(err("heuristic:dead"), PlayerError::Option { .. }));
        assert!(matches!(err("random:time=1"), PlayerError::Option { .. }));
        assert!(matches!(err("heuristic:time=-1"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:time=NaN"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:depth=0"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:dead=lots"), PlayerError::Value { .. }));
        assert!(matches!(err("heuristic:threads=0"), PlayerError::Limit(_)));
        // The limits of every front end: the engine's Threads stops at 64, Hash at 4096.
        assert!(matches!(err("heuristic:threads=200"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:tt=99999999"), PlayerError::Limit(_)));
        assert!(matches!(err("heuristic:depth=121"), PlayerError::Limit(_)));
        assert!(err("heuristic:tt=99999999").to_string().contains("from 1 to 4096"));
        assert!(matches!(err("cmd:"), PlayerError::NoProgram));
        let external: PlayerSpec = "cmd:./engine --fast".parse().unwrap();
        let command = vec!["./engine".to_string(), "--fast".to_string()];
        assert_eq!(external.kind, PlayerKind::External(External { command, options: Vec::new() }));
        // As cutechess names them: a name, options, limits; the rest is the command.
        let named: PlayerSpec =
            "cmd:./engine --fast name=fast option.Hash=64 option.Evaluator=heuristic:dead=300 depth=6"
                .parse()
                .unwrap();
        assert_eq!((named.name.as_str(), named.depth), ("fast", Some(6)));
        let PlayerKind::External(e) = &named.kind else { panic!() };
        assert_eq!(e.command, ["./engine", "--fast"]);
        assert_eq!(
            e.options,
            [("Hash".into(), "64".into()), ("Evaluator".into(), "heuristic:dead=300".into())]
        );
        assert!(matches!(err("cmd:./engine threads=65"), PlayerError::Limit(_)));
        assert!(matches!(err("cmd:name=x"), PlayerError::NoProgram));
        assert!(matches!(external.evaluator(None), Err(PlayerError::External(_))));
        // A file that is not a weights file says why.
        match err("Cargo.toml") {
            e @ PlayerError::Network(_) => {
                let cause = std::error::Error::source(&e).expect("the loader's error is kept");
                assert!(cause.to_string().contains("not a Tigers and Sheep weights"), "{cause}");
                assert!(e.to_string().starts_with("Cargo.toml: not a Tigers"), "{e}");
                assert!(!e.to_string().contains("Cargo.toml: Cargo.toml"), "said once: {e}");
            }
            other => panic!("{other:?}"),
        }
        // Traps are on or off, and only the perfect player sets them.
        assert!(matches!(err("perfect:traps=yes"), PlayerError::Value { why: "on or off", .. }));
        match err("heuristic:traps=on") {
            PlayerError::Option { option, .. } => assert_eq!(option, "traps=on"),
            other => panic!("{other:?}"),
        }
        let perfect: PlayerSpec = "perfect:dead=300".parse().unwrap();
        let budget = Budget { time: None, depth: Some(1), threads: 1, tt_mb: 1 };
        assert!(matches!(perfect.build(budget, None), Err(PlayerError::NoTablebase)));
    }

    #[test]
    fn a_weights_file_is_a_neural_player() {
        let path = std::env::temp_dir().join(format!("tns-bench-net-{}.bin", std::process::id()));
        let net = Network::new(&[8], 1).unwrap();
        net.save(&path).unwrap();
        let spec: PlayerSpec = format!("{}:depth=2", path.display()).parse().unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(spec.depth, Some(2));
        let PlayerKind::Neural(loaded) = &spec.kind else { panic!("{spec:?}") };
        assert_eq!(**loaded, net);
        let budget = Budget { time: None, depth: None, threads: 1, tt_mb: 1 };
        let mut player = spec.build(budget, None).unwrap();
        let game = Game::new();
        let m = player.choose(&game, &AtomicBool::new(false)).unwrap();
        assert!(game.board().check_move(m).is_ok());
    }

    #[test]
    fn own_limits_replace_the_defaults_as_a_pair() {
        let defaults = Budget { time: Some(1.0), depth: None, threads: 1, tt_mb: 16 };
        let spec: PlayerSpec = "heuristic:depth=5".parse().unwrap();
        let b = spec.budget(defaults);
        assert_eq!((b.time, b.depth, b.tt_mb), (None, Some(5), 16));
        let plain: PlayerSpec = "heuristic".parse().unwrap();
        assert_eq!(plain.budget(defaults), defaults);
    }

    #[test]
    fn random_player_is_legal_and_seeded() {
        let budget = Budget { time: None, depth: Some(1), threads: 1, tt_mb: 1 };
        let mut a = "random".parse::<PlayerSpec>().unwrap().build(budget, None).unwrap();
        let stop = AtomicBool::new(false);
        let mut first = Vec::new();
        for round in 0..2 {
            a.new_game(7);
            let mut game = Game::new();
            for _ in 0..30 {
                let Some(m) = a.choose(&game, &stop) else { break };
                game.play(m).unwrap();
            }
            if round == 0 {
                first = game.moves().to_vec();
            } else {
                assert_eq!(game.moves(), first.as_slice());
            }
        }
    }
}
