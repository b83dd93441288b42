//! The generation loop: self-play, targets, training, saving, matches, the log.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use anyhow::{Context as _, bail};
use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng as _;
use rand::rngs::StdRng;
use rand::seq::SliceRandom as _;
use rayon::prelude::*;
use tns_board::Board;
use tns_match::{Budget, MatchConfig, PlayerKind, PlayerSpec, mix_seed, run_match};
use tns_nn::{Adam, Network, NeuralEvaluator, Sample, train_epoch};
use tns_search::Heuristic;

use crate::lock::RunLock;
use crate::measures::{self, Figures, Validation};
use crate::progress::{self, Row};
use crate::sampling::{self, TRAINING_SEATS, TRAP_TRAINING_SEATS};
use crate::selfplay;
use crate::settings::Settings;
use crate::state::RunState;
use crate::teacher::Teacher;

/// The path of generation `n`'s weights.
pub fn generation_path(out: &Path, n: u32) -> PathBuf {
    out.join(format!("gen-{n:03}.bin"))
}

/// The newest generation saved in `out`, if any.
pub fn newest_generation(out: &Path) -> Option<u32> {
    std::fs::read_dir(out)
        .ok()?
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_prefix("gen-")?.strip_suffix(".bin")?.parse().ok()
        })
        .max()
}

/// The newest generation a run in `out` finished: the one its state file names. The state is
/// written once a generation's weights and log are whole, so a generation is complete, and
/// visible to a resume, only then: weights without a state after them (a full disk, a kill
/// between the two) are an unfinished generation, done again to the same bits.
///
/// # Errors
/// A state file that will not load.
pub fn complete_generation(out: &Path) -> anyhow::Result<Option<u32>> {
    RunState::load_generation(&out.join("state.bin"))
}

/// Removes what a killed run left half done: temporary files of interrupted saves, and the
/// weights of generations after the last complete one. Says what it removed.
fn clean_up(out: &Path, complete: u32, log: &mut impl FnMut(&str)) -> anyhow::Result<()> {
    let entries = std::fs::read_dir(out).with_context(|| out.display().to_string())?;
    let mut removed = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let unfinished = name
            .strip_prefix("gen-")
            .and_then(|n| n.strip_suffix(".bin"))
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > complete);
        if name.contains(".tmp") || unfinished {
            std::fs::remove_file(entry.path())
                .with_context(|| entry.path().display().to_string())?;
            removed.push(name);
        }
    }
    if !removed.is_empty() {
        removed.sort();
        log(&format!(
            "removed what a stopped run left unfinished after generation {complete}: {}",
            removed.join(", ")
        ));
    }
    Ok(())
}

fn bar(len: u64, what: &str, show: bool) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{{bar:30}} {{pos}}/{{len}} {what} {{msg}}"))
    {
        bar.set_style(style);
    }
    bar
}

/// The network as a match player: alone, without the endgame built in, so that the match
/// measures what the run trains.
fn neural_spec(name: String, network: Network) -> PlayerSpec {
    PlayerSpec { endgame: false, ..PlayerSpec::new(name, PlayerKind::Neural(Arc::new(network))) }
}

/// Plays `net` against `opponent` at the match depth, both colours; returns the network's
/// score in [0, 1].
fn match_score(
    s: &Settings,
    net: &Network,
    opponent: PlayerSpec,
    seed: u64,
) -> anyhow::Result<f64> {
    let config = MatchConfig {
        games: s.match_games.div_ceil(2) * 2,
        seed,
        concurrency: rayon::current_num_threads(),
        max_plies: s.max_plies,
        defaults: Budget { time: None, depth: Some(s.match_depth), threads: 1, tt_mb: 4 },
        ..MatchConfig::new(neural_spec("network".into(), net.clone()), opponent)
    };
    let standings = run_match(&config, &AtomicBool::new(false), |_| {})?;
    Ok(standings.a_total().score().unwrap_or(0.5))
}

/// The learning rate of `generation`: from `s.learning_rate` in the first to
/// `s.final_learning_rate` in the last, geometrically. A function of the generation alone, so a
/// resumed run trains with the rates an unbroken one would.
pub fn learning_rate_at(s: &Settings, generation: u32) -> f32 {
    if s.generations <= 1 || s.final_learning_rate.to_bits() == s.learning_rate.to_bits() {
        return s.learning_rate;
    }
    let t = f64::from(generation.saturating_sub(1)) / f64::from(s.generations - 1);
    let ratio = f64::from(s.final_learning_rate) / f64::from(s.learning_rate);
    #[expect(clippy::cast_possible_truncation, reason = "a rate between two f32 rates")]
    let rate = (f64::from(s.learning_rate) * ratio.powf(t.min(1.0))) as f32;
    rate
}

/// Takes up the run in `s.out` where it stands: removes what an unfinished generation left,
/// checks (or, for a new run, records) the settings, and names the complete generation
/// `latest.bin` again (a run stopped between its state and that name left it on the one
/// before). The network to go on from, and its generation.
fn take_up(s: &Settings, log: &mut impl FnMut(&str)) -> anyhow::Result<(Network, u32)> {
    let complete = complete_generation(&s.out)?;
    clean_up(&s.out, complete.unwrap_or(0), log)?;
    crate::recorded::check_or_record(s, complete.unwrap_or(0), log)?;
    let (net, first) = starting_point(s, complete)?;
    if complete.is_some() && s.from.is_none() {
        net.save(&s.out.join("latest.bin"))?;
    }
    Ok((net, first))
}

/// Where a run starts: the network, and the number of its generation (0 for a new run).
fn starting_point(s: &Settings, complete: Option<u32>) -> anyhow::Result<(Network, u32)> {
    if let Some(from) = &s.from {
        let net = Network::load(from)?;
        return Ok((net, complete.unwrap_or(0)));
    }
    if let Some(n) = complete {
        let net = Network::load(&generation_path(&s.out, n))?;
        return Ok((net, n));
    }
    let net = Network::with_buckets(s.inputs, s.buckets, &s.hidden, s.seed)?;
    Ok((net, 0))
}

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
    let (mut net, first) = take_up(s, &mut log)?;
    if first >= s.generations {
        log(&format!(
            "{} is at generation {first} of {}: nothing to do (ask for more generations to go on)",
            s.out.display(),
            s.generations
        ));
        return Ok(net);
    }
    let state_path = s.out.join("state.bin");
    let (mut adam, mut window) = resume(s, &net, first, &state_path, &mut log)?;
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

/// What tells one network's weights from another's: the checksum of its weights file's bytes
/// before the file's own checksum (a checksum over a frame that ends in its own checksum is the
/// same for every frame).
fn weights_id(net: &Network) -> u64 {
    let bytes = net.to_bytes();
    tns_file::checksum(&bytes[..bytes.len().saturating_sub(8)])
}

/// The optimiser and training window to start with: those saved after generation `first` when
/// resuming (so the run goes on exactly), else new ones; says when a run resumes, and when an
/// option it cannot change was given.
fn resume(
    s: &Settings,
    net: &Network,
    first: u32,
    state_path: &Path,
    log: &mut impl FnMut(&str),
) -> anyhow::Result<(Adam, Vec<Vec<Sample>>)> {
    let resumed = if s.from.is_none() && first > 0 {
        RunState::load(state_path, s.learning_rate)?
            .filter(|st| st.generation == first && st.adam.state().0.len() == net.params().len())
    } else {
        None
    };
    // A state copied from another run names a generation whose weights are not these.
    if let Some(state) = &resumed
        && state.weights != weights_id(net)
    {
        bail!(
            "{} is not this run's: the weights it was saved with are not those of generation \
             {first} here (copied from another run?): train into a new folder, or remove it to \
             start this run again",
            state_path.display()
        );
    }
    if first > 0 {
        let how = if resumed.is_some() {
            ""
        } else {
            " (no saved optimiser state for it: training goes on, but not as an unbroken run would)"
        };
        log(&format!("resuming from generation {first} of {}{how}", s.generations));
        let sizes = net.sizes();
        let hidden = &sizes[1..sizes.len() - 1];
        if hidden != s.hidden.as_slice() {
            log(&format!(
                "note: --hidden {:?} does not apply to a resumed run: its network has {hidden:?}",
                s.hidden
            ));
        }
        if net.inputs() != s.inputs {
            log(&format!(
                "note: --inputs {} does not apply to a resumed run: its network has {}",
                s.inputs,
                net.inputs()
            ));
        }
        if net.buckets() != s.buckets {
            log(&format!(
                "note: --buckets {} does not apply to a resumed run: its network has {}",
                s.buckets,
                net.buckets()
            ));
        }
    }
    Ok(match resumed {
        Some(state) => (state.adam, state.window),
        None => (Adam::new(net.params().len(), s.learning_rate), Vec::new()),
    })
}

/// A generation's self-play games, with a bar that shows the generation and the run's ETA;
/// `None` when `stop` was raised meanwhile.
fn self_play(
    s: &Settings,
    net: &Network,
    generation: u32,
    eta: Option<f64>,
    stop: &AtomicBool,
) -> Option<Vec<selfplay::SelfPlayGame>> {
    let what = format!("games, generation {generation}/{}", s.generations);
    let games_bar = bar(s.games as u64, &what, s.bars);
    games_bar.set_message(eta.map_or(String::new(), |t| format!("run ETA {}", duration(t))));
    let games: Vec<Option<selfplay::SelfPlayGame>> = (0..s.games)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let seed = mix_seed(s.seed, u64::from(generation), i as u64);
            let game = selfplay::play(net, s.depth, s.epsilon, s.max_plies, seed);
            games_bar.inc(1);
            Some(game)
        })
        .collect();
    games_bar.finish_and_clear();
    games.into_iter().collect()
}

/// The network's scores against the heuristic player and against the generation last tested.
fn matches(
    s: &Settings,
    net: &Network,
    generation: u32,
    last_tested: Option<u32>,
) -> anyhow::Result<(Option<f64>, Option<f64>)> {
    let match_seed = mix_seed(s.seed, u64::from(generation), 7);
    let vs_heuristic = match_score(s, net, PlayerSpec::heuristic(), match_seed)?;
    let vs_previous = match last_tested {
        Some(previous) => {
            let old = Network::load(&generation_path(&s.out, previous))?;
            let name = format!("gen-{previous:03}");
            Some(match_score(s, net, neural_spec(name, old), match_seed)?)
        }
        None => None,
    };
    Ok((Some(vs_heuristic), vs_previous))
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

/// The seed of the held-out set of a run seeded with `seed`.
pub fn held_out_seed(seed: u64) -> u64 {
    mix_seed(seed, 0, 0xE5A1)
}

/// Distillation's teacher (the table) and the held-out set it is measured on, when the run has
/// a teacher.
fn distillation(s: &Settings, log: &mut impl FnMut(&str)) -> Option<(Teacher, Validation)> {
    s.teacher.as_ref().map(|t| {
        let teacher = Teacher::new(Arc::clone(t));
        let v = validation_set(s, &teacher);
        log(&format!(
            "held-out set: {} positions ({} critical) from {} games, never trained on",
            v.held.len(),
            v.critical().count(),
            s.validation_games
        ));
        (teacher, v)
    })
}

/// The held-out set of a distillation run with these settings: fixed by the seed.
pub fn validation_set(s: &Settings, teacher: &Teacher) -> Validation {
    Validation::build(teacher, s.validation_games, s.epsilon, s.max_plies, held_out_seed(s.seed))
}

/// Writes `progress.csv` and `progress.svg` whole.
fn write_log(out: &Path, rows: &[Row]) -> anyhow::Result<()> {
    for (name, text) in
        [("progress.csv", progress::csv(rows)), ("progress.svg", progress::svg(rows))]
    {
        let path = out.join(name);
        tns_file::write_atomically(&path, text.as_bytes())
            .with_context(|| path.display().to_string())?;
    }
    Ok(())
}

/// The log line of a generation.
fn generation_line(row: &Row, figures: Option<Figures>) -> String {
    let pct = |v: Option<f64>| v.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v));
    let exact = figures.map_or(String::new(), |f| {
        format!(
            ", validation loss {:.4}, values {:.1}%, moves {:.1}% of {} critical",
            f.loss,
            100.0 * f.values,
            100.0 * f.moves,
            f.critical
        )
    });
    format!(
        "generation {}: {} games, {} positions, loss {:.4}{exact}, vs heuristic {}, vs previous {}, {:.1} s",
        row.generation,
        row.games,
        row.positions,
        row.loss,
        pct(row.vs_heuristic),
        pct(row.vs_previous),
        row.seconds
    )
}

/// A generation's training positions from the teacher: the positions of `s.games` games
/// between players of every strength (the network among them) and `s.children` of the positions
/// one ply on from each, and `s.uniform` drawn evenly
/// from the table, each class once and none from the held-out set, valued by the table and
/// shown in a random symmetry. `None` when `stop` was raised meanwhile.
#[expect(clippy::too_many_arguments, reason = "the generation loop's state, passed as it is")]
fn distil_samples(
    s: &Settings,
    teacher: &Teacher,
    validation: &Validation,
    net: &Network,
    generation: u32,
    eta: Option<f64>,
    stop: &AtomicBool,
    rng: &mut StdRng,
) -> Option<Vec<Sample>> {
    let what = format!("games, generation {generation}/{}", s.generations);
    let games_bar = bar(s.games as u64, &what, s.bars);
    games_bar.set_message(eta.map_or(String::new(), |t| format!("run ETA {}", duration(t))));
    let network = Arc::new(net.clone());
    let games: Vec<Vec<Board>> = (0..s.games)
        .into_par_iter()
        .map(|i| {
            if stop.load(Ordering::Relaxed) {
                return Vec::new();
            }
            let seed = mix_seed(s.seed, u64::from(generation), i as u64);
            let mut positions = sampling::game_positions(
                teacher,
                if s.traps { &TRAP_TRAINING_SEATS } else { &TRAINING_SEATS },
                Some(&network),
                s.epsilon,
                s.max_plies,
                seed,
            );
            if s.children > 0 {
                let line = positions.clone();
                for (ply, board) in line.into_iter().enumerate() {
                    let seed = mix_seed(seed, ply as u64, 0xC41D);
                    positions.extend(sampling::children(teacher, board, s.children, seed));
                }
            }
            games_bar.inc(1);
            positions
        })
        .collect();
    games_bar.finish_and_clear();
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let uniform = sampling::uniform_positions(
        teacher,
        s.uniform,
        mix_seed(s.seed, u64::from(generation), u64::MAX - 1),
    );
    let boards = sampling::distinct(games.into_iter().flatten().chain(uniform), &validation.keys);
    let valued: Vec<(Board, f32)> = boards
        .into_par_iter()
        .filter_map(|b| Some((b, teacher.target_with_margin(b, teacher.value(b)?, s.margin_of(b)))))
        .collect();
    Some(
        valued
            .into_iter()
            .map(|(board, target)| Sample { board: sampling::random_image(board, rng), target })
            .collect(),
    )
}

/// The end of a distillation run: the share of the held-out critical positions where the
/// search keeps the value, with the network and with the heuristic, at depth 4 and at 0.05 s a
/// move (one thread each).
fn final_measures(s: &Settings, net: &Network, validation: &Validation) -> Vec<String> {
    measures::compare_searches(
        (&NeuralEvaluator::new(net.clone()), "with the network"),
        (&Heuristic::default(), "with the heuristic"),
        validation,
        s.final_positions,
    )
}

/// A time for people: `45 s`, `12 min`, `2.5 h`.
fn duration(seconds: f64) -> String {
    if seconds < 90.0 {
        format!("{seconds:.0} s")
    } else if seconds < 5400.0 {
        format!("{:.0} min", seconds / 60.0)
    } else {
        format!("{:.1} h", seconds / 3600.0)
    }
}
