//! The routes that teach from the solved game: a puzzle near a rating (and the rating moved by
//! the last one), and the review of a game.

use std::ops::RangeInclusive;
use std::sync::Arc;

use axum::extract::{RawQuery, State};
use axum::response::Response;
use serde::Serialize;
use tns_board::Move;
use tns_puzzles::{Judgement, MIN_DEVIATION, Progress, Puzzle, Rating, START};

use crate::analysis::API_VERSION;
use crate::api::{AppState, Slot, json, off_thread, parse};
use crate::error::ApiError;
use crate::query::{Query, short};

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

/// The number `key` gives, if it is given: a 400 naming the range for anything outside it.
fn number(query: &Query, key: &str, range: RangeInclusive<f64>) -> Result<Option<f64>, ApiError> {
    let Some(text) = query.get(key) else { return Ok(None) };
    text.parse::<f64>().ok().filter(|x| range.contains(x)).map(Some).ok_or_else(|| {
        ApiError::bad(format!(
            "{key} must be a number from {} to {}, not {:?}",
            range.start(),
            range.end(),
            short(text)
        ))
    })
}

/// `/api/v1/puzzle?rating=R[&deviation=D&volatility=V][&after=N&solved=true|false][&seed=S]`:
/// a puzzle near the solver's rating (drawn by `seed` from the nearest, and never puzzle
/// `after` again), and the rating moved by puzzle `after` solved or not (Glicko-2, as the game
/// keeps it).
pub async fn puzzle(
    State(state): State<Arc<AppState>>,
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let query = Query::parse(raw.as_deref().unwrap_or(""))?;
    query.only(&["rating", "deviation", "volatility", "after", "solved", "seed"])?;
    let set: &[Puzzle] = state
        .puzzles
        .as_deref()
        .map_err(|e| ApiError::internal(format!("the puzzle set: {}", tns_file::one_line(e))))?;
    let mut solver = Rating {
        rating: number(&query, "rating", RATING)?.unwrap_or(START.rating),
        deviation: number(&query, "deviation", DEVIATION)?.unwrap_or(START.deviation),
        volatility: number(&query, "volatility", VOLATILITY)?.unwrap_or(START.volatility),
    };
    let mut progress = Progress::default();
    if let Some(after) = query.get("after") {
        let index =
            after.parse::<usize>().ok().filter(|n| (1..=set.len()).contains(n)).ok_or_else(
                || {
                    ApiError::bad(format!(
                        "after must be a puzzle's number, 1 to {}, not {:?}",
                        set.len(),
                        short(after)
                    ))
                },
            )? - 1;
        let was_solved = match query.get("solved") {
            Some("true") => true,
            Some("false") => false,
            Some(other) => {
                return Err(ApiError::bad(format!(
                    "solved must be true or false, not {:?}",
                    short(other)
                )));
            }
            None => return Err(ApiError::bad("after needs solved=true or solved=false")),
        };
        progress.rating = solver;
        progress.record(index, set[index].rating, was_solved);
        solver = progress.rating;
    } else if query.get("solved").is_some() {
        return Err(ApiError::bad("solved goes with after, the puzzle it is about"));
    }
    progress.rating = solver;
    let seed = match query.get("seed") {
        None => 0,
        Some(s) => s.parse::<u64>().map_err(|_| {
            ApiError::bad(format!("seed must be a whole number, not {:?}", short(s)))
        })?,
    };
    let index = progress
        .next(set, seed)
        .ok_or_else(|| ApiError::unavailable("the server has no puzzles"))?;
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
    RawQuery(raw): RawQuery,
) -> Result<Response, ApiError> {
    let (_, game) = parse(raw.as_deref(), &["pos", "moves"])?;
    let answer = off_thread(&state, Slot::Lookup, move |s, _stop| {
        let table = s.analyst.table.as_deref();
        let review = tns_puzzles::review(&game, table, &mut |_| None)
            .map_err(|e| ApiError::internal(tns_file::one_line(&e)))?;
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
