//! A table's directory as a whole: checking every block of its files, converting files of the
//! uncompressed format, the lock a build holds, and the temporary files a killed build left.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::build_lock::BuildLock;
use crate::cache::BlockCache;
use crate::index::Indexer;
use crate::movement::file as slice_file;
use crate::placement::file::{self as layer_file, LayerFile};
use crate::{Tablebase, TablebaseError};

/// The placement layers: 0 to 19 sheep placed.
const LAYERS: std::ops::RangeInclusive<u8> = 0..=19;

/// One file of a table directory, as [`Tablebase::check_files`] or [`Tablebase::convert`]
/// found it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileReport {
    /// The file.
    pub path: PathBuf,
    /// Its size in bytes (after conversion, for a converted file).
    pub bytes: u64,
    /// Whether it was converted from the uncompressed format (only by [`Tablebase::convert`]).
    pub converted: bool,
}

/// The files of a table for a game won by `kills` kills that are in `dir`: each movement slice,
/// then each placement layer, with its sheep placed (`None` for a slice) and dead count (for a
/// slice).
fn files(kills: u8, dir: &Path) -> Vec<(PathBuf, Option<u8>, u8)> {
    let slices = (0..kills).map(|dead| (slice_file::slice_path(dir, kills, dead), None, dead));
    let layers = LAYERS.map(|placed| (layer_file::layer_path(dir, kills, placed), Some(placed), 0));
    slices.chain(layers).filter(|(p, _, _)| p.exists()).collect()
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
                let bytes =
                    std::fs::metadata(&path).map_err(|e| TablebaseError::file(&path, e))?.len();
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
            let report = FileReport { path, bytes, converted: false };
            on_file(&report);
            out.push(report);
        }
        Ok(out)
    }

    /// Converts every table file in `dir` for a game won by `kills` kills that is in the
    /// uncompressed format of version 1 to the compressed format, in place, keeping its values
    /// (nothing is solved again). Each file is replaced whole or not at all, so a conversion
    /// that is stopped resumes with the files still to do; files already converted are checked
    /// (every block) and left alone. `on_file` is called as each is done.
    ///
    /// # Errors
    /// [`TablebaseError::Kills`] unless `kills` is 1 to 5; a file that is damaged, of another
    /// game, or cannot be read or written.
    pub fn convert(
        kills: u8,
        dir: &Path,
        mut on_file: impl FnMut(&FileReport),
    ) -> Result<Vec<FileReport>, TablebaseError> {
        crate::tablebase::check_kills(kills)?;
        let _lock = BuildLock::take(dir)?;
        let indexer = Indexer::new();
        let mut out = Vec::new();
        for (path, placed, dead) in files(kills, dir) {
            let converted = match placed {
                None => {
                    let slots = indexer.slice_len(usize::from(dead) + 1);
                    slice_file::convert(&path, kills, dead, indexer.classes(), slots)?
                }
                Some(placed) => layer_file::convert(&path, &indexer, kills, placed)?,
            };
            let bytes = std::fs::metadata(&path).map_err(|e| TablebaseError::file(&path, e))?.len();
            let report = FileReport { path, bytes, converted };
            on_file(&report);
            out.push(report);
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every file of a small table turned back into version 1.
    fn to_version_1(dir: &Path, kills: u8) {
        let indexer = Indexer::new();
        for (path, placed, dead) in files(kills, dir) {
            let bytes = match placed {
                None => {
                    let slots = indexer.slice_len(usize::from(dead) + 1);
                    let slice =
                        slice_file::load(&path, kills, dead, indexer.classes(), slots).unwrap();
                    slice_file::encode_v1(&slice, indexer.classes())
                }
                Some(placed) => {
                    let layer = layer_file::load(&path, &indexer, kills, placed).unwrap();
                    layer_file::encode_v1(&layer, kills, indexer.classes())
                }
            };
            std::fs::write(&path, bytes).unwrap();
        }
    }

    #[test]
    fn a_conversion_stopped_anywhere_resumes_to_the_same_bytes() {
        let dir = std::env::temp_dir().join(format!("tns-convert-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut table = Tablebase::build(2, Some(&dir), |_| {}).unwrap();
        table.build_placement(&dir, 17, &|_| {}).unwrap();
        drop(table);
        let built: Vec<(PathBuf, Vec<u8>)> = files(2, &dir)
            .into_iter()
            .map(|(p, _, _)| (p.clone(), std::fs::read(&p).unwrap()))
            .collect();
        assert_eq!(built.len(), 5);
        // Stopped after each number of files converted, and with a half-written file left.
        for done in 0..built.len() {
            to_version_1(&dir, 2);
            let indexer = Indexer::new();
            for (path, placed, dead) in files(2, &dir).into_iter().take(done) {
                match placed {
                    None => {
                        let slots = indexer.slice_len(usize::from(dead) + 1);
                        slice_file::convert(&path, 2, dead, indexer.classes(), slots).unwrap();
                    }
                    Some(p) => {
                        layer_file::convert(&path, &indexer, 2, p).unwrap();
                    }
                }
            }
            let tmp = dir.join(format!("k2-p17.tnspl.tmp{}", u32::MAX));
            std::fs::write(&tmp, b"cut short").unwrap();
            let reports = Tablebase::convert(2, &dir, |_| {}).unwrap();
            assert_eq!(reports.iter().filter(|r| r.converted).count(), built.len() - done);
            assert!(!tmp.exists());
            for (path, bytes) in &built {
                assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
            }
        }
        let checked = Tablebase::check_files(2, &dir, |_| {}).unwrap();
        assert_eq!(checked.len(), built.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The real table converted agrees with the uncompressed one it came from, every value of
    /// every file: `TNS_TABLEBASE_DIR` holds the compressed table, `TNS_TABLEBASE_V1_DIR` a copy
    /// of the uncompressed one.
    #[test]
    #[ignore = "needs the real table in both formats"]
    fn the_converted_real_table_holds_the_same_values() {
        let (Some(new), Some(old)) =
            (std::env::var_os("TNS_TABLEBASE_DIR"), std::env::var_os("TNS_TABLEBASE_V1_DIR"))
        else {
            eprintln!("skipped: TNS_TABLEBASE_DIR and TNS_TABLEBASE_V1_DIR name the two tables");
            return;
        };
        let (new, old) = (PathBuf::from(new), PathBuf::from(old));
        let indexer = Indexer::new();
        let found = files(5, &new);
        assert_eq!(found.len(), 25, "the whole table");
        for (path, placed, dead) in found {
            let name = path.file_name().unwrap();
            let v1 = std::fs::read(old.join(name)).unwrap();
            match placed {
                None => {
                    let slots = indexer.slice_len(usize::from(dead) + 1);
                    let a = slice_file::load(&path, 5, dead, indexer.classes(), slots).unwrap();
                    let b = slice_file::decode_v1(&v1, 5, dead, indexer.classes(), slots).unwrap();
                    assert!(a == b, "{}", path.display());
                }
                Some(p) => {
                    let a = layer_file::load(&path, &indexer, 5, p).unwrap();
                    let b = layer_file::decode_v1(&v1, &indexer, 5, p).unwrap();
                    assert!(a == b, "{}", path.display());
                }
            }
        }
    }
}
