//! Files read and written safely, in one place.
//!
//! Reads accept only regular files (after following links) of a bounded size,
//! so that a FIFO, `/dev/zero` or a huge file given as input is a one-line
//! error rather than a hang or memory exhaustion. Writes never follow a link
//! planted where an output goes: a new file is created exclusively under a
//! fresh temporary name in the same directory (the `tempfile` crate) and
//! renamed into place, which replaces a link there instead of writing through
//! it; an existing output is reopened with `O_NOFOLLOW`.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Largest component data, preset, experiment or run.json file read.
pub const MAX_TEXT_BYTES: u64 = 16 << 20;
/// Largest trace file read by `replay`.
pub const MAX_TRACE_BYTES: u64 = 256 << 20;
/// Largest results CSV read (games.csv, metrics.csv).
pub const MAX_CSV_BYTES: u64 = 4 << 30;

fn invalid(why: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, why)
}

fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{} GiB", bytes >> 30)
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

/// Opens `path` for reading if it is a regular file of at most `max` bytes.
/// A FIFO is opened without blocking, then refused.
pub fn open_input(path: &Path, max: u64) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    // A socket's node cannot be opened at all (ENXIO): say what it is.
    let file = options
        .open(path)
        .map_err(|e| match std::fs::metadata(path) {
            Ok(m) if !m.is_file() && !m.is_dir() => {
                invalid("not a regular file (a FIFO, device or socket)".into())
            }
            _ => e,
        })?;
    let meta = file.metadata()?;
    if meta.is_dir() {
        return Err(invalid("is a directory, not a file".into()));
    }
    if !meta.is_file() {
        return Err(invalid(
            "not a regular file (a FIFO, device or socket)".into(),
        ));
    }
    if meta.len() > max {
        return Err(invalid(format!("larger than {}", size_text(max))));
    }
    Ok(file)
}

/// Reads a regular file of at most `max` bytes.
pub fn read_bounded(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let file = open_input(path, max)?;
    let mut bytes = Vec::new();
    // The file may grow after the check: read one byte more than allowed.
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(invalid(format!("larger than {}", size_text(max))));
    }
    Ok(bytes)
}

/// Reads a regular file of at most `max` bytes as UTF-8 text.
pub fn read_text(path: &Path, max: u64) -> io::Result<String> {
    String::from_utf8(read_bounded(path, max)?).map_err(|_| invalid("not UTF-8 text".into()))
}

/// A CSV reader over a regular file of at most `max` bytes.
pub fn csv_reader(path: &Path, max: u64) -> io::Result<csv::Reader<io::Take<File>>> {
    Ok(csv::Reader::from_reader(open_input(path, max)?.take(max)))
}

/// A fresh, empty temporary file beside `path`, named after it (`NAME.XXXXXX.tmp`,
/// which `run --force` recognises), created exclusively with the usual
/// permissions.
fn temporary_beside(path: &Path) -> io::Result<tempfile::NamedTempFile> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy().into_owned());
    let prefix = format!("{name}.");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Masked by the umask like any file the program creates.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder.tempfile_in(dir)
}

/// Writes `path` atomically with what `fill` writes: into a temporary file
/// beside it, synced, then renamed over `path`. A reader never sees a
/// half-written file, and a link at `path` is replaced, never followed.
pub fn write_atomic_with(
    path: &Path,
    fill: impl FnOnce(&mut io::BufWriter<&File>) -> io::Result<()>,
) -> io::Result<()> {
    check_replaceable(path)?;
    let tmp = temporary_beside(path)?;
    {
        let mut w = io::BufWriter::new(tmp.as_file());
        fill(&mut w)?;
        w.flush()?;
    }
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// Writes `bytes` to `path` atomically (see [`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: impl AsRef<[u8]>) -> io::Result<()> {
    write_atomic_with(path, |w| w.write_all(bytes.as_ref()))
}

/// Creates `path` as a new empty file and returns it open for writing: the
/// file is made under a temporary name and renamed into place, so whatever
/// was at `path` (an old file, a planted link) is replaced, not written through.
pub fn create(path: &Path) -> io::Result<File> {
    check_replaceable(path)?;
    let tmp = temporary_beside(path)?;
    tmp.persist(path).map_err(|e| e.error)
}

/// Opens an existing output file for reading and writing, refusing a link.
pub fn open_existing(path: &Path) -> io::Result<File> {
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let file = options.open(path).map_err(|e| {
        if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
            invalid("is a symbolic link; outputs are never written through links".into())
        } else {
            e
        }
    })?;
    if !file.metadata()?.is_file() {
        return Err(invalid("not a regular file".into()));
    }
    Ok(file)
}

/// An output folder made by a command: created with any missing parents,
/// refused if it is a link or not a directory. Dropped, it removes the
/// folders it created that are still empty, so a command refused before
/// writing anything leaves nothing behind.
#[derive(Debug)]
pub struct MadeDir {
    path: PathBuf,
    /// The folders created, innermost first.
    created: Vec<PathBuf>,
}

impl MadeDir {
    /// Makes `path` a directory to write into (see [`MadeDir`]).
    pub fn make(path: &Path) -> io::Result<MadeDir> {
        let mut created = Vec::new();
        let mut missing = Some(path);
        while let Some(p) = missing.filter(|p| !p.as_os_str().is_empty()) {
            match std::fs::symlink_metadata(p) {
                Ok(m) if m.file_type().is_symlink() && p == path => {
                    return Err(invalid(
                        "is a symbolic link; outputs are never written through links".into(),
                    ));
                }
                Ok(m) if p == path && !m.is_dir() => {
                    return Err(invalid("exists and is not a directory".into()));
                }
                Ok(_) => break,
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    created.push(p.to_path_buf());
                    missing = p.parent();
                }
                Err(e) => return Err(e),
            }
        }
        std::fs::create_dir_all(path)?;
        Ok(MadeDir {
            path: path.to_path_buf(),
            created,
        })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for MadeDir {
    fn drop(&mut self) {
        for p in &self.created {
            // Fails, and so keeps the folder, once anything is in it.
            if std::fs::remove_dir(p).is_err() {
                break;
            }
        }
    }
}

/// An output folder held for writing by this process (see [`MadeDir`]),
/// under an advisory exclusive lock (`flock` on the folder itself, so no
/// lock file is left behind) that the system releases when the process
/// ends, however it ends: a second command writing there, with `--force`
/// or `--resume` alike, is refused while the first runs.
#[derive(Debug)]
pub struct OutputLock {
    // Declared first so the lock is released before the folder is tidied.
    _lock: File,
    dir: MadeDir,
}

impl OutputLock {
    /// Makes `path` a folder to write into and locks it; a folder another
    /// command holds is an error saying so.
    pub fn claim(path: &Path) -> io::Result<OutputLock> {
        let dir = MadeDir::make(path)?;
        let mut options = std::fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW);
        }
        let lock = options.open(path)?;
        #[cfg(unix)]
        {
            use std::os::unix::io::AsRawFd;
            // SAFETY: flock on a descriptor this function owns.
            if unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
                let e = io::Error::last_os_error();
                return Err(if e.kind() == io::ErrorKind::WouldBlock {
                    io::Error::new(
                        io::ErrorKind::WouldBlock,
                        "another boardlab command is writing there; wait for it to end, or choose another output",
                    )
                } else {
                    e
                });
            }
        }
        Ok(OutputLock { _lock: lock, dir })
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Locks `path` if it is an existing directory (for commands that write
    /// beside the results they read); nothing to hold otherwise, and the
    /// command's own reading says what is missing.
    pub fn hold_existing(path: &Path) -> io::Result<Option<OutputLock>> {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => OutputLock::claim(path).map(Some),
            _ => Ok(None),
        }
    }
}

/// Refuses an output file that exists (a link included) unless `force`:
/// every command replaces what is there only when asked to.
pub fn check_new(path: &Path, force: bool) -> io::Result<()> {
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(invalid(
            "it already exists (use --force to replace it, or another --out)".into(),
        ));
    }
    check_replaceable(path)
}

/// Refuses to replace anything at `path` but a regular file or a link (a
/// link is replaced, never followed): a device node, FIFO, socket or
/// directory given as an output is an error, not something to write onto.
fn check_replaceable(path: &Path) -> io::Result<()> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() && !m.file_type().is_symlink() => Err(invalid(
            "exists and is not a regular file (a directory, device, FIFO or socket); outputs replace only regular files"
                .into(),
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("boardlab-fsutil-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn inputs_must_be_small_regular_files() {
        let d = dir("inputs");
        let f = d.join("a.txt");
        std::fs::write(&f, "hello").unwrap();
        assert_eq!(read_text(&f, 5).unwrap(), "hello");
        assert!(read_text(&f, 4).unwrap_err().to_string().contains("larger"));
        assert!(
            read_text(&d, 100)
                .unwrap_err()
                .to_string()
                .contains("is a directory")
        );
        // A special file of the test's own making (a socket's node), not a
        // device of the machine's.
        #[cfg(unix)]
        {
            let socket = d.join("socket");
            drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
            let e = read_bounded(&socket, 100).unwrap_err();
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[cfg(unix)]
    #[test]
    fn outputs_replace_links_instead_of_following_them() {
        let d = dir("links");
        let target = d.join("target");
        std::fs::write(&target, "keep").unwrap();
        let link = d.join("out.csv");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(open_existing(&link).is_err());
        write_atomic(&link, "new").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        assert_eq!(std::fs::read_to_string(&link).unwrap(), "new");
        assert!(!std::fs::symlink_metadata(&link).unwrap().is_symlink());
        std::fs::remove_file(&link).unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let mut f = create(&link).unwrap();
        f.write_all(b"x").unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        let _ = std::fs::remove_dir_all(&d);
    }
}
