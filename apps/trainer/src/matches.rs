//! The matches a run plays every `--match-every` generations: the network against the heuristic
//! player and against the generation last tested.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tns_match::{Budget, MatchConfig, PlayerSpec, mix_seed, run_match};
use tns_nn::Network;

use crate::layout::generation_path;
use crate::settings::Settings;

/// The network as a match player: alone, without the endgame built in, so that the match
/// measures what the run trains.
fn neural_spec(name: String, network: Network) -> PlayerSpec {
    let mut spec = PlayerSpec::neural(name, Arc::new(network));
    spec.endgame = false;
    spec
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

/// The network's scores against the heuristic player and against the generation last tested.
pub fn matches(
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
