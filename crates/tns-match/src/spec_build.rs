//! What a player spec builds: its evaluator, its search, its player. The one place a program
//! makes them, so that every option of a spec works in each program.

use std::sync::Arc;
use std::time::Duration;

use tns_nn::{Network, NeuralEvaluator};
use tns_search::{Calibrated, Evaluator, Heuristic, Search, Weights};
use tns_tablebase::{Tablebase, WithTablebase};

use crate::error::PlayerError;
use crate::external::ExternalPlayer;
use crate::player::{Budget, Player, RandomPlayer, SearchPlayer};
use crate::shipped::{Fitted, shipped_chances, shipped_network_shared, with_endgame};
use crate::spec::{PlayerKind, PlayerSpec, Searcher};

impl PlayerSpec {
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
    /// assert_eq!(search.tt_bytes() >> 20, 8);
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
            Ok(Box::new(evaluator.table_on()))
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
            PlayerKind::Network(net) => {
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
            PlayerKind::External(_) => return Err(PlayerError::External(self.to_string())),
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
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use tns_board::{Board, Game, KILLS_TO_WIN};
    use tns_search::{Eval, Expected, Score};

    use super::*;
    use crate::shipped::shipped_endgame;

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
                    scores.push(r.score.as_eval().get());
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
            let value = endgame.value(board).unwrap();
            for score in [-500, 0, 700].map(|e| Score::from_eval(Eval::new(e))) {
                let chances = evaluator.chances(score, board);
                assert_eq!(chances, tns_search::Chances::certain(value.wdl()), "{text}");
                assert_eq!(chances.of(value.wdl()), 1000);
            }
            held += 1;
        }
        assert_eq!(held, 2);
        // Elsewhere the network's fitted chances: an expected result of half a win is not
        // certain, and a better score has better chances.
        let share = |e| Score::from_eval(Eval::new(Expected::CERTAIN_WIN.get() * e / 4));
        let half = evaluator.chances(share(2), Board::START);
        assert!(half.win > 0 && half.win < 1000, "{half}");
        assert!(evaluator.chances(share(3), Board::START).win > half.win);
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
        assert_eq!(raw.chances(Score::from_eval(score), board), fitted);
        let default = Heuristic::default().chances(Score::from_eval(score), board);
        assert_ne!(fitted, default, "not the default reading");
        // Read through the chances, every evaluation is an expected result in permille.
        let evaluator = spec("heuristic:calibrated=on").evaluator(None).unwrap().unwrap();
        let board: Board = "T3T/5/2S2/5/T3T t 19".parse().unwrap();
        assert!(evaluator.evaluate(board).get().abs() <= Expected::CERTAIN_WIN.get());
        let chances = evaluator.chances(Score::from_eval(evaluator.evaluate(board)), board);
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
        assert_eq!(network.to_string(), "strongest:table=on");
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
        let value = table.value(board).expect("the movement phase holds it");
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
            assert_eq!(start.to_string(), "strongest:table=on");
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
        let value = endgame.value(one_dead).expect("the endgame holds one kill");
        assert_eq!(endgame.value(two_dead), None);
        assert_eq!(endgame.value(Board::START), None);
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
            WithTablebase::new(Heuristic::default(), Arc::clone(&endgame)).unwrap().table_on();
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
            let Some(value) = endgame.value(board) else { continue };
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
    fn random_player_is_legal_and_seeded() {
        let budget = Budget { time: None, depth: Some(1), threads: 1, tt_mb: 1 };
        let mut a = "random".parse::<PlayerSpec>().unwrap().build(budget, None).unwrap();
        let stop = AtomicBool::new(false);
        let mut first = Vec::new();
        for round in 0..2 {
            a.new_game(7);
            let mut game = Game::new();
            for _ in 0..30 {
                let Ok(m) = a.choose(&game, &stop) else { break };
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
