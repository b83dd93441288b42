//! The generation loop: self-play, targets, training, saving, matches, the log.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng as _;
use rand::rngs::StdRng;
use rand::seq::SliceRandom as _;
use rayon::prelude::*;
use tns_match::{Budget, Colours, Kind, MatchConfig, PlayerSpec, run_match};
use tns_nn::{Adam, Network, Sample, train_epoch};

use crate::progress::{self, Row};
use crate::selfplay;
use crate::state::RunState;

/// Everything a training run is told.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Generations to train in this run.
    pub generations: u32,
    /// Self-play games per generation.
    pub games: usize,
    /// The folder of `gen-NNN.bin`, `latest.bin`, `progress.csv` and `progress.svg`.
    pub out: PathBuf,
    /// Start from this weights file instead of the newest generation in `out`.
    pub from: Option<PathBuf>,
    /// Hidden layer sizes of a new network.
    pub hidden: Vec<usize>,
    /// Self-play search depth.
    pub depth: u32,
    /// Probability of a random move in self-play.
    pub epsilon: f64,
    /// TD(λ)'s λ.
    pub lambda: f32,
    /// Passes over the training positions per generation.
    pub epochs: u32,
    /// Adam's learning rate.
    pub learning_rate: f32,
    /// Minibatch size.
    pub batch: usize,
    /// Generations of positions kept for training (1: only the newest).
    pub window: usize,
    /// The seed of everything random.
    pub seed: u64,
    /// Play matches every this many generations (0: never).
    pub match_every: u32,
    /// Games per match.
    pub match_games: u32,
    /// Search depth of both players in matches.
    pub match_depth: u32,
    /// The ply cap of self-play and match games.
    pub max_plies: usize,
    /// Draw progress bars.
    pub bars: bool,
}

/// Mixes a seed with numbers (`SplitMix64`'s finaliser), for per-game and per-generation seeds.
fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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

fn neural_spec(name: String, network: Network) -> PlayerSpec {
    PlayerSpec {
        name,
        kind: Kind::Neural(Arc::new(network)),
        time: None,
        depth: None,
        threads: None,
        tt_mb: None,
    }
}

/// Plays `net` against `opponent` at the match depth, both colours; returns the network's
/// score in [0, 1].
fn match_score(
    s: &Settings,
    net: &Network,
    opponent: PlayerSpec,
    seed: u64,
) -> Result<f64, String> {
    let config = MatchConfig {
        a: neural_spec("network".into(), net.clone()),
        b: opponent,
        colours: Colours::Alternate,
        games: s.match_games.div_ceil(2) * 2,
        openings: 4,
        seed,
        concurrency: rayon::current_num_threads(),
        max_plies: s.max_plies,
        defaults: Budget { time: None, depth: Some(s.match_depth), threads: 1, tt_mb: 4 },
        tablebase: None,
        book: Vec::new(),
    };
    let standings =
        run_match(&config, &AtomicBool::new(false), |_| {}).map_err(|e| e.to_string())?;
    Ok(standings.a_total().score().unwrap_or(0.5))
}

/// Where a run starts: the network, the number of its generation, and the generation last
/// tested in a match.
fn starting_point(s: &Settings) -> Result<(Network, u32), String> {
    if let Some(from) = &s.from {
        let net = Network::load(from).map_err(|e| e.to_string())?;
        return Ok((net, newest_generation(&s.out).unwrap_or(0)));
    }
    match newest_generation(&s.out) {
        Some(n) => {
            let net = Network::load(&generation_path(&s.out, n)).map_err(|e| e.to_string())?;
            Ok((net, n))
        }
        None => Ok((Network::new(&s.hidden, s.seed).map_err(|e| e.to_string())?, 0)),
    }
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
) -> Result<Network, String> {
    std::fs::create_dir_all(&s.out).map_err(|e| format!("{}: {e}", s.out.display()))?;
    let (mut net, first) = starting_point(s)?;
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
    let csv_path = s.out.join("progress.csv");
    let mut rows = progress::read(&csv_path);
    rows.retain(|r| r.generation <= first);
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
        let Some(games) = self_play(s, &net, generation, eta, stop) else {
            break;
        };
        let mut rng = StdRng::seed_from_u64(mix(s.seed, u64::from(generation), u64::MAX));
        let fresh: Vec<Sample> =
            games.iter().flat_map(|g| selfplay::samples(g, s.lambda, &mut rng)).collect();
        window.push(fresh);
        if window.len() > s.window.max(1) {
            window.remove(0);
        }
        let mut data: Vec<Sample> = window.iter().flatten().copied().collect();
        let epochs_bar =
            bar(u64::from(s.epochs), &format!("epochs, generation {generation}"), s.bars);
        let mut loss = 0.0;
        for _ in 0..s.epochs {
            data.shuffle(&mut rng);
            loss = train_epoch(&mut net, &mut adam, &data, s.batch);
            epochs_bar.set_message(format!("loss {loss:.4}"));
            epochs_bar.inc(1);
        }
        epochs_bar.finish_and_clear();
        net.save(&generation_path(&s.out, generation)).map_err(|e| e.to_string())?;
        net.save(&s.out.join("latest.bin")).map_err(|e| e.to_string())?;
        RunState { generation, adam: adam.clone(), window: window.clone() }.save(&state_path)?;
        saved = generation;

        let (mut vs_heuristic, mut vs_previous) = (None, None);
        if s.match_every > 0 && generation % s.match_every == 0 {
            (vs_heuristic, vs_previous) = matches(s, &net, generation, last_tested)?;
            last_tested = Some(generation);
        }
        let row = Row {
            generation,
            games: games.len(),
            positions: window.last().map_or(0, Vec::len),
            loss,
            vs_heuristic,
            vs_previous,
            seconds: start.elapsed().as_secs_f64(),
        };
        let pct = |v: Option<f64>| v.map_or("-".into(), |v| format!("{:.1}%", 100.0 * v));
        log(&format!(
            "generation {generation}: {} games, {} positions, loss {loss:.4}, vs heuristic {}, vs previous {}, {:.1} s",
            row.games,
            row.positions,
            pct(vs_heuristic),
            pct(vs_previous),
            row.seconds
        ));
        rows.push(row);
        tns_file::write_atomically(&csv_path, progress::csv(&rows).as_bytes())
            .map_err(|e| format!("{}: {e}", csv_path.display()))?;
        let svg_path = s.out.join("progress.svg");
        tns_file::write_atomically(&svg_path, progress::svg(&rows).as_bytes())
            .map_err(|e| format!("{}: {e}", svg_path.display()))?;
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

/// The optimiser and training window to start with: those saved after generation `first` when
/// resuming (so the run goes on exactly), else new ones; says when a run resumes, and when an
/// option it cannot change was given.
fn resume(
    s: &Settings,
    net: &Network,
    first: u32,
    state_path: &Path,
    log: &mut impl FnMut(&str),
) -> Result<(Adam, Vec<Vec<Sample>>), String> {
    let resumed = if s.from.is_none() && first > 0 {
        RunState::load(state_path, s.learning_rate)?
            .filter(|st| st.generation == first && st.adam.state().0.len() == net.params().len())
    } else {
        None
    };
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
            let seed = mix(s.seed, u64::from(generation), i as u64);
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
) -> Result<(Option<f64>, Option<f64>), String> {
    let match_seed = mix(s.seed, u64::from(generation), 7);
    let vs_heuristic = match_score(s, net, PlayerSpec::heuristic(), match_seed)?;
    let vs_previous = match last_tested {
        Some(previous) => {
            let old =
                Network::load(&generation_path(&s.out, previous)).map_err(|e| e.to_string())?;
            let name = format!("gen-{previous:03}");
            Some(match_score(s, net, neural_spec(name, old), match_seed)?)
        }
        None => None,
    };
    Ok((Some(vs_heuristic), vs_previous))
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
