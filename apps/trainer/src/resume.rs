//! Taking up a run where it stands: the folder cleaned of an unfinished generation, the settings
//! checked, the network to go on from, and the optimiser and training window saved with it.

use std::path::Path;

use anyhow::bail;
use tns_nn::{Adam, Network, Sample};

use crate::layout::{clean_up, complete_generation, generation_path};
use crate::settings::Settings;
use crate::state::RunState;

/// Takes up the run in `s.out` where it stands: removes what an unfinished generation left,
/// checks (or, for a new run, records) the settings, and names the complete generation
/// `latest.bin` again (a run stopped between its state and that name left it on the one
/// before). The network to go on from, and its generation.
pub fn take_up(s: &Settings, log: &mut impl FnMut(&str)) -> anyhow::Result<(Network, u32)> {
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
