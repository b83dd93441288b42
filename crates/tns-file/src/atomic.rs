//! Writing files whole or not at all, and reading them with a clear error.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::FileError;

/// Writes `contents` to `path` so that a reader, or a process killed part-way, sees either the
/// old file or the whole new one, never a part: the bytes go to a temporary file beside `path`,
/// are flushed to disk, and the temporary file is then renamed over `path`.
///
/// Only a regular file is ever replaced. A symbolic link to one is followed, and its target
/// written, so the link stays a link; a link that points nowhere is refused, as GNU `cp`
/// refuses it (writing through it would make a file wherever it points, outside the folder
/// the caller asked for). A
/// directory, a device, a FIFO or a socket at `path` (or at the link's end) is refused with an
/// error and left as it is: renaming a file over `/dev/null` would replace the device, and
/// writing into a FIFO with no reader would wait for ever.
///
/// Game records, weights and tables are all saved this way.
///
/// ```
/// let path = std::env::temp_dir().join(format!("tns-doc-{}.txt", std::process::id()));
/// tns_file::write_atomically(&path, b"1. c3\n")?;
/// assert_eq!(std::fs::read(&path)?, b"1. c3\n");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// Any I/O error from creating, writing or renaming the file; [`std::io::ErrorKind::InvalidInput`]
/// for a path that is not a regular file (or a link to one, or nothing yet). The temporary file
/// is removed when a step after its creation fails.
pub fn write_atomically(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let path = regular_file_at(path)?;
    let mut tmp = path.clone();
    tmp.as_mut_os_string().push(format!(".tmp{}", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut file| {
        file.write_all(contents)?;
        file.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, &path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// The path a save to `path` replaces: `path` itself where nothing or a regular file stands
/// there, the end of the chain where a symbolic link does; an error for anything else.
pub(crate) fn regular_file_at(path: &Path) -> std::io::Result<PathBuf> {
    // Links to links are followed as far as the system itself would follow them.
    const MAX_LINKS: usize = 40;
    let refuse = |what: &str, at: &Path| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{} is {what}, not a regular file: not replaced", at.display()),
        )
    };
    let mut at = path.to_path_buf();
    for _ in 0..=MAX_LINKS {
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && at == path => return Ok(at),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "{} is a link to {}, which does not exist: not written through",
                        path.display(),
                        at.display()
                    ),
                ));
            }
            Err(e) => return Err(e),
        };
        let kind = meta.file_type();
        if kind.is_file() {
            return Ok(at);
        }
        if kind.is_symlink() {
            let target = std::fs::read_link(&at)?;
            at = match at.parent() {
                Some(dir) if target.is_relative() => dir.join(target),
                _ => target,
            };
            continue;
        }
        if kind.is_dir() {
            return Err(refuse("a directory", &at));
        }
        return Err(refuse(special_kind(&meta), &at));
    }
    Err(refuse("a chain of too many symbolic links", path))
}

/// What kind of special file `meta` is, in words.
fn special_kind(meta: &std::fs::Metadata) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        let kind = meta.file_type();
        if kind.is_char_device() {
            return "a character device";
        }
        if kind.is_block_device() {
            return "a block device";
        }
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
    }
    let _ = meta;
    "a special file"
}

/// Writes a file whole or not at all ([`write_atomically`]), making its folder first.
///
/// # Errors
/// [`FileError::Io`] when the folder cannot be made or the file written.
pub fn save(path: &Path, contents: &[u8]) -> Result<(), FileError> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    Ok(write_atomically(path, contents)?)
}

/// Opens a file to read, refusing anything that is not a plain file: a directory, a FIFO
/// (which would block until something writes to it) or a device.
///
/// # Errors
/// [`FileError::Missing`] for a file that does not exist, [`FileError::NotAFile`] for one that
/// is not a plain file, [`FileError::Io`] for one that cannot be opened.
pub fn open(path: &Path) -> Result<std::fs::File, FileError> {
    let io = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => FileError::Missing,
        _ => FileError::Io(e),
    };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::NotAFile);
    }
    std::fs::File::open(path).map_err(io)
}

/// Reads a whole file.
///
/// # Errors
/// As [`open`], and [`FileError::Io`] for one that cannot be read.
pub fn read(path: &Path) -> Result<Vec<u8>, FileError> {
    use std::io::Read as _;
    let mut file = open(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// Reads a whole file of at most `limit` bytes, its size checked before anything is read or
/// allocated (a sparse file of many gigabytes is refused at once).
///
/// # Errors
/// As [`read`], and [`FileError::TooLarge`] for a larger file.
pub fn read_at_most(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    use std::io::Read as _;
    let file = open(path)?;
    let size = file.metadata()?.len();
    if size > limit {
        return Err(FileError::TooLarge { size, limit });
    }
    let mut bytes = Vec::new();
    // The size read may grow while we read: never more than the limit and one byte.
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { size: bytes.len() as u64, limit });
    }
    Ok(bytes)
}

/// Reads a whole text file of at most `limit` bytes ([`read_at_most`]).
///
/// # Errors
/// As [`read_at_most`], and [`FileError::NotText`] for one that is not UTF-8.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_at_most(path, limit)?).map_err(|_| FileError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_old_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("tns-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // A folder that does not exist: an error, and nothing left behind.
        assert!(write_atomically(&dir.join("no/such/file"), b"x").is_err());
        assert!(matches!(read(&dir.join("none")), Err(FileError::Missing)));
        save(&dir.join("sub/b.txt"), b"made").unwrap();
        assert_eq!(read(&dir.join("sub/b.txt")).unwrap(), b"made");
        assert!(matches!(read(&dir), Err(FileError::NotAFile)));
        assert_eq!(read_text(&dir.join("sub/b.txt"), 4).unwrap(), "made");
        assert!(matches!(
            read_text(&dir.join("sub/b.txt"), 3),
            Err(FileError::TooLarge { size: 4, limit: 3 })
        ));
        write_atomically(&dir.join("bin"), &[0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&dir.join("bin"), 10), Err(FileError::NotText)));
        assert!(matches!(read_text(&dir, 10), Err(FileError::NotAFile)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_and_stays_a_link() {
        let dir = std::env::temp_dir().join(format!("tns-atomic-link-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("target.txt");
        std::fs::write(&target, b"old").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink("target.txt", &link).unwrap();
        write_atomically(&link, b"new").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A link to nothing: refused, and nothing is made where it points.
        let dangling = dir.join("dangling.txt");
        std::os::unix::fs::symlink(dir.join("elsewhere.txt"), &dangling).unwrap();
        let e = write_atomically(&dangling, b"made").unwrap_err();
        assert!(e.to_string().contains("which does not exist: not written through"), "{e}");
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert!(!dir.join("elsewhere.txt").exists());
        // A loop of links is an error, not a hang.
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        assert!(write_atomically(&dir.join("loop-a"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_device_a_fifo_or_a_directory_is_refused_and_left_as_it_is() {
        use std::os::unix::fs::FileTypeExt as _;
        let dir = std::env::temp_dir().join(format!("tns-atomic-special-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A link to the null device: were the link's end replaced, it would be /dev/null; the
        // link is what a broken save would replace, so nothing of the system's is at risk.
        let null = dir.join("null");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        let error = write_atomically(&null, b"x").unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
        assert!(error.to_string().contains("a character device"), "{error}");
        assert!(std::fs::symlink_metadata(&null).unwrap().file_type().is_symlink());
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
        // A FIFO: refused at once (never a write that waits for a reader), still a FIFO.
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            let error = write_atomically(&fifo, b"x").unwrap_err();
            assert!(error.to_string().contains("a FIFO"), "{error}");
            assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
        }
        let error = write_atomically(&dir, b"x").unwrap_err();
        assert!(error.to_string().contains("a directory"), "{error}");
        assert!(dir.is_dir());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
