//! Taking up a run where it stands: the folder cleaned of an unfinished generation, the settings
//! checked, the network to go on from, and the optimiser and training window saved with it.

use std::path::Path;

use anyhow::{Context as _, anyhow};
use tns_nn::{Adam, Network, Sample};

use crate::layout::{check_no_finished_after, clean_up, generation_path};
use crate::settings::Settings;
use crate::state::RunState;

/// Takes up the run in `s.out` where it stands: checks that its state and its weights belong
/// together before anything is touched (a state copied from another run, or one older than the
/// generations saved, is refused and nothing is removed), removes what an unfinished generation
/// left, checks (or, for a new run, records) the settings, and names the complete generation
/// `latest.bin` again (a run stopped between its state and that name left it on the one
/// before). The network to go on from, its generation, and the state saved with it.
pub fn take_up(
    s: &Settings,
    log: &mut impl FnMut(&str),
) -> anyhow::Result<(Network, u32, Option<RunState>)> {
    let state_path = s.out.join("state.bin");
    let state = RunState::load(&state_path, s.learning_rate)?;
    let complete = state.as_ref().map(|st| st.generation);
    if let Some(state) = &state {
        check_state_is_this_runs(s, state, &state_path)?;
    }
    check_no_finished_after(&s.out, complete.unwrap_or(0))?;
    clean_up(&s.out, complete.unwrap_or(0), log)?;
    crate::recorded::check_or_record(s, complete.unwrap_or(0), log)?;
    let (net, first) = starting_point(s, complete)?;
    if complete.is_some() && s.from.is_none() {
        net.save(&s.out.join("latest.bin"))?;
    }
    Ok((net, first, state))
}

/// A state names its generation's weights: a state copied from another run (other seeds, other
/// layer sizes) names weights that are not this folder's.
fn check_state_is_this_runs(s: &Settings, state: &RunState, path: &Path) -> anyhow::Result<()> {
    let n = state.generation;
    let weights = generation_path(&s.out, n);
    let not_ours = |why: &str| {
        anyhow!(
            "{} is not this run's: {why} (copied from another run?). Nothing was removed: put \
             back this run's state.bin, or train into a new folder",
            path.display()
        )
    };
    if !weights.exists() {
        return Err(not_ours(&format!(
            "it names generation {n}, whose weights {} are not here",
            weights.display()
        )));
    }
    let net = Network::load(&weights).with_context(|| weights.display().to_string())?;
    if weights_id(&net) != state.weights {
        return Err(not_ours(&format!(
            "the weights it was saved with are not those of generation {n} here"
        )));
    }
    Ok(())
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

/// What tells one network's weights from another's: the checksum of its weights file's bytes
/// before the file's own checksum (a checksum over a frame that ends in its own checksum is the
/// same for every frame).
pub fn weights_id(net: &Network) -> u64 {
    let bytes = net.to_bytes();
    tns_file::checksum(&bytes[..bytes.len().saturating_sub(8)])
}

/// The optimiser and training window to start with: those saved after generation `first` when
/// resuming (so the run goes on exactly), else new ones; says when a run resumes, and when an
/// option it cannot change was given.
pub fn resume(
    s: &Settings,
    net: &Network,
    first: u32,
    state: Option<RunState>,
    log: &mut impl FnMut(&str),
) -> (Adam, Vec<Vec<Sample>>) {
    let resumed = state.filter(|st| {
        s.from.is_none()
            && first > 0
            && st.generation == first
            && st.adam.state().0.len() == net.params().len()
    });
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
    match resumed {
        Some(state) => (state.adam, state.window),
        None => (Adam::new(net.params().len(), s.learning_rate), Vec::new()),
    }
}
