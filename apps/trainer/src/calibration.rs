//! The chances an evaluator's scores stand for, fitted on positions of games whose results the
//! table knows, and measured on the held-out set: how close the chances are to how often each
//! result comes (the expected calibration error) and how often the likeliest is the table's.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use rayon::prelude::*;
use tns_board::Board;
use tns_search::{
    Chances, Evaluator, Limits, Reading, Score, Search, SearchConfig, Wdl, WdlModel, WdlSample,
};

use crate::measures::{Held, Validation};

/// The bins of a reliability diagram and of the calibration error: tenths of the chance.
pub const BINS: usize = 10; // the bin of a chance p is p × 10, below

/// The phases the measures are given for: the placement and the movement.
pub const PHASE_NAMES: [&str; 2] = ["placement", "movement"];

/// The phase a position's measures count in.
fn phase(board: Board) -> usize {
    usize::from(board.in_hand() == 0)
}

/// The samples of a set: each position's score by `evaluator` and its value.
pub fn samples<E: Evaluator>(evaluator: &E, validation: &Validation) -> Vec<WdlSample> {
    validation
        .held
        .par_iter()
        .map(|h| WdlSample {
            board: h.board,
            score: Score::from_eval(evaluator.evaluate(h.board)),
            result: h.value,
        })
        .collect()
}

/// What one phase's positions say of the chances given them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reliability {
    /// Positions counted.
    pub positions: usize,
    /// Positions whose likeliest result is the table's.
    pub likeliest_right: usize,
    /// For each result (loss, draw, win) and bin of its chance: the positions, the sum of the
    /// chances given, and how many had that result.
    pub bins: [[(usize, f64, usize); BINS]; 3],
}

impl Reliability {
    /// Counts a position given `chances` whose result is `result`.
    pub fn add(&mut self, chances: Chances, result: Wdl) {
        self.positions += 1;
        if chances.likeliest() == result {
            self.likeliest_right += 1;
        }
        for wdl in Wdl::ALL {
            let p = f64::from(chances.of(wdl)) / 1000.0;
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss, reason = "0 to 9")]
            let bin = ((p * 10.0) as usize).min(BINS - 1);
            let cell = &mut self.bins[wdl as usize][bin];
            cell.0 += 1;
            cell.1 += p;
            cell.2 += usize::from(result == wdl);
        }
    }

    /// The expected calibration error of `wdl`'s chance: over the bins, weighted by their
    /// positions, how far the mean chance given is from the share that had the result.
    #[must_use]
    pub fn error(&self, wdl: Wdl) -> f64 {
        if self.positions == 0 {
            return 0.0;
        }
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let sum: f64 = self.bins[wdl as usize]
            .iter()
            .filter(|c| c.0 > 0)
            .map(|&(_, given, had)| (given - had as f64).abs())
            .sum();
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let error = sum / self.positions as f64;
        error
    }

    /// The share of positions whose likeliest result is the table's.
    #[must_use]
    pub fn accuracy(&self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let share = self.likeliest_right as f64 / self.positions.max(1) as f64;
        share
    }

    /// The bins of `wdl`'s chance, one line each: "0.1-0.2: 311 positions, given 14.2%, had
    /// 12.9%".
    #[must_use]
    pub fn bin_lines(&self, wdl: Wdl) -> Vec<String> {
        #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
        let line = |b: usize, &(n, given, had): &(usize, f64, usize)| {
            format!(
                "{wdl} {:.1}-{:.1}: {n} positions, given {:.1}%, had {:.1}%",
                b as f64 / 10.0,
                (b + 1) as f64 / 10.0,
                100.0 * given / n as f64,
                100.0 * had as f64 / n as f64
            )
        };
        self.bins[wdl as usize]
            .iter()
            .enumerate()
            .filter(|(_, c)| c.0 > 0)
            .map(|(b, c)| line(b, c))
            .collect()
    }

    /// "placement: 4,211 positions, calibration error win 1.2% draw 2.0% loss 0.9%, likeliest
    /// right in 93.1%".
    #[must_use]
    pub fn line(&self, name: &str) -> String {
        format!(
            "{name}: {} positions, calibration error win {:.1}% draw {:.1}% loss {:.1}%, likeliest right in {:.1}%",
            self.positions,
            100.0 * self.error(Wdl::Win),
            100.0 * self.error(Wdl::Draw),
            100.0 * self.error(Wdl::Loss),
            100.0 * self.accuracy()
        )
    }
}

/// The reliability of `chances` given to each position of `validation`, in each phase.
pub fn reliability(
    validation: &Validation,
    chances: impl Fn(Board) -> Chances + Sync,
) -> [Reliability; 2] {
    let given: Vec<(Board, Chances, Wdl)> =
        validation.held.par_iter().map(|h| (h.board, chances(h.board), h.value)).collect();
    tally(given)
}

/// Each position's root score by a search with `evaluator` at `limits` (one thread, from no
/// history, an 8 MiB table), its value, and the chances the search gave; a position the search
/// could not score (none here: every held position has a move) is left out.
///
/// # Panics
/// Only on a machine without the memory for an 8 MiB table.
pub fn search_samples<E: Evaluator + Clone + Send + Sync>(
    evaluator: &E,
    held: &[Held],
    limits: &Limits,
) -> Vec<(WdlSample, Chances)> {
    let stop = AtomicBool::new(false);
    let config = SearchConfig::default().with_threads(1).with_tt_mb(8);
    held.par_iter()
        .map_init(
            || Search::new(evaluator.clone(), config).expect("an 8 MiB one-thread search"),
            |search, held| {
                search.clear();
                search.search(held.board, &[], limits.clone(), &stop, |_| {}).ok().map(|r| {
                    (WdlSample { board: held.board, score: r.score, result: held.value }, r.chances)
                })
            },
        )
        .flatten()
        .collect()
}

/// The reliability of the chances given to positions, in each phase.
pub fn tally(given: impl IntoIterator<Item = (Board, Chances, Wdl)>) -> [Reliability; 2] {
    let mut phases = [Reliability::default(), Reliability::default()];
    for (board, chances, result) in given {
        phases[phase(board)].add(chances, result);
    }
    phases
}

/// The chances a search of each position with `evaluator` at `limits` reports
/// ([`search_samples`]).
///
/// # Panics
/// Only on a machine without the memory for an 8 MiB table.
pub fn search_reliability<E: Evaluator + Clone + Send + Sync>(
    evaluator: &E,
    validation: &Validation,
    limits: &Limits,
) -> [Reliability; 2] {
    tally(
        search_samples(evaluator, &validation.held, limits)
            .into_iter()
            .map(|(s, chances)| (s.board, chances, s.result)),
    )
}

/// How far a search's root score moves from one depth to the next: for each position, each
/// pair of consecutive depths from 4 to `deepest` whose scores are both not forced results, the
/// change as a share of a certain win (`certain`, the evaluator's score of one).
///
/// # Panics
/// Only on a machine without the memory for an 8 MiB table.
pub fn swings<E: Evaluator + Clone + Send + Sync>(
    evaluator: &E,
    positions: &[Board],
    deepest: u32,
    certain: f64,
) -> Vec<f64> {
    let stop = AtomicBool::new(false);
    let config = SearchConfig::default().with_threads(1).with_tt_mb(8);
    positions
        .par_iter()
        .map_init(
            || Search::new(evaluator.clone(), config).expect("an 8 MiB one-thread search"),
            |search, &board| {
                search.clear();
                let mut scores: Vec<(u32, Score)> = Vec::new();
                let _ = search.search(board, &[], Limits::depth(deepest), &stop, |r| {
                    if !r.lower_bound && r.multipv == 1 {
                        scores.push((r.depth, r.score));
                    }
                });
                scores
                    .windows(2)
                    .filter(|w| w[1].0 >= 4 && w[1].0 == w[0].0 + 1)
                    .filter(|w| !w[0].1.is_decisive() && !w[1].1.is_decisive())
                    .map(|w| {
                        f64::from((w[1].1.as_eval().get() - w[0].1.as_eval().get()).abs()) / certain
                    })
                    .collect::<Vec<f64>>()
            },
        )
        .flatten()
        .collect()
}

/// The median and the 90th percentile of `values` (0 for none).
#[must_use]
pub fn median_and_p90(values: &[f64]) -> (f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| {
        #[expect(
            clippy::cast_precision_loss,
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "an index within the length"
        )]
        let i = ((sorted.len().saturating_sub(1)) as f64 * q).round() as usize;
        sorted.get(i).copied().unwrap_or(0.0)
    };
    (at(0.5), at(0.9))
}

/// The model fitted on `fit` (scores read as `reading`), with the prior's weight the trainer
/// uses.
#[must_use]
pub fn fit(fit: &[WdlSample], reading: Reading) -> WdlModel {
    WdlModel::fit(fit, reading, 50.0)
}

/// A reliability diagram of each phase: for each result, the share that had it against the
/// mean chance given, bin by bin, beside the diagonal of perfect calibration. SVG.
#[must_use]
pub fn diagram(title: &str, phases: &[Reliability; 2]) -> String {
    const SIZE: f64 = 220.0;
    const PAD: f64 = 40.0;
    let colours = [("loss", "#c0392b"), ("draw", "#2c7fb8"), ("win", "#27ae60")];
    let width = 2.0 * (SIZE + 2.0 * PAD);
    let height = SIZE + 2.0 * PAD + 30.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{}\" y=\"16\" text-anchor=\"middle\" font-size=\"13\">{title}</text>\n",
        width / 2.0
    );
    for (p, (r, name)) in phases.iter().zip(PHASE_NAMES).enumerate() {
        #[expect(clippy::cast_precision_loss, reason = "0 or 1")]
        let x0 = PAD + p as f64 * (SIZE + 2.0 * PAD);
        let y0 = PAD + 10.0;
        let at = |cx: f64, cy: f64| (x0 + cx * SIZE, y0 + SIZE - cy * SIZE);
        let _ = writeln!(
            svg,
            "<rect x=\"{x0}\" y=\"{y0}\" width=\"{SIZE}\" height=\"{SIZE}\" fill=\"none\" stroke=\"#888\"/>\n\
             <line x1=\"{x0}\" y1=\"{}\" x2=\"{}\" y2=\"{y0}\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{name}: chance given</text>\n\
             <text x=\"{}\" y=\"{}\" text-anchor=\"middle\" transform=\"rotate(-90 {} {})\">share that had it</text>",
            y0 + SIZE,
            x0 + SIZE,
            x0 + SIZE / 2.0,
            y0 + SIZE + 28.0,
            x0 - 12.0,
            y0 + SIZE / 2.0,
            x0 - 12.0,
            y0 + SIZE / 2.0,
        );
        for (k, (label, colour)) in colours.iter().enumerate() {
            let points: Vec<(f64, f64)> = r.bins[k]
                .iter()
                .filter(|c| c.0 > 0)
                .map(|&(n, given, had)| {
                    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
                    let n = n as f64;
                    #[expect(clippy::cast_precision_loss, reason = "counts far below 2^52")]
                    let had = had as f64;
                    at(given / n, had / n)
                })
                .collect();
            let line: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = writeln!(
                svg,
                "<polyline points=\"{}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\"/>",
                line.join(" ")
            );
            for (x, y) in &points {
                let _ = writeln!(
                    svg,
                    "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.5\" fill=\"{colour}\"/>"
                );
            }
            #[expect(clippy::cast_precision_loss, reason = "0 to 2")]
            let ly = y0 + 14.0 + 14.0 * k as f64;
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{ly}\" fill=\"{colour}\">{label} (error {:.1}%)</text>",
                x0 + 8.0,
                100.0 * r.error(Wdl::ALL[k])
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_reading_has_no_error_and_a_wrong_one_has() {
        let mut right = Reliability::default();
        let mut wrong = Reliability::default();
        for (i, wdl) in Wdl::ALL.into_iter().cycle().take(300).enumerate() {
            right.add(Chances::certain(wdl), wdl);
            // Always sure of a win, right a third of the time.
            wrong.add(Chances::certain(Wdl::Win), Wdl::ALL[i % 3]);
        }
        for wdl in Wdl::ALL {
            assert!(right.error(wdl) < 1e-12);
        }
        assert!((right.accuracy() - 1.0).abs() < 1e-12);
        assert!((wrong.error(Wdl::Win) - 2.0 / 3.0).abs() < 1e-9);
        assert!((wrong.accuracy() - 1.0 / 3.0).abs() < 1e-9);
        let svg = diagram("t", &[right, wrong]);
        assert!(svg.starts_with("<svg") && svg.contains("polyline") && svg.ends_with("</svg>\n"));
    }
}
