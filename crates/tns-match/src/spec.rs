//! Players, named on the command line the same way by every program here: what a player spec
//! holds. Its grammar is in `spec_grammar.rs`, what it builds in `spec_build.rs`, the strongest
//! player for a position in `strongest.rs`.
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
use std::sync::Arc;

use tns_nn::Network;
#[cfg(doc)]
use tns_search::Calibrated;
use tns_search::{Evaluator, Search, Weights};
#[cfg(doc)]
use tns_tablebase::WithTablebase;

use crate::error::PlayerError;
use crate::external::External;
use crate::level::Level;
use crate::player::Budget;
use crate::shipped::shipped_network_shared;

/// Whether `net` is the shipped network (the same one, or one with the same weights).
pub(crate) fn is_shipped(net: &Arc<Network>) -> bool {
    shipped_network_shared().is_ok_and(|shipped| Arc::ptr_eq(net, &shipped) || **net == *shipped)
}

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
    /// The search with a network as its evaluator: the shipped one, or from a weights file.
    Network(Arc<Network>),
    /// A uniformly random legal move.
    Random,
    /// Another program speaking the TSI protocol.
    External(External),
}

/// A player as named on the command line: its kind, and any limits it sets for itself (those it
/// leaves unset come from the match's defaults).
///
/// Its name in reports, records and lists is its `Display`, written from its fields in one
/// order whatever order its text gave them in, so that one player has one name: a level's
/// name where it is exactly a level (`easy`, `strongest`), else its kind, written as the level
/// whose spec the kind is where there is one (`hard` for `heuristic`, `strongest` for
/// `network`), and the options that differ from the kind's defaults
/// (`hard:time=0.2,depth=3,table=on,dead=350`), which parses back to the same player. Another program (`cmd:`) shows the `name=` it was given,
/// if any; `{:#}` writes its whole spec.
///
/// ```
/// use tns_match::PlayerSpec;
///
/// let a: PlayerSpec = "heuristic:table=on,depth=4".parse()?;
/// let b: PlayerSpec = "heuristic:depth=4,table=on".parse()?;
/// assert_eq!(a, b);
/// assert_eq!(a.to_string(), "hard:depth=4,table=on");
/// assert_eq!("heuristic:depth=2".parse::<PlayerSpec>()?.to_string(), "easy");
/// # Ok::<(), tns_match::PlayerError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerSpec {
    /// What kind of player.
    pub kind: PlayerKind,
    /// Seconds per move, if set for this player.
    pub time: Option<f64>,
    /// Plies per move, if set for this player.
    pub depth: Option<u32>,
    /// Search threads, if set for this player.
    pub threads: Option<usize>,
    /// Transposition table size in MiB, if set for this player.
    pub tt_mb: Option<usize>,
    /// Whether the search takes the tablebase's exact values wherever it reaches a position
    /// with no sheep in hand (`table=on`, for `heuristic`, `network` and weights files; see
    /// [`WithTablebase::table_on`]). The perfect player always does.
    pub table: bool,
    /// Whether the search takes the exact wins and losses of the endgame built into the program
    /// (the movement phase after at most one kill, [`shipped_endgame`](crate::shipped_endgame), [`with_endgame`](crate::with_endgame)) where
    /// it has no `table=on`:
    /// `endgame=on`, the default of the network players (`network` and weights files);
    /// `endgame=off` leaves the network alone. The heuristic takes it only when told.
    pub endgame: bool,
    /// Whether the evaluator's scores are read through the chances fitted for it on the solved
    /// game ([`Calibrated`], [`shipped_chances`](crate::shipped_chances)): its scores are then the expected result in
    /// ten-thousandths of a win, steady from depth to depth, and its chances are calibrated. On by default for
    /// the shipped network (and a weights file that holds it); `calibrated=off` searches with
    /// its raw scores, which change sign with the horizon's parity. Off by default for the
    /// heuristic, whose chances are fitted only on the table's last placement layers so far;
    /// `heuristic:calibrated=on` reads its default weights' scores through them. Other
    /// evaluators have no fitted chances and are never calibrated.
    pub calibrated: bool,
    /// What names a network player's weights where they are not the shipped network's: the
    /// file they were read from, as the spec wrote it, or the name a program gave a network
    /// it holds ([`PlayerSpec::neural`]). Not a field of its own for callers to keep in step:
    /// it is set with the network.
    weights_name: Option<String>,
}

/// The options of the heuristic's weights, in the order a spec's text writes them.
pub(crate) const WEIGHT_KEYS: [&str; 7] = [
    "dead",
    "capturable_tiger",
    "capturable_sheep",
    "trapped",
    "mobility",
    "in_hand",
    "edge_sheep",
];

/// The weight an option names, in `weights`.
pub(crate) fn weight_mut<'w>(weights: &'w mut Weights, key: &str) -> Option<&'w mut i32> {
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

fn on_off(on: bool) -> &'static str {
    if on { "on" } else { "off" }
}

impl PlayerSpec {
    /// The options that differ from the kind's defaults, in the one order a spec's text
    /// writes them: the limits, the switches, then the weights.
    fn options(&self) -> Vec<String> {
        let mut options = Vec::new();
        if let Some(time) = self.time {
            options.push(format!("time={time}"));
        }
        if let Some(depth) = self.depth {
            options.push(format!("depth={depth}"));
        }
        if let Some(threads) = self.threads {
            options.push(format!("threads={threads}"));
        }
        if let Some(tt) = self.tt_mb {
            options.push(format!("tt={tt}"));
        }
        let weights = match &self.kind {
            PlayerKind::Heuristic(weights) => Some(weights),
            PlayerKind::Perfect { weights, traps } => {
                if *traps {
                    options.push("traps=on".into());
                }
                Some(weights)
            }
            _ => None,
        };
        if matches!(self.kind, PlayerKind::Heuristic(_) | PlayerKind::Network(_)) {
            // The network players take the endgame and their chances by default, the
            // heuristic neither: each is written where it differs.
            let neural = matches!(self.kind, PlayerKind::Network(_));
            if self.table {
                options.push("table=on".into());
            }
            if self.endgame != neural {
                options.push(format!("endgame={}", on_off(self.endgame)));
            }
            if self.calibrated != neural {
                options.push(format!("calibrated={}", on_off(self.calibrated)));
            }
        }
        if let Some(weights) = weights {
            let (mut given, mut default) = (*weights, Weights::DEFAULT);
            for key in WEIGHT_KEYS {
                let value = *weight_mut(&mut given, key).expect("a weight's key");
                if value != *weight_mut(&mut default, key).expect("a weight's key") {
                    options.push(format!("{key}={value}"));
                }
            }
        }
        options
    }

    /// The spec's text from its fields, never a level's name: `KIND[:OPTIONS]`, or for
    /// another program `cmd:PROGRAM ARGS` and its settings as words.
    fn text(&self) -> String {
        let options = self.options();
        let kind = match &self.kind {
            PlayerKind::Heuristic(_) => "heuristic",
            PlayerKind::Perfect { .. } => "perfect",
            PlayerKind::Random => "random",
            PlayerKind::Network(_) => self.weights_name.as_deref().unwrap_or("network"),
            PlayerKind::External(external) => {
                let mut words = external.command.clone();
                words.extend(external.options.iter().map(|(k, v)| format!("option.{k}={v}")));
                words.extend(options);
                words.extend(external.name.iter().map(|name| format!("name={name}")));
                return format!("cmd:{}", words.join(" "));
            }
        };
        if options.is_empty() { kind.to_string() } else { format!("{kind}:{}", options.join(",")) }
    }

    /// The level this player is exactly, if it is one (`heuristic:depth=2` is
    /// [`Level::Easy`]); with any option more (`table=on`, a time) it is none.
    pub fn level(&self) -> Option<Level> {
        if self.weights_name.is_some() {
            return None;
        }
        let text = self.text();
        Level::ALL.into_iter().find(|l| l.spec() == text)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let PlayerKind::External(External { name: Some(name), .. }) = &self.kind
            && !f.alternate()
        {
            return f.write_str(name);
        }
        // People choose levels: a spec is written by its level's name wherever one names it
        // (`easy`, `strongest:table=on`, `hard:depth=3`), so one player has one name.
        f.write_str(&crate::level::level_name(&self.text()))
    }
}

/// A search ready to play as a player: its evaluator, threads and table. Programs that run
/// the search themselves (to show its lines, to stop it) get one from
/// [`PlayerSpec::searcher`].
pub type Searcher = Search<Box<dyn Evaluator>>;

impl PlayerSpec {
    /// A player of `kind`, setting no limits of its own. A network other than the shipped one
    /// is better made with [`PlayerSpec::neural`], which names it; made here it is called
    /// `network-in-memory`.
    pub fn new(kind: PlayerKind) -> PlayerSpec {
        let weights_name = match &kind {
            PlayerKind::Network(net) if !is_shipped(net) => Some("network-in-memory".to_string()),
            _ => None,
        };
        PlayerSpec { weights_name, ..PlayerSpec::unnamed(kind) }
    }

    /// A player of `kind` with the defaults, its network (if any) unnamed: the shipped one.
    fn unnamed(kind: PlayerKind) -> PlayerSpec {
        PlayerSpec {
            weights_name: None,
            endgame: matches!(kind, PlayerKind::Network(_)),
            calibrated: matches!(kind, PlayerKind::Network(_)),
            kind,
            time: None,
            depth: None,
            threads: None,
            tt_mb: None,
            table: false,
        }
    }

    /// A network player searching with `network`, named `name` in reports (a training run's
    /// generation, a weights file's path): the endgame and calibration as for any network.
    pub fn neural(name: impl Into<String>, network: Arc<Network>) -> PlayerSpec {
        PlayerSpec {
            weights_name: Some(name.into()),
            ..PlayerSpec::unnamed(PlayerKind::Network(network))
        }
    }

    /// `network`: the search with the shipped network, within the limits a program gives it.
    ///
    /// # Errors
    /// As [`shipped_network`](crate::shipped_network).
    pub fn network() -> Result<PlayerSpec, PlayerError> {
        Ok(PlayerSpec::new(PlayerKind::Network(shipped_network_shared()?)))
    }

    /// `heuristic`: the search with the hand-written evaluator's default weights, within the
    /// limits a program gives it.
    pub fn heuristic() -> PlayerSpec {
        PlayerSpec::new(PlayerKind::Heuristic(Weights::DEFAULT))
    }

    /// `perfect`: the search behind the tablebase, with the heuristic's default weights where
    /// the table does not hold a position.
    pub fn perfect() -> PlayerSpec {
        PlayerSpec::new(PlayerKind::Perfect { weights: Weights::DEFAULT, traps: false })
    }

    /// The same player with `table=on` (and so its text): its search takes the exact values
    /// of the tablebase's movement phase. The perfect player, which always does, and players
    /// that do not search are returned as they are.
    ///
    /// ```
    /// use tns_match::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "heuristic:depth=4".parse()?;
    /// let with = spec.using_table();
    /// assert!(with.table);
    /// assert_eq!(with.to_string(), "hard:depth=4,table=on");
    /// assert_eq!(with.to_string().parse::<PlayerSpec>()?, with);
    /// # Ok::<(), tns_match::PlayerError>(())
    /// ```
    #[must_use]
    pub fn using_table(mut self) -> PlayerSpec {
        if matches!(self.kind, PlayerKind::Heuristic(_) | PlayerKind::Network(_)) {
            self.table = true;
        }
        self
    }

    /// The same player without `table=on`: for a saved game whose player searched with a
    /// table that is not here now.
    ///
    /// ```
    /// use tns_match::PlayerSpec;
    ///
    /// let spec: PlayerSpec = "network:depth=4,table=on".parse()?;
    /// let without = spec.without_table();
    /// assert!(!without.table);
    /// assert_eq!(without.to_string(), "strongest:depth=4");
    /// assert_eq!(without.to_string().parse::<PlayerSpec>()?, without);
    /// # Ok::<(), tns_match::PlayerError>(())
    /// ```
    #[must_use]
    pub fn without_table(mut self) -> PlayerSpec {
        self.table = false;
        self
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
    use proptest::prelude::*;

    use super::*;

    /// A spec's text: a kind (or a level) and options it takes, in a random order.
    fn spec_text() -> impl Strategy<Value = String> {
        let limits = (
            proptest::option::of(1e-3..=86_400.0_f64),
            proptest::option::of(1..=120_u32),
            proptest::option::of(1..=64_usize),
            proptest::option::of(1..=4096_usize),
        )
            .prop_map(|(time, depth, threads, tt)| {
                let mut options = Vec::new();
                options.extend(time.map(|t| format!("time={t}")));
                options.extend(depth.map(|d| format!("depth={d}")));
                options.extend(threads.map(|t| format!("threads={t}")));
                options.extend(tt.map(|t| format!("tt={t}")));
                options
            });
        let on_off = |key: &'static str| {
            proptest::option::of(any::<bool>())
                .prop_map(move |on| on.map(|on| format!("{key}={}", if on { "on" } else { "off" })))
        };
        let weights = proptest::sample::subsequence(WEIGHT_KEYS.to_vec(), 0..=3)
            .prop_flat_map(|keys| {
                let n = keys.len();
                (Just(keys), proptest::collection::vec(-2000..2000_i32, n))
            })
            .prop_map(|(keys, values)| {
                keys.iter().zip(values).map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>()
            });
        let switches = (on_off("table"), on_off("endgame"), on_off("calibrated"))
            .prop_map(|(a, b, c)| [a, b, c].into_iter().flatten().collect::<Vec<_>>());
        let heads = ["heuristic", "hard", "easy", "medium", "network", "strongest"];
        prop_oneof![
            Just(("random", Vec::new())),
            (proptest::sample::select(heads.to_vec()), limits.clone(), switches, weights.clone())
                .prop_map(|(head, limits, switches, weights)| {
                    // Weights are the heuristic's alone.
                    let neural = matches!(head, "network" | "strongest");
                    let weights = if neural { Vec::new() } else { weights };
                    (head, [limits, switches, weights].concat())
                }),
            (Just("perfect"), limits, on_off("traps"), weights).prop_map(
                |(head, limits, traps, weights)| {
                    (head, [limits, traps.into_iter().collect(), weights].concat())
                }
            ),
        ]
        .prop_flat_map(|(head, options)| (Just(head), Just(options).prop_shuffle()))
        .prop_map(|(head, options)| {
            if options.is_empty() {
                head.to_string()
            } else {
                format!("{head}:{}", options.join(","))
            }
        })
    }

    proptest! {
        #[test]
        fn a_specs_text_parses_back_to_it_whatever_the_order_it_came_in(
            text in spec_text(),
            seed in any::<u64>(),
        ) {
            let spec: PlayerSpec = text.parse().unwrap();
            prop_assert_eq!(spec.to_string().parse::<PlayerSpec>().unwrap(), spec.clone());
            // The same options in another order: the same player, the same text.
            let (head, options) = text.split_once(':').unwrap_or((&text, ""));
            let mut options: Vec<&str> = options.split(',').filter(|o| !o.is_empty()).collect();
            if !options.is_empty() {
                let turn = usize::try_from(seed % options.len() as u64).unwrap();
                options.rotate_left(turn);
                options.reverse();
            }
            let other = if options.is_empty() {
                head.to_string()
            } else {
                format!("{head}:{}", options.join(","))
            };
            let again: PlayerSpec = other.parse().unwrap();
            prop_assert_eq!(&again, &spec);
            prop_assert_eq!(again.to_string(), spec.to_string());
        }
    }

    #[test]
    fn one_player_has_one_text_and_the_old_spellings_still_name_it() {
        let text = |s: &str| s.parse::<PlayerSpec>().unwrap().to_string();
        // Texts written as people choose players: a level's name, with its options.
        for same in [
            "hard:depth=3",
            "hard:time=0.2,dead=350,in_hand=-5",
            "strongest:table=on",
            "strongest:depth=4,table=on",
            "strongest:endgame=off",
            "perfect:traps=on,dead=300",
            "easy",
            "strongest",
            "random",
            "perfect",
        ] {
            assert_eq!(text(same), same);
        }
        // Two orders, or a level and its spec: one player, one text.
        assert_eq!(text("heuristic:table=on,depth=4"), "hard:depth=4,table=on");
        assert_eq!(text("network:table=on"), "strongest:table=on");
        assert_eq!(text("heuristic:depth=2"), "easy");
        assert_eq!(text("heuristic"), "hard");
        assert_eq!(text("network"), "strongest");
        assert_eq!(text("easy:time=1"), "hard:time=1,depth=2");
        // Options at their default are not written.
        assert_eq!(text("network:endgame=on,calibrated=on,table=off"), "strongest");
        assert_eq!(text("perfect:traps=off"), "perfect");
        let (a, b): (PlayerSpec, PlayerSpec) = (
            "heuristic:depth=5,dead=300".parse().unwrap(),
            "heuristic:dead=300,depth=5".parse().unwrap(),
        );
        assert_eq!(a, b);
        // A network held in memory is named by its holder; one made without a name says so.
        let net = Arc::new(Network::new(&[8], 1).unwrap());
        assert_eq!(PlayerSpec::neural("gen-003", Arc::clone(&net)).to_string(), "gen-003");
        assert_eq!(PlayerSpec::new(PlayerKind::Network(net)).to_string(), "network-in-memory");
        assert_eq!(PlayerSpec::network().unwrap().level(), Some(Level::Strongest));
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
}
