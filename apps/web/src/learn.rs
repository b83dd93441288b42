//! The routes that teach from the solved game: a puzzle near a rating (and the rating moved by
//! the last one), and the review of a game.

use std::ops::RangeInclusive;
use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;
use serde::{Deserialize, Deserializer, Serialize};
use tns_board::Move;
use tns_puzzles::{Judgement, MIN_DEVIATION, Progress, Puzzle, Rating, START};

use crate::analysis::API_VERSION;
use crate::api::{AppState, Slot, json, off_thread};
use crate::error::ApiError;
use crate::query::{GameQuery, Params, game, within};

#[derive(Serialize)]
struct RatingJson {
    rating: f64,
    deviation: f64,
    volatility: f64,
}

#[derive(Serialize)]
struct PuzzleJson {
    /// Its place in the set, from 1.
    number: usize,
    position: String,
    solutions: Vec<String>,
    value: String,
    rating: u16,
    themes: Vec<&'static str>,
    line: Vec<String>,
}

#[derive(Serialize)]
struct PuzzleAnswer {
    api: u32,
    /// The solver's rating, moved by `after` where it was given.
    solver: RatingJson,
    puzzle: PuzzleJson,
}

/// The ranges a solver's rating is kept within (a rating moved by a puzzle included, by
/// [`Rating::after_puzzle`]): a value given outside them is refused, never moved into them.
const RATING: RangeInclusive<f64> = 100.0..=4000.0;
/// The deviation's range: from [`MIN_DEVIATION`] to the start's.
const DEVIATION: RangeInclusive<f64> = MIN_DEVIATION..=START.deviation;
/// The volatility's range.
const VOLATILITY: RangeInclusive<f64> = 0.01..=0.2;

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// The parameters of `puzzle`, every one optional.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PuzzleQuery {
    #[serde(default, deserialize_with = "rating")]
    rating: Option<f64>,
    #[serde(default, deserialize_with = "deviation")]
    deviation: Option<f64>,
    #[serde(default, deserialize_with = "volatility")]
    volatility: Option<f64>,
    /// The number of the puzzle just tried (from 1); checked against the set by the handler.
    #[serde(default, deserialize_with = "after")]
    after: Option<usize>,
    #[serde(default, deserialize_with = "solved")]
    solved: Option<bool>,
    #[serde(default, deserialize_with = "seed")]
    seed: Option<u64>,
}

/// A number within `range`, refused with the range for anything outside it.
fn number<'de, D: Deserializer<'de>>(
    d: D,
    range: &RangeInclusive<f64>,
) -> Result<Option<f64>, D::Error> {
    within(d, range, &format!("a number from {} to {}", range.start(), range.end())).map(Some)
}

fn rating<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    number(d, &RATING)
}

fn deviation<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    number(d, &DEVIATION)
}

fn volatility<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    number(d, &VOLATILITY)
}

fn after<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    within(d, &(1..=usize::MAX), "a puzzle's number").map(Some)
}

fn solved<'de, D: Deserializer<'de>>(d: D) -> Result<Option<bool>, D::Error> {
    within(d, &(false..=true), "true or false").map(Some)
}

fn seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    within(d, &(0..=u64::MAX), "a whole number").map(Some)
}

/// `/api/v1/puzzle?rating=R[&deviation=D&volatility=V][&after=N&solved=true|false][&seed=S]`:
/// a puzzle near the solver's rating (drawn by `seed` from the nearest, and never puzzle
/// `after` again), and the rating moved by puzzle `after` solved or not (Glicko-2, as the game
/// keeps it).
pub async fn puzzle(
    State(state): State<Arc<AppState>>,
    Params(query): Params<PuzzleQuery>,
) -> Result<Response, ApiError> {
    let set: &[Puzzle] = state.puzzles.as_deref().map_err(|e| {
        ApiError::internal("the puzzle set", anyhow::anyhow!(tns_file::one_line(e)))
    })?;
    let mut solver = Rating {
        rating: query.rating.unwrap_or(START.rating),
        deviation: query.deviation.unwrap_or(START.deviation),
        volatility: query.volatility.unwrap_or(START.volatility),
    };
    let mut progress = Progress::default();
    match (query.after, query.solved) {
        (Some(after), Some(was_solved)) => {
            if after > set.len() {
                return Err(ApiError::parameter(
                    "after",
                    format!("must be a puzzle's number, 1 to {}, not \"{after}\"", set.len()),
                ));
            }
            progress.rating = solver;
            progress.record(after - 1, set[after - 1].rating, was_solved);
            solver = progress.rating;
        }
        (Some(_), None) => {
            return Err(ApiError::parameter("after", "needs solved=true or solved=false"));
        }
        (None, Some(_)) => {
            return Err(ApiError::parameter("solved", "goes with after, the puzzle it is about"));
        }
        (None, None) => {}
    }
    progress.rating = solver;
    let index = progress.next(set, query.seed.unwrap_or(0)).ok_or(ApiError::NoPuzzles)?;
    let p = &set[index];
    let answer = PuzzleAnswer {
        api: API_VERSION,
        solver: RatingJson {
            rating: solver.rating,
            deviation: solver.deviation,
            volatility: solver.volatility,
        },
        puzzle: PuzzleJson {
            number: index + 1,
            position: p.position.to_string(),
            solutions: names(&p.solutions),
            value: p.value.to_string(),
            rating: p.rating,
            themes: p.themes.iter().map(|t| t.name()).collect(),
            line: names(&p.line),
        },
    };
    Ok(json(&answer, false))
}

#[derive(Serialize)]
struct PlyJson {
    #[serde(rename = "move")]
    mv: String,
    /// `??` (a result thrown to a loss), `?` (a win to a draw), or none.
    mark: Option<&'static str>,
    /// A move that kept the result, where the move was marked.
    better: Option<String>,
    /// Moves that kept the result, and legal moves, where the table judged it.
    kept: Option<(usize, usize)>,
}

#[derive(Serialize)]
struct ReviewAnswer {
    api: u32,
    plies: Vec<PlyJson>,
    /// The value for the sheep from -1 (the tigers win) to 1 before each ply and after the
    /// last: the table's where it holds the position, else null.
    values: Vec<Option<f64>>,
}

/// `/api/v1/review?pos=P&moves=M`: the game's value along its plies from the table, and the
/// moves that threw a result away.
pub async fn review(
    State(state): State<Arc<AppState>>,
    Params(query): Params<GameQuery>,
) -> Result<Response, ApiError> {
    let game = game(query.pos.as_deref(), query.moves.as_deref())?;
    let answer = off_thread(&state, Slot::Lookup, move |s, _stop| {
        let table = s.analyst.table.as_deref();
        let review = tns_puzzles::review(&game, table, &mut |_| None)
            .map_err(|e| ApiError::internal("the review failed", e))?;
        let plies = review
            .plies
            .iter()
            .map(|p| PlyJson {
                mv: p.played.to_string(),
                mark: p.mark.map(tns_puzzles::Mark::sign),
                better: p.better.map(|m| m.to_string()),
                kept: p.kept,
            })
            .collect();
        // Only exact values: an estimate would need a search a ply.
        let values = review
            .plies
            .iter()
            .map(|p| (p.before, p.board))
            .chain(std::iter::once((review.last, review.end)))
            .map(|(j, b)| {
                matches!(j, Judgement::Exact(_)).then(|| j.for_sheep(b.side_to_move())).flatten()
            })
            .collect();
        Ok(ReviewAnswer { api: API_VERSION, plies, values })
    })
    .await?;
    Ok(json(&answer, state.analyst.table.is_some()))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use axum::response::IntoResponse;

    use super::*;
    use crate::{Analyst, RequestLimits, SearchBudget};

    #[tokio::test]
    async fn a_damaged_puzzle_set_is_a_500_that_does_not_say_why() {
        let analyst = Analyst {
            table: None,
            budget: SearchBudget { position: Duration::ZERO, per_move: Duration::ZERO },
        };
        let limits = RequestLimits {
            max_move_time: Duration::from_millis(10),
            max_line_time: Duration::from_millis(10),
            searches: 1,
        };
        let mut state = AppState::new(analyst, limits);
        state.puzzles = tns_puzzles::parse("not a puzzle at all");
        let why = tns_file::one_line(state.puzzles.as_ref().unwrap_err());
        let error =
            puzzle(State(Arc::new(state)), Params(PuzzleQuery::default())).await.unwrap_err();
        assert!(matches!(error, ApiError::Internal(_)), "{error:?}");
        let response = error.into_response();
        assert_eq!(response.status(), 500);
        let body = axum::body::to_bytes(response.into_body(), 4096).await.unwrap();
        assert_eq!(&body[..], br#"{"error":"internal error"}"#);
        assert!(!String::from_utf8_lossy(&body).contains(&why), "{why}");
    }
}
