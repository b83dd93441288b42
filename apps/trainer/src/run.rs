//! The generation loop: self-play or the teacher's positions, training, saving, matches, the log.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context as _, bail};
use rand::SeedableRng as _;
use rand::rngs::StdRng;
use rand::seq::SliceRandom as _;
use tns_match::mix_seed;
use tns_nn::{Adam, Network, Sample, train_epoch};

use crate::bars::bar;
use crate::held_out::{distillation, final_measures};
use crate::layout::generation_path;
use crate::lock::RunLock;
use crate::matches::matches;
use crate::measures;
use crate::progress::{self, Row};
use crate::resume::{resume, take_up, weights_id};
use crate::run_log::{generation_line, write_log};
use crate::samples::{distil_samples, self_play};
use crate::selfplay;
use crate::settings::Settings;
use crate::state::RunState;

pub use crate::schedule::learning_rate_at;

/// Trains up to generation `s.generations` (a total), continuing from the newest generation in
/// `s.out` (or from `s.from`): running the same settings again after a stop finishes the run,
/// and, with the optimiser and the training window restored from `state.bin`, ends with the
/// very network an unbroken run would have. Each generation's weights and state are saved
/// before the next begins, so a killed run loses at most the generation in progress. Raising
/// `stop` ends the run between generations (a generation under way is dropped). `log` gets a
/// line per generation, and says when a run resumes or stops.
///
/// # Errors
/// A message for a weights or state file that will not load or a file that cannot be written.
pub fn train(
    s: &Settings,
    stop: &AtomicBool,
    mut log: impl FnMut(&str),
) -> anyhow::Result<Network> {
    std::fs::create_dir_all(&s.out).with_context(|| s.out.display().to_string())?;
    let _lock = RunLock::take(&s.out)?;
    let (mut net, first, state) = take_up(s, &mut log)?;
    if first >= s.generations {
        log(&format!(
            "{} is at generation {first} of {}: nothing to do (ask for more generations to go on)",
            s.out.display(),
            s.generations
        ));
        return Ok(net);
    }
    let state_path = s.out.join("state.bin");
    let (mut adam, mut window) = resume(s, &net, first, state, &mut log);
    let mut rows = progress::read(&s.out.join("progress.csv"))?;
    rows.retain(|r| r.generation <= first);
    let distil = distillation(s, &mut log);
    // A table that failed to answer stops the run, with its error.
    let table_ok = || distil.as_ref().map_or(Ok(()), |(t, _)| t.check());
    table_ok()?;
    let mut last_tested =
        rows.iter().rev().find(|r| r.vs_heuristic.is_some()).map(|r| r.generation);
    let run_start = Instant::now();
    let mut saved = first;
    for generation in first + 1..=s.generations {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let start = Instant::now();
        let done = generation - first - 1;
        let eta = (done > 0).then(|| {
            let per = run_start.elapsed().as_secs_f64() / f64::from(done);
            per * f64::from(s.generations - generation + 1)
        });
        let mut rng = StdRng::seed_from_u64(mix_seed(s.seed, u64::from(generation), u64::MAX));
        let fresh = match &distil {
            Some((teacher, validation)) => {
                distil_samples(s, teacher, validation, &net, generation, eta, stop, &mut rng)
            }
            None => self_play(s, &net, generation, eta, stop).map(|games| {
                games.iter().flat_map(|g| selfplay::samples(g, s.lambda, &mut rng)).collect()
            }),
        };
        table_ok()?;
        let Some(fresh) = fresh else { break };
        window.push(fresh);
        if window.len() > s.window.max(1) {
            window.remove(0);
        }
        let mut data: Vec<Sample> = window.iter().flatten().copied().collect();
        adam.learning_rate = learning_rate_at(s, generation);
        let loss = fit(s, &mut net, &mut adam, &mut data, &mut rng, generation, saved)?;
        net.save(&generation_path(&s.out, generation))?;
        let figures = distil.as_ref().map(|(t, v)| measures::figures(&net, t, v));
        table_ok()?;

        let (mut vs_heuristic, mut vs_previous) = (None, None);
        if s.match_every > 0 && generation % s.match_every == 0 {
            (vs_heuristic, vs_previous) = matches(s, &net, generation, last_tested)?;
            last_tested = Some(generation);
        }
        let row = Row {
            generation,
            games: s.games,
            positions: window.last().map_or(0, Vec::len),
            loss,
            validation_loss: figures.map(|f| f.loss),
            value_accuracy: figures.map(|f| f.values),
            move_accuracy: figures.map(|f| f.moves),
            vs_heuristic,
            vs_previous,
            seconds: start.elapsed().as_secs_f64(),
        };
        log(&generation_line(&row, figures));
        rows.push(row);
        write_log(&s.out, &rows)?;
        // Last of all the state, which names the generation complete: a run stopped before
        // this line does the generation again, to the same bits.
        let weights = weights_id(&net);
        RunState { generation, weights, adam: adam.clone(), window: window.clone() }
            .save(&state_path)?;
        saved = generation;
        // Then the name the complete generation is known by.
        net.save(&s.out.join("latest.bin"))?;
    }
    if saved == s.generations
        && let Some((_, v)) = &distil
    {
        if s.final_positions == 0 || v.critical().next().is_none() {
            log(
                "no search measured at the end: --final-positions 0, or no critical position held out",
            );
        } else {
            for line in final_measures(s, &net, v) {
                log(&line);
            }
        }
    }
    if saved < s.generations {
        log(&format!(
            "stopped: generation {saved} of {} is saved in {}; the same command goes on from there",
            s.generations,
            s.out.display()
        ));
    }
    Ok(net)
}

/// A generation's epochs over `data`, shuffled before each; the last epoch's loss.
///
/// # Errors
/// A loss or a weight that is not a finite number: the run stops, and nothing of the
/// generation is saved.
fn fit(
    s: &Settings,
    net: &mut Network,
    adam: &mut Adam,
    data: &mut [Sample],
    rng: &mut StdRng,
    generation: u32,
    saved: u32,
) -> anyhow::Result<f32> {
    let epochs_bar = bar(u64::from(s.epochs), &format!("epochs, generation {generation}"), s.bars);
    let mut loss = 0.0;
    for epoch in 1..=s.epochs {
        data.shuffle(rng);
        loss = train_epoch(net, adam, data, s.batch, s.objective);
        if !loss.is_finite() || net.params().iter().any(|p| !p.is_finite()) {
            bail!(
                "training diverged in generation {generation}, epoch {epoch} (loss {loss}): \
                 nothing of this generation is saved; generation {saved} is the last good one \
                 (try a smaller --learning-rate, or other starting weights)"
            );
        }
        epochs_bar.set_message(format!("loss {loss:.4}"));
        epochs_bar.inc(1);
    }
    epochs_bar.finish_and_clear();
    Ok(loss)
}
