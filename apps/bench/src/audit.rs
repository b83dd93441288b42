//! Auditing games against the solved game: every move checked for whether it worsened its
//! player's game-theoretic result (a win given up for a draw or a loss, a draw for a loss).

use std::collections::BTreeMap;
use std::fmt;

use tns_board::{GameRecord, Side};
use tns_tablebase::{Tablebase, TablebaseError, Wdl};

/// The moves of one player (one name in the records' `Sheep` and `Tiger` tags) and how many of
/// them were errors, split by phase.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerAudit {
    /// Moves made while sheep were still in hand, checked against the table.
    pub placement_moves: u64,
    /// Of those, the ones that worsened the player's result.
    pub placement_errors: u64,
    /// Moves made with every sheep placed, checked against the table.
    pub movement_moves: u64,
    /// Of those, the ones that worsened the player's result.
    pub movement_errors: u64,
    /// Moves the table could not judge (a placement layer not built).
    pub unchecked: u64,
    /// Games played.
    pub games: u64,
    /// Games in which the player made at least one error.
    pub games_with_errors: u64,
}

impl PlayerAudit {
    /// Moves checked.
    pub fn moves(&self) -> u64 {
        self.placement_moves + self.movement_moves
    }

    /// Errors made.
    pub fn errors(&self) -> u64 {
        self.placement_errors + self.movement_errors
    }
}

/// A player's first error in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstError {
    /// The game's place in the records, from 1.
    pub game: usize,
    /// The player.
    pub player: String,
    /// The side it played.
    pub side: Side,
    /// The ply of the move, from 1.
    pub ply: usize,
    /// The move.
    pub mv: String,
    /// The result before the move, and after it, for the player.
    pub from: Wdl,
    /// The result after it.
    pub to: Wdl,
}

/// What [`audit`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Audit {
    /// By player name.
    pub players: BTreeMap<String, PlayerAudit>,
    /// Each player's first error in each game where it made one, in game order.
    pub first_errors: Vec<FirstError>,
    /// Games audited.
    pub games: usize,
}

/// Checks every move of `records` against `table`: a move is an error when the position's value
/// for the player to move (win, draw or loss) is better than the value after the move. The first
/// plies a record's `Opening` tag names (the match runner's random opening) are nobody's and
/// are skipped. Moves in positions the table does not hold are counted as unchecked; a game's
/// audit stops where it is won by kills under the table's rules.
///
/// # Errors
/// A table file that is damaged or cannot be read: no audit from a table that cannot be
/// trusted.
pub fn audit(records: &[GameRecord], table: &Tablebase) -> Result<Audit, TablebaseError> {
    let mut out = Audit { games: records.len(), ..Audit::default() };
    for (g, record) in records.iter().enumerate() {
        let names = [Side::Sheep, Side::Tiger].map(|side| {
            let tag = if side == Side::Sheep { "Sheep" } else { "Tiger" };
            record.tag(tag).unwrap_or("?").to_owned()
        });
        let mut erred = [false; 2];
        for name in &names {
            out.players.entry(name.clone()).or_default().games += 1;
        }
        let opening = record.tag("Opening").and_then(|n| n.parse::<usize>().ok()).unwrap_or(0);
        let mut board = record.start;
        for (i, &m) in record.moves.iter().enumerate() {
            if board.dead() >= table.kills() {
                break;
            }
            if i < opening {
                board = board.after_unchecked(m);
                continue;
            }
            let side = board.side_to_move();
            let seat = side as usize;
            let child = board.after_unchecked(m);
            let after = if child.dead() >= table.kills() {
                Some(Wdl::Win)
            } else {
                held(table.wdl(child))?.map(Wdl::before)
            };
            let stats = out.players.entry(names[seat].clone()).or_default();
            match (held(table.wdl(board))?, after) {
                (Some(before), Some(after)) => {
                    let error = after < before;
                    let placement = board.in_hand() > 0;
                    let (moves, errors) = if placement {
                        (&mut stats.placement_moves, &mut stats.placement_errors)
                    } else {
                        (&mut stats.movement_moves, &mut stats.movement_errors)
                    };
                    *moves += 1;
                    if error {
                        *errors += 1;
                        if !erred[seat] {
                            erred[seat] = true;
                            stats.games_with_errors += 1;
                            out.first_errors.push(FirstError {
                                game: g + 1,
                                player: names[seat].clone(),
                                side,
                                ply: i + 1,
                                mv: m.to_string(),
                                from: before,
                                to: after,
                            });
                        }
                    }
                }
                _ => stats.unchecked += 1,
            }
            board = child;
        }
    }
    Ok(out)
}

/// A probe's value, `None` where the table does not hold the position (a layer not built);
/// any other failure is an error.
fn held(probe: Result<Wdl, TablebaseError>) -> Result<Option<Wdl>, TablebaseError> {
    match probe {
        Ok(wdl) => Ok(Some(wdl)),
        Err(TablebaseError::NoLayer(_) | TablebaseError::GameOver(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

#[expect(
    clippy::cast_precision_loss,
    reason = "counts of moves, far below 2^52, so exact in an f64"
)]
fn rate(errors: u64, moves: u64) -> String {
    if moves == 0 { "-".into() } else { format!("{:.2}%", 100.0 * errors as f64 / moves as f64) }
}

impl fmt::Display for Audit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{:<28} {:>7} {:>7} {:>8} | {:>9} {:>7} {:>8} | {:>8} {:>6} {:>10}",
            "player",
            "placing",
            "errors",
            "rate",
            "movement",
            "errors",
            "rate",
            "all",
            "games",
            "went wrong"
        )?;
        for (name, p) in &self.players {
            writeln!(
                f,
                "{:<28} {:>7} {:>7} {:>8} | {:>9} {:>7} {:>8} | {:>8} {:>6} {:>10}",
                name,
                p.placement_moves,
                p.placement_errors,
                rate(p.placement_errors, p.placement_moves),
                p.movement_moves,
                p.movement_errors,
                rate(p.movement_errors, p.movement_moves),
                rate(p.errors(), p.moves()),
                p.games,
                p.games_with_errors
            )?;
            if p.unchecked > 0 {
                writeln!(f, "{:<28} ({} moves the table could not judge)", "", p.unchecked)?;
            }
        }
        if !self.first_errors.is_empty() {
            writeln!(f, "\nfirst errors (game, player, ply, move, result before -> after):")?;
            for e in &self.first_errors {
                writeln!(
                    f,
                    "  game {:>4}  {:<28} ply {:>3}  {:6} {} -> {}",
                    e.game,
                    format!("{} ({})", e.player, e.side.plural().to_lowercase()),
                    e.ply,
                    e.mv,
                    e.from,
                    e.to
                )?;
            }
        }
        Ok(())
    }
}
