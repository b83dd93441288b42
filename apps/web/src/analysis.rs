//! What the API says of a position: from the table where it holds the position, else from the
//! engine's search. Plain functions, run off the async threads.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::Serialize;
use tns_board::{Board, Game, Side};
use tns_match::{Budget, PlayerSpec, Searcher};
use tns_search::{Chances, Expected, Limits, Report, Score};
use tns_tablebase::{MoveEffect, Tablebase, TablebaseError, Value, Verdict, Wdl};

use crate::error::ApiError;

/// The version of the API's answers.
pub const API_VERSION: u32 = 1;

/// Where an answer's verdicts come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The tablebase: exact.
    Table,
    /// The engine's search: proved where it says so, else an estimate.
    Search,
}

/// A verdict for one side: the side to move of a position, or the side that plays a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct VerdictJson {
    /// `win`, `draw` or `loss` for that side; `unknown` where a search found no forced result.
    pub result: &'static str,
    /// `sheep` or `tigers` when the game is decided, else `null`.
    pub winner: Option<&'static str>,
    /// Plies to the end with best play, where known.
    pub plies: Option<u32>,
    /// The search's score for that side, for a search's verdict: the expected result (the
    /// chance of a win less that of a loss) in hundredths of a percent, as the engine's `cp`,
    /// so never beyond ±10,000 (a forced result is ±10,000, its distance in `proven`).
    pub score: Option<i32>,
    /// A forced win or loss, as the engine's `score win N` and `score loss N`: the result for
    /// that side and the plies to the end (`null` where the table knows no distance); `null`
    /// for a draw and for a search's estimate.
    pub proven: Option<ProvenJson>,
    /// The chances that side wins, draws and loses, in permille: certain for the table's
    /// verdicts and the search's forced results, else the player's fitted chances.
    pub wdl: WdlJson,
    /// For a person: "Sheep win in 12", "Draw", "Tigers win", or the chances
    /// ("Sheep 10% · Draw 85% · Tigers 5%").
    pub text: String,
}

/// A forced result, for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ProvenJson {
    /// `win` or `loss`.
    pub result: &'static str,
    /// Plies to the end with best play, where known.
    pub plies: Option<u32>,
}

/// Chances in permille, for one side; they sum to 1,000.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct WdlJson {
    /// That side wins.
    pub win: u16,
    /// A draw.
    pub draw: u16,
    /// That side loses.
    pub loss: u16,
}

impl From<Chances> for WdlJson {
    fn from(c: Chances) -> WdlJson {
        WdlJson { win: c.win, draw: c.draw, loss: c.loss }
    }
}

/// A legal move and its verdict for the side that plays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MoveJson {
    /// The move, in move notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its verdict for the side that plays it.
    pub verdict: VerdictJson,
    /// What it does to the position's result, by the table ([`MoveEffect`]): `keeps` (in a
    /// lost position: the longest defence), `loses_sooner` (lost anyway, sooner than the
    /// longest defence), `gives_up_win` or `loses`; `null` for a search's verdicts and the
    /// moves of a line.
    pub effect: Option<&'static str>,
}

/// A move's effect as the API names it.
fn effect_name(effect: MoveEffect) -> &'static str {
    match effect {
        MoveEffect::Keeps => "keeps",
        MoveEffect::LosesSooner => "loses_sooner",
        MoveEffect::GivesUpWin => "gives_up_win",
        _ => "loses",
    }
}

/// A move that was played, and whether it kept the value of the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayedJson {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its verdict for the side that played it (table only).
    pub verdict: Option<VerdictJson>,
    /// Whether it kept the position's value for its player (table only).
    pub kept: Option<bool>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutcomeJson {
    /// `sheep`, `tigers`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// For a person.
    pub text: String,
}

/// The answer to `position`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PositionJson {
    /// The API version.
    pub api: u32,
    /// The position after the moves, in position notation.
    pub position: String,
    /// `sheep` or `tigers`.
    pub side_to_move: &'static str,
    /// Sheep still to place.
    pub in_hand: u8,
    /// Sheep taken.
    pub dead: u8,
    /// `placement` or `movement`.
    pub phase: &'static str,
    /// Where the verdicts come from: `table` or `search` in the JSON.
    pub source: Source,
    /// The position's verdict for the side to move (`null` when the game is over).
    pub verdict: Option<VerdictJson>,
    /// Every legal move with its verdict for the side to move, best first.
    pub moves: Vec<MoveJson>,
    /// The moves given, each with its verdict where the table holds it.
    pub played: Vec<PlayedJson>,
    /// The result, if the game is over.
    pub outcome: Option<OutcomeJson>,
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::Sheep => "sheep",
        Side::Tiger => "tigers",
    }
}

/// A table verdict as JSON, for `side`.
pub fn table_verdict(v: Verdict, side: Side) -> VerdictJson {
    let (result, winner) = match v.wdl {
        Wdl::Win => ("win", Some(side_name(side))),
        Wdl::Draw => ("draw", None),
        Wdl::Loss => ("loss", Some(side_name(side.other()))),
    };
    let plies = match v.value {
        Some(Value::Win(n) | Value::Loss(n)) => Some(u32::from(n)),
        _ => None,
    };
    let wdl = Chances::certain(v.wdl).into();
    let proven = (v.wdl != Wdl::Draw).then_some(ProvenJson { result, plies });
    VerdictJson { result, winner, plies, score: None, proven, wdl, text: v.describe(side) }
}

/// A search's score and chances for `side` as JSON: decided where the search proved a result.
pub fn search_verdict(score: Score, chances: Chances, side: Side) -> VerdictJson {
    match score.plies_to_end() {
        Some(n) => {
            let winner = if score > Score::DRAW { side } else { side.other() };
            let result = if score > Score::DRAW { "win" } else { "loss" };
            let plies = Some(n);
            let certain =
                if score > Score::DRAW { Expected::CERTAIN_WIN } else { -Expected::CERTAIN_WIN };
            VerdictJson {
                result,
                winner: Some(side_name(winner)),
                plies,
                // A certain result, in the one unit of `score`; the distance is `proven`'s.
                score: Some(certain.get()),
                proven: Some(ProvenJson { result, plies }),
                wdl: chances.into(),
                text: score.describe(side),
            }
        }
        None => VerdictJson {
            result: "unknown",
            winner: None,
            plies: None,
            score: Some(Expected::of(chances).get()),
            proven: None,
            wdl: chances.into(),
            // The chances are the side to move's: for a move, the side that plays it.
            text: chances.describe(side),
        },
    }
}

/// A table error as an API error: a damaged table is the server's failure.
fn table_error(e: TablebaseError) -> ApiError {
    ApiError::internal("the tablebase failed", e)
}

/// How far searches go where there is no table: the position's own search, and each move's.
#[derive(Clone, Copy, Debug)]
pub struct SearchBudget {
    /// The position's search.
    pub position: Duration,
    /// Each move's search (of the position after it).
    pub per_move: Duration,
}

/// What the server knows: the table, if any, and the evaluator its searches use.
#[derive(Debug)]
pub struct Analyst {
    /// The tablebase, when the server has one.
    pub table: Option<Arc<Tablebase>>,
    /// The budget of searches without a table.
    pub budget: SearchBudget,
}

impl Analyst {
    /// The strongest player where the table does not answer: the shipped network, searching
    /// with the table's movement phase when there is a table (`strongest:table=on`).
    fn strongest(&self) -> PlayerSpec {
        match self.table {
            Some(_) => PlayerSpec::strongest().using_table(),
            None => PlayerSpec::strongest(),
        }
    }

    /// Whether the table's layers answer for `board` and its moves (a cheap test: the layers
    /// built, not a probe).
    pub fn holds(&self, board: Board) -> bool {
        let Some(table) = self.table.as_deref() else { return false };
        if board.in_hand() == 0 {
            return true;
        }
        let placed = tns_board::TOTAL_SHEEP - board.in_hand();
        // A sheep-to-move position is worked out from the next layer.
        let needed = placed + u8::from(board.side_to_move() == Side::Sheep);
        table.placement_from().is_some_and(|from| needed >= from)
    }

    /// The table, when it answers for `board`.
    fn table_for(&self, board: Board) -> Option<&Tablebase> {
        self.table.as_deref().filter(|_| self.holds(board))
    }

    /// The answer to `position` for `game`: from the table where it holds the position, else
    /// from searches that stop when `stop` is raised.
    ///
    /// # Errors
    /// A 500 when the table fails (a damaged file).
    pub fn position(&self, game: &Game, stop: &AtomicBool) -> Result<PositionJson, ApiError> {
        let board = game.board();
        let side = board.side_to_move();
        let outcome = game
            .outcome()
            .map(|o| OutcomeJson { winner: o.winner.map(side_name), text: o.to_string() });
        let played = self.played(game)?;
        let mut answer = PositionJson {
            api: API_VERSION,
            position: board.to_string(),
            side_to_move: side_name(side),
            in_hand: board.in_hand(),
            dead: board.dead(),
            phase: if board.in_hand() > 0 { "placement" } else { "movement" },
            source: if self.holds(board) { Source::Table } else { Source::Search },
            verdict: None,
            moves: Vec::new(),
            played,
            outcome,
        };
        if answer.outcome.is_some() {
            return Ok(answer);
        }
        if let Some(table) = self.table_for(board) {
            let verdicts = table.verdicts(board).map_err(table_error)?;
            // A position's verdict is its best move's (the movement phase's included: its
            // value is the best move's value, one ply back).
            answer.verdict = verdicts.first().map(|&(_, best)| table_verdict(best, side));
            answer.moves = MoveEffect::of_each(&verdicts)
                .map(|(m, v, effect)| MoveJson {
                    mv: m.to_string(),
                    verdict: table_verdict(v, side),
                    effect: Some(effect_name(effect)),
                })
                .collect();
            return Ok(answer);
        }
        let (verdict, moves) = self.searched(game, stop)?;
        answer.verdict = Some(verdict);
        answer.moves = moves;
        Ok(answer)
    }

    /// The moves of `game` with their verdicts, where the table holds them.
    fn played(&self, game: &Game) -> Result<Vec<PlayedJson>, ApiError> {
        let positions = game.positions();
        game.moves()
            .iter()
            .zip(positions)
            .map(|(&m, &before)| {
                let side = before.side_to_move();
                let judged = match self.table_for(before) {
                    None => None,
                    Some(table) => {
                        let best = table.verdict(before).map_err(table_error)?;
                        let child = before.after_unchecked(m);
                        let after = if child.dead() >= table.kills() {
                            Verdict::from(Value::Win(1))
                        } else {
                            table.verdict(child).map_err(table_error)?.before()
                        };
                        // Kept unless it lost or gave up what the position held: in a
                        // lost position every move keeps (the same rule as the marks).
                        let effect = MoveEffect::of(best, after);
                        let kept = matches!(effect, MoveEffect::Keeps | MoveEffect::LosesSooner);
                        Some((table_verdict(after, side), kept))
                    }
                };
                Ok(PlayedJson {
                    mv: m.to_string(),
                    kept: judged.as_ref().map(|j| j.1),
                    verdict: judged.map(|j| j.0),
                })
            })
            .collect()
    }

    /// The position's verdict and each move's, from one search with the shipped network of
    /// every legal move at the same depth (as `MultiPV` does): the moves ranked by their
    /// lines' scores at the deepest depth all of them completed, and the position's verdict
    /// the best line's, so the two agree.
    ///
    /// # Errors
    /// A 500 when the search cannot be made or run (no memory, no thread).
    fn searched(
        &self,
        game: &Game,
        stop: &AtomicBool,
    ) -> Result<(VerdictJson, Vec<MoveJson>), ApiError> {
        let board = game.board();
        let side = board.side_to_move();
        let failed = |e: tns_search::SearchError| ApiError::internal("the search failed", e);
        let mut search = searcher(&self.strongest(), 8, self.table.as_ref())?;
        let lines = board.legal_moves().len();
        search.set_multipv(lines);
        let budget =
            self.budget.position + self.budget.per_move * u32::try_from(lines).unwrap_or(1);
        let mut under_way: Vec<Report> = Vec::new();
        let mut complete: Vec<Report> = Vec::new();
        let result = search
            .search(board, game.previous(), Limits::depth(30).with_time(budget), stop, |r| {
                if r.lower_bound || r.pv.is_empty() {
                    return;
                }
                if under_way.first().is_some_and(|first| first.depth != r.depth) {
                    under_way.clear();
                }
                under_way.push(r.clone());
                if under_way.len() == lines {
                    complete = std::mem::take(&mut under_way);
                }
            })
            .map_err(failed)?;
        let moves: Vec<MoveJson> = complete
            .iter()
            .map(|r| MoveJson {
                mv: r.pv[0].to_string(),
                verdict: search_verdict(r.score, r.chances, side),
                effect: None,
            })
            .collect();
        let verdict = match complete.first() {
            Some(best) => search_verdict(best.score, best.chances, side),
            None => search_verdict(result.score, result.chances, side),
        };
        if moves.len() == lines {
            return Ok((verdict, moves));
        }
        // Stopped before one depth was complete for every move (the request given up): the
        // moves in their order, not searched.
        let unranked = board
            .legal_moves()
            .iter()
            .map(|m| MoveJson {
                mv: m.to_string(),
                verdict: VerdictJson {
                    result: "unknown",
                    winner: None,
                    plies: None,
                    score: None,
                    proven: None,
                    wdl: Chances::from_probabilities(0.0, 0.0).into(),
                    text: "not searched".into(),
                },
                effect: None,
            })
            .collect();
        Ok((verdict, unranked))
    }

    /// A perfect line from `game`'s position (the table's moves, the perfect player choosing
    /// among those that keep the value), or the search's without a table: at most `plies`
    /// plies, within `time`.
    ///
    /// # Errors
    /// A 500 when the table fails.
    pub fn mainline(
        &self,
        game: &Game,
        plies: usize,
        time: Duration,
        stop: &AtomicBool,
    ) -> Result<(Vec<MoveJson>, Source), ApiError> {
        let mut game = game.clone();
        let start = Instant::now();
        let table = self.table.as_ref().filter(|_| self.holds(game.board()));
        let (spec, source) = match table {
            Some(_) => (PlayerSpec::perfect(), Source::Table),
            None => (self.strongest(), Source::Search),
        };
        let mut search = searcher(&spec, 16, table.or(self.table.as_ref()))?;
        let mut line = Vec::new();
        while game.outcome().is_none() && line.len() < plies && start.elapsed() < time {
            let board = game.board();
            let side = board.side_to_move();
            let limits = Limits::depth(4).with_time(time / 10);
            let result = search
                .search(board, game.previous(), limits, stop, |_| {})
                .map_err(|e| ApiError::internal("the search failed", e))?;
            let Some(m) = result.best_move else { break };
            let verdict = match (source, self.table.as_deref()) {
                (Source::Table, Some(t)) => {
                    let child = board.after_unchecked(m);
                    let v = if child.dead() >= t.kills() {
                        Verdict::from(Value::Win(1))
                    } else {
                        t.verdict(child).map_err(table_error)?.before()
                    };
                    table_verdict(v, side)
                }
                _ => search_verdict(result.score, result.chances, side),
            };
            line.push(MoveJson { mv: m.to_string(), verdict, effect: None });
            game.play(m).map_err(|e| ApiError::internal("the line's move was not legal", e))?;
        }
        Ok((line, source))
    }
}

/// The search of `spec` with a table of `tt_mb` MiB on one thread, as every program builds a
/// player's ([`PlayerSpec::searcher`]).
fn searcher(
    spec: &PlayerSpec,
    tt_mb: usize,
    table: Option<&Arc<Tablebase>>,
) -> Result<Searcher, ApiError> {
    let defaults = Budget { time: None, depth: None, threads: 1, tt_mb };
    match spec.searcher(defaults, table) {
        Ok(Some(search)) => Ok(search),
        Ok(None) => Err(ApiError::internal("no search", anyhow::anyhow!("{spec} does not search"))),
        Err(e) => Err(ApiError::internal("the search failed", e)),
    }
}
