//! A table's directory as a whole: the files in it, and checking every block of them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::cache::BlockCache;
use crate::index::Indexer;
use crate::movement::file as slice_file;
use crate::placement::file::{self as layer_file, LayerFile};
use crate::{Tablebase, TablebaseError};

/// The placement layers: 0 to 19 sheep placed.
const LAYERS: std::ops::RangeInclusive<u8> = 0..=19;

/// One file of a table directory, as [`Tablebase::check_files`] found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes.
    pub bytes: u64,
}

/// The files of a table for a game won by `kills` kills that are in `dir`: each movement slice,
/// then each placement layer, with its sheep placed (`None` for a slice) and dead count (for a
/// slice).
fn files(kills: u8, dir: &Path) -> Vec<(PathBuf, Option<u8>, u8)> {
    let slices = (0..kills).map(|dead| (slice_file::slice_path(dir, kills, dead), None, dead));
    let layers = LAYERS.map(|placed| (layer_file::layer_path(dir, kills, placed), Some(placed), 0));
    // Anything at a file's name counts, a link that leads nowhere or round in a loop too:
    // reading it then says what is wrong, where `exists` would skip it in silence.
    slices.chain(layers).filter(|(p, _, _)| std::fs::symlink_metadata(p).is_ok()).collect()
}

/// The error for a file whose size cannot be read, saying where a link leads when the link is
/// what fails (one to nothing reads as "no such file" beside a name that is plainly there).
fn unreadable(path: &Path, e: std::io::Error) -> TablebaseError {
    match std::fs::read_link(path) {
        Ok(target) if e.kind() == std::io::ErrorKind::NotFound => TablebaseError::file(
            path,
            std::io::Error::new(
                e.kind(),
                format!("a link to {}, which does not exist", target.display()),
            ),
        ),
        _ => TablebaseError::file(path, e),
    }
}

/// Which part of the table a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TablePart {
    /// A movement-phase slice: every position with this many dead and no sheep in hand.
    Slice {
        /// Sheep dead.
        dead: u8,
    },
    /// A placement layer: every position with this many sheep placed.
    Layer {
        /// Sheep placed.
        placed: u8,
    },
}

/// A table file found in a directory ([`Tablebase::files`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TableFile {
    /// The file.
    pub path: PathBuf,
    /// What it holds.
    pub part: TablePart,
    /// Its size in bytes.
    pub bytes: u64,
}

impl Tablebase {
    /// The table files for a game won by `kills` kills that are in `dir` (their names are this
    /// crate's business): each movement slice, then each placement layer, with its size. Files
    /// of other variants, and other files, are not counted. Nothing is read or checked.
    ///
    /// # Errors
    /// [`TablebaseError::Kills`] unless `kills` is 1 to 5; a file whose size cannot be read.
    pub fn files(kills: u8, dir: &Path) -> Result<Vec<TableFile>, TablebaseError> {
        crate::tablebase::check_kills(kills)?;
        files(kills, dir)
            .into_iter()
            .map(|(path, placed, dead)| {
                let bytes = std::fs::metadata(&path).map_err(|e| unreadable(&path, e))?.len();
                let part = match placed {
                    Some(placed) => TablePart::Layer { placed },
                    None => TablePart::Slice { dead },
                };
                Ok(TableFile { path, part, bytes })
            })
            .collect()
    }

    /// Reads every block of every table file in `dir` for a game won by `kills` kills and
    /// checks it: each block against its checksum and its length once decoded, each header
    /// against what the file must hold. Files not there are skipped (the list returned says
    /// which were checked); `on_file` is called as each is done.
    ///
    /// # Errors
    /// [`TablebaseError::Kills`] unless `kills` is 1 to 5; the first damaged or unreadable
    /// file, naming it and, past its header, the block.
    pub fn check_files(
        kills: u8,
        dir: &Path,
        mut on_file: impl FnMut(&FileReport),
    ) -> Result<Vec<FileReport>, TablebaseError> {
        crate::tablebase::check_kills(kills)?;
        let indexer = Indexer::new();
        let cache = Arc::new(BlockCache::new());
        let mut out = Vec::new();
        for (path, placed, dead) in files(kills, dir) {
            let bytes = match placed {
                None => {
                    let slots = indexer.slice_len(usize::from(dead) + 1);
                    slice_file::load(&path, kills, dead, indexer.classes(), slots)?;
                    std::fs::metadata(&path).map_err(|e| TablebaseError::file(&path, e))?.len()
                }
                Some(placed) => {
                    LayerFile::open(&path, &indexer, kills, placed, Arc::clone(&cache))?.check()?
                }
            };
            let report = FileReport { path, bytes };
            on_file(&report);
            out.push(report);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_of_an_earlier_format_are_built_again_to_the_same_bytes() {
        let dir = std::env::temp_dir().join(format!("tns-old-format-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut table = Tablebase::build(2, Some(&dir), |_| {}).unwrap();
        table.build_placement(&dir, 17, &|_| {}).unwrap();
        drop(table);
        let built: Vec<(PathBuf, Vec<u8>)> = files(2, &dir)
            .into_iter()
            .map(|(p, _, _)| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        assert_eq!(built.len(), 5);
        for (path, bytes) in &built {
            let mut old = bytes.clone();
            old[8..12].copy_from_slice(&1u32.to_le_bytes());
            std::fs::write(path, old).unwrap();
        }
        let e = Tablebase::check_files(2, &dir, |_| {}).unwrap_err();
        assert!(matches!(e, TablebaseError::OldFormat { version: 1, expected: 2, .. }), "{e}");
        let outdated = std::sync::atomic::AtomicUsize::new(0);
        let mut table = Tablebase::build(2, Some(&dir), |event| {
            if matches!(event, crate::BuildEvent::Outdated { .. }) {
                outdated.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        })
        .unwrap();
        table
            .build_placement(&dir, 17, &|event| {
                if matches!(event, crate::PlacementEvent::Outdated { .. }) {
                    outdated.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
            })
            .unwrap();
        assert_eq!(outdated.into_inner(), built.len());
        for (path, bytes) in &built {
            assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
        }
        let checked = Tablebase::check_files(2, &dir, |_| {}).unwrap();
        assert_eq!(checked.len(), built.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
