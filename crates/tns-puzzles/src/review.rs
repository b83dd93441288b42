//! A review of a game against the solved game: the value along the plies, and every move that
//! threw a result away, with a move that kept it.

use std::fmt;

use tns_board::{Board, Game, Move, Side};
use tns_search::Chances;
use tns_tablebase::{Tablebase, TablebaseError, Value, Verdict, Wdl};

/// What is known of a position: the table's exact verdict, or a player's chances where the
/// table does not hold it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// The table's verdict, for the side to move.
    Exact(Verdict),
    /// A searching player's chances, for the side to move.
    Estimate(Chances),
    /// Nothing known (no table there, and no estimate given).
    Unknown,
}

impl Judgement {
    /// The value for the sheep from -1 (the tigers win) to +1 (the sheep win): the verdict's
    /// result, or the chances' expected score; `None` when unknown. `side` is the side to move.
    pub fn for_sheep(self, side: Side) -> Option<f64> {
        let own = match self {
            Judgement::Exact(v) => match v.wdl {
                Wdl::Win => 1.0,
                Wdl::Draw => 0.0,
                Wdl::Loss => -1.0,
            },
            Judgement::Estimate(c) => (f64::from(c.win) - f64::from(c.loss)) / 1000.0,
            Judgement::Unknown => return None,
        };
        // A draw is 0 from either side, never -0.
        Some(if side == Side::Sheep || own == 0.0 { own } else { -own })
    }
}

/// How bad a move was, by the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A win or a draw thrown to a loss: `??`.
    Blunder,
    /// A win thrown to a draw: `?`.
    Mistake,
}

impl Mark {
    /// Its sign in a move list.
    pub const fn sign(self) -> &'static str {
        match self {
            Mark::Blunder => "??",
            Mark::Mistake => "?",
        }
    }
}

/// One ply of a reviewed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The position the move was played from.
    pub board: Board,
    /// The move.
    pub played: Move,
    /// The position before the move, for its mover.
    pub before: Judgement,
    /// What the move itself is worth to its mover: the table's verdict after it, or the
    /// estimate there turned to the mover's view.
    pub after: Judgement,
    /// Set where the table judged both and the move gave a result up.
    pub mark: Option<Mark>,
    /// A move that kept the result, where the move was marked (the table's best).
    pub better: Option<Move>,
    /// How many legal moves kept the result (where the table judged it), of how many.
    pub kept: Option<(usize, usize)>,
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// The plies in order.
    pub plies: Vec<Ply>,
    /// The position after the last move, as judged.
    pub last: Judgement,
    /// That position.
    pub end: Board,
}

/// Why a game could not be reviewed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReviewError {
    /// The table failed (a damaged file).
    #[error("the table failed")]
    Table(#[source] TablebaseError),
}

impl Review {
    /// The value for the sheep after each ply, from the start (see [`Judgement::for_sheep`]):
    /// the chart's points, one more than the plies.
    pub fn chart(&self) -> Vec<Option<f64>> {
        let mut points: Vec<Option<f64>> =
            self.plies.iter().map(|p| p.before.for_sheep(p.board.side_to_move())).collect();
        points.push(self.last.for_sheep(self.end.side_to_move()));
        points
    }

    /// The chart in at most `columns` characters, one a ply where they fit (else plies shared
    /// out over the columns): each column's first ply and its bar, from `▁` (the tigers win)
    /// to `█` (the sheep win), `·` where nothing is known.
    pub fn sparkline(&self, columns: usize) -> Vec<(usize, char)> {
        const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
        let points = self.chart();
        let columns = points.len().min(columns.max(1));
        (0..columns)
            .map(|c| {
                let ply = c * points.len() / columns;
                let bar = points[ply].map_or('·', |v| {
                    #[expect(
                        clippy::cast_possible_truncation,
                        clippy::cast_sign_loss,
                        reason = "clamped to 0..=7 first"
                    )]
                    let level = ((v + 1.0) * 3.5).round().clamp(0.0, 7.0) as usize;
                    BARS[level]
                });
                (ply, bar)
            })
            .collect()
    }

    /// Ply `i` (from 0) numbered as move lists number turns: `3.` for the sheep's move of the
    /// third turn, `3…` for the tigers' reply.
    pub fn turn_label(&self, i: usize) -> String {
        let tigers_first =
            self.plies.first().is_some_and(|p| p.board.side_to_move() == Side::Tiger);
        let ply = i + usize::from(tigers_first);
        format!("{}{}", ply / 2 + 1, if ply % 2 == 1 { "…" } else { "." })
    }

    /// The first marked ply of `side`, its index.
    pub fn first_mistake(&self, side: Side) -> Option<usize> {
        self.plies.iter().position(|p| p.mark.is_some() && p.board.side_to_move() == side)
    }

    /// The index of the next marked ply after `from` (or the first, for `None`), wrapping
    /// round; `None` when nothing is marked.
    pub fn next_mark(&self, from: Option<usize>) -> Option<usize> {
        let n = self.plies.len();
        let start = from.map_or(0, |i| i + 1);
        (0..n).map(|k| (start + k) % n).find(|&i| self.plies[i].mark.is_some())
    }
}

/// A movement position where the choice matters: some move keeps a win or a draw and another
/// loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurningPoint {
    /// The position.
    pub board: Board,
    /// The table's best move there.
    pub keeps: Move,
    /// A move that loses.
    pub loses: Move,
}

/// The first turning point of the movement phase with `side` to move, in the table's index
/// order: an example of a mistake to review, found in a moment on a small variant's table.
/// `None` when there is none.
pub fn turning_point(table: &Tablebase, side: Side) -> Option<TurningPoint> {
    (0..table.slots(0, 0)).filter_map(|slot| table.position_at(0, 0, side, slot)).find_map(
        |board| {
            let verdicts = table.verdicts(board).ok()?;
            let (keeps, best) = *verdicts.first()?;
            let (loses, _) = *verdicts.iter().find(|(_, v)| v.wdl == Wdl::Loss)?;
            (best.wdl != Wdl::Loss).then_some(TurningPoint { board, keeps, loses })
        },
    )
}

/// The table's judgement of `board` for its side to move: `None` where it does not hold it.
fn exact(table: &Tablebase, board: Board) -> Result<Option<Verdict>, ReviewError> {
    if board.dead() >= table.kills() || !board.has_moves() {
        // The game is over: the side to move has lost, now.
        return Ok(Some(Value::Loss(0).into()));
    }
    match table.verdict(board) {
        Ok(v) => Ok(Some(v)),
        Err(TablebaseError::NoLayer(_)) => Ok(None),
        Err(e) => Err(ReviewError::Table(e)),
    }
}

/// Reviews `game` with `table` (where it holds the positions) and `estimate` (a searching
/// player's chances for the side to move, where it does not; return `None` to leave them
/// unknown).
///
/// # Errors
/// A table that fails.
pub fn review(
    game: &Game,
    table: Option<&Tablebase>,
    estimate: &mut dyn FnMut(Board) -> Option<Chances>,
) -> Result<Review, ReviewError> {
    let mut judge = |board: Board| -> Result<Judgement, ReviewError> {
        if let Some(t) = table
            && let Some(v) = exact(t, board)?
        {
            return Ok(Judgement::Exact(v));
        }
        if board.dead() >= tns_board::KILLS_TO_WIN || !board.has_moves() {
            return Ok(Judgement::Exact(Value::Loss(0).into()));
        }
        Ok(estimate(board).map_or(Judgement::Unknown, Judgement::Estimate))
    };
    let positions = game.positions();
    let mut plies = Vec::with_capacity(game.moves().len());
    let mut before = judge(game.start())?;
    for (i, &played) in game.moves().iter().enumerate() {
        let board = positions[i];
        let next = judge(positions[i + 1])?;
        let after = match next {
            Judgement::Exact(v) => Judgement::Exact(v.before()),
            Judgement::Estimate(c) => {
                Judgement::Estimate(Chances { win: c.loss, draw: c.draw, loss: c.win })
            }
            Judgement::Unknown => Judgement::Unknown,
        };
        let (mut mark, mut better, mut kept) = (None, None, None);
        if let (Judgement::Exact(b), Judgement::Exact(a), Some(t)) = (before, after, table) {
            mark = match (b.wdl, a.wdl) {
                (Wdl::Win | Wdl::Draw, Wdl::Loss) => Some(Mark::Blunder),
                (Wdl::Win, Wdl::Draw) => Some(Mark::Mistake),
                _ => None,
            };
            if let Ok(verdicts) = t.verdicts(board) {
                let keep = verdicts.iter().filter(|(_, v)| v.wdl == b.wdl).count();
                kept = Some((keep, verdicts.len()));
                if mark.is_some() {
                    better = verdicts.first().map(|&(m, _)| m);
                }
            }
        }
        plies.push(Ply { board, played, before, after, mark, better, kept });
        before = next;
    }
    Ok(Review { plies, last: before, end: game.board() })
}

impl fmt::Display for Review {
    /// The review as text: a line a ply (the move, its mark, the value before and after for its
    /// mover, the better move), then each side's first mistake and how many moves kept the
    /// value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.plies.iter().enumerate() {
            let side = p.board.side_to_move();
            let mark = p.mark.map_or("", Mark::sign);
            write!(
                f,
                "{:>5} {:<6}{mark:<2} {:<7} ",
                self.turn_label(i),
                p.played.to_string(),
                side_name(side)
            )?;
            write!(f, "{} -> {}", words(p.before, side), words(p.after, side))?;
            if let Some(better) = p.better {
                write!(f, "  (better {better})")?;
            }
            if let Some((keep, legal)) = p.kept {
                write!(f, "  [{keep} of {legal} kept it]")?;
            }
            writeln!(f)?;
        }
        for side in [Side::Sheep, Side::Tiger] {
            let moves = self.plies.iter().filter(|p| p.board.side_to_move() == side);
            let judged = moves.clone().filter(|p| p.kept.is_some()).count();
            let thrown = moves.filter(|p| p.mark.is_some()).count();
            match self.first_mistake(side) {
                Some(i) => writeln!(
                    f,
                    "{}: first mistake at move {} ({}{}); {thrown} of {judged} judged moves gave a result up",
                    side_name(side),
                    self.turn_label(i).trim_end_matches(['.', '…']),
                    self.plies[i].played,
                    self.plies[i].mark.map_or("", Mark::sign)
                )?,
                None => writeln!(f, "{}: no mistake in {judged} judged moves", side_name(side))?,
            }
        }
        Ok(())
    }
}

fn side_name(side: Side) -> &'static str {
    if side == Side::Sheep { "sheep" } else { "tigers" }
}

/// A judgement in a few words, for the side `side`.
fn words(j: Judgement, side: Side) -> String {
    match j {
        Judgement::Exact(v) => v.describe(side).to_lowercase(),
        Judgement::Estimate(c) => format!("~{}", c.describe(side)),
        Judgement::Unknown => "?".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blunder_is_marked_with_the_move_that_kept_the_result() {
        // The variant won by one kill builds in a moment.
        let table = Tablebase::build(1, None, |_| {}).unwrap();
        let TurningPoint { board: start, keeps: best, loses: losing } =
            turning_point(&table, Side::Sheep).expect("a turning point");
        let mut game = Game::from_position(start);
        game.play(losing).unwrap();
        let review = review(&game, Some(&table), &mut |_| None).unwrap();
        let ply = &review.plies[0];
        assert_eq!(ply.mark, Some(Mark::Blunder));
        assert_eq!(ply.better, Some(best));
        assert!(ply.kept.is_some_and(|(keep, legal)| keep >= 1 && keep < legal));
        assert_eq!(review.first_mistake(Side::Sheep), Some(0));
        assert_eq!(review.first_mistake(Side::Tiger), None);
        assert_eq!(review.next_mark(None), Some(0));
        assert_eq!(review.next_mark(Some(0)), Some(0), "wraps round");
        assert!(review.to_string().contains("??"), "{review}");
        assert!(review.to_string().contains("first mistake at move 1 "), "{review}");
        assert_eq!((review.turn_label(0), review.turn_label(1)), ("1.".into(), "1…".into()));
        assert_eq!(Judgement::Exact(Wdl::Draw.into()).for_sheep(Side::Tiger), Some(0.0));
        assert!(
            Judgement::Exact(Wdl::Draw.into()).for_sheep(Side::Tiger).unwrap().is_sign_positive()
        );
        let chart = review.chart();
        assert_eq!(chart.len(), 2);
        let line = review.sparkline(80);
        assert_eq!(line.len(), 2);
        assert_eq!(line[1], (1, '▁'), "the sheep lost: the lowest bar");
        assert!(chart[1].is_some_and(|v| v < 0.0), "the sheep lose after it: {chart:?}");

        // The move that kept it is not marked.
        let mut game = Game::from_position(start);
        game.play(best).unwrap();
        let review = super::review(&game, Some(&table), &mut |_| None).unwrap();
        assert_eq!(review.plies[0].mark, None);
    }
}
