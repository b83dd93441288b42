//! What a run needs besides the weights to go on exactly where it stopped: the optimiser's
//! running means and the training window's positions, saved in `state.bin` after each
//! generation (whole or not at all).
//!
//! | bytes | field |
//! |------:|-------|
//! | 8 | magic `TNS-TS\r\n` |
//! | 4 | format version, little-endian |
//! | 4 | the generation it was saved after |
//! | 8 | the checksum of that generation's weights file, so that a state is never taken for another run's |
//! | 4 | Adam's step count |
//! | 8 | parameters `n` |
//! | 4 × n, 4 × n | Adam's mean and mean squared gradient, `f32` |
//! | 4 | generations in the window `w` |
//! | per generation: 8, then 12 × count | its sample count, then each sample's position key (`u64`) and target (`f32`) |
//! | 8 | checksum of everything before it |

use std::path::Path;

use anyhow::{Context as _, bail};
use tns_board::Board;
use tns_file::Format;
use tns_nn::{Adam, Sample};

/// The state file's container.
const FORMAT: Format = Format { magic: *b"TNS-TS\r\n", version: 2, name: "training state file" };

/// A run's state after a generation.
#[derive(Clone, Debug, PartialEq)]
pub struct RunState {
    /// The generation it was saved after.
    pub generation: u32,
    /// What tells that generation's weights from another network's (the checksum of its
    /// weights file's bytes before the file's own checksum).
    pub weights: u64,
    /// The optimiser.
    pub adam: Adam,
    /// The training window: each recent generation's samples, oldest first.
    pub window: Vec<Vec<Sample>>,
}

impl RunState {
    /// The bytes of a state file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let (m, v, steps) = self.adam.state();
        let mut out = FORMAT.start();
        out.extend_from_slice(&self.generation.to_le_bytes());
        out.extend_from_slice(&self.weights.to_le_bytes());
        out.extend_from_slice(&steps.to_le_bytes());
        out.extend_from_slice(&(m.len() as u64).to_le_bytes());
        for x in m.iter().chain(v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend_from_slice(&u32::try_from(self.window.len()).unwrap_or(0).to_le_bytes());
        for samples in &self.window {
            out.extend_from_slice(&(samples.len() as u64).to_le_bytes());
            for s in samples {
                out.extend_from_slice(&s.board.key().to_le_bytes());
                out.extend_from_slice(&s.target.to_le_bytes());
            }
        }
        FORMAT.finish(out)
    }

    /// Reads a state file's bytes, with a learning rate for the optimiser.
    ///
    /// # Errors
    /// What is wrong with the bytes: not a state file, another version, damaged or cut short.
    pub fn from_bytes(bytes: &[u8], learning_rate: f32) -> anyhow::Result<RunState> {
        // The state's length follows from its contents, so the frame is checked against the
        // file's own length, and the reader then finds any bytes missing or left over.
        let body = FORMAT.check(bytes, bytes.len() as u64)?;
        let mut r = Reader(tns_file::LeReader::new(body));
        let generation = r.u32()?;
        let weights = r.u64()?;
        let steps = r.i32()?;
        let n = usize::try_from(r.u64()?).ok().context("too many parameters")?;
        let mut floats =
            |count: usize| -> anyhow::Result<Vec<f32>> { (0..count).map(|_| r.f32()).collect() };
        let m = floats(n)?;
        let v = floats(n)?;
        let adam = Adam::resume(learning_rate, m, v, steps)?;
        let generations = r.u32()?;
        let mut window = Vec::new();
        for _ in 0..generations {
            let count = usize::try_from(r.u64()?).ok().context("too many samples")?;
            let mut samples = Vec::with_capacity(count.min(bytes.len() / 12));
            for _ in 0..count {
                let board = Board::from_key(r.u64()?)?;
                samples.push(Sample { board, target: r.f32()? });
            }
            window.push(samples);
        }
        if r.0.position() != body.len() {
            bail!("bytes left over");
        }
        Ok(RunState { generation, weights, adam, window })
    }

    /// Saves the state, whole or not at all.
    ///
    /// # Errors
    /// The I/O error, with the file's name.
    pub fn save(&self, path: &Path) -> anyhow::Result<()> {
        tns_file::write_atomically(path, &self.to_bytes())
            .with_context(|| path.display().to_string())
    }

    /// Loads a state file; `None` when there is none.
    ///
    /// # Errors
    /// A message naming the file and what is wrong with it.
    pub fn load(path: &Path, learning_rate: f32) -> anyhow::Result<Option<RunState>> {
        // Only a regular file is read: a FIFO in its place would wait for a writer.
        let bytes = match tns_file::read(path) {
            Err(tns_file::FileError::Missing) => return Ok(None),
            read => read.with_context(|| path.display().to_string())?,
        };
        RunState::from_bytes(&bytes, learning_rate)
            .map(Some)
            .with_context(|| path.display().to_string())
    }
}

impl RunState {
    /// The generation a state file was saved after; `None` when there is none.
    ///
    /// # Errors
    /// As [`RunState::load`]: the whole file is checked.
    pub fn load_generation(path: &Path) -> anyhow::Result<Option<u32>> {
        Ok(RunState::load(path, 1e-3)?.map(|state| state.generation))
    }
}

/// Reads little-endian numbers from the front of a byte slice; a file cut short says so.
struct Reader<'a>(tns_file::LeReader<'a>);

impl Reader<'_> {
    fn u32(&mut self) -> anyhow::Result<u32> {
        self.0.u32().context("cut short")
    }
    fn u64(&mut self) -> anyhow::Result<u64> {
        self.0.u64().context("cut short")
    }
    fn i32(&mut self) -> anyhow::Result<i32> {
        self.0.i32().context("cut short")
    }
    fn f32(&mut self) -> anyhow::Result<f32> {
        self.0.f32().context("cut short")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage_is_caught() {
        let mut adam = Adam::new(3, 0.01);
        let mut params = [1.0f32, 2.0, 3.0];
        adam.step(&mut params, &[0.1, -0.2, 0.3]);
        let window = vec![
            vec![Sample { board: Board::START, target: 0.25 }],
            vec![
                Sample { board: "T3T/5/2S2/5/T3T t 19".parse().unwrap(), target: -0.5 },
                Sample { board: Board::START, target: 0.0 },
            ],
        ];
        let state = RunState { generation: 7, weights: 42, adam, window };
        let bytes = state.to_bytes();
        assert_eq!(RunState::from_bytes(&bytes, 0.01).unwrap(), state);
        for len in 0..bytes.len() {
            assert!(RunState::from_bytes(&bytes[..len], 0.01).is_err(), "{len}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 4;
            assert!(RunState::from_bytes(&bad, 0.01).is_err(), "{i}");
        }
    }
}
