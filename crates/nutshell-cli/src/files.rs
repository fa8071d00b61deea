//! Every file the command line reads or writes goes through here: sides,
//! sheets, maps, tables, choices, and standard input.
//!
//! - Reading refuses a file larger than the limit *before* parsing it (a
//!   9 MB side file would otherwise cost seconds and hundreds of megabytes
//!   before any other check could refuse it). The limit is 1 MiB by default
//!   ([`DEFAULT_MAX_FILE_BYTES`]) and set with `--max-file-size BYTES`.
//! - Writing respects the file ([`write_atomic`]): it writes through a
//!   symbolic link to the real file, keeps the file's mode, owner and hard
//!   links, refuses a read-only file, and is atomic where it can be: the text
//!   goes to a temporary file beside the real one (unnamed where the system
//!   allows it, so a write killed even by SIGKILL leaves nothing behind), is
//!   synced to the disk, then renamed over the real file. A crash or a full
//!   disk mid-write leaves the old file whole. A file with other hard links,
//!   owned by someone the writer cannot give a new file to, or in a folder
//!   the writer may not add a file to, is rewritten in place instead (a rename would cut the links or change the owner):
//!   its new size is reserved on the disk first, and a failed write puts the
//!   old text back.

use crate::exit::Failure;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// The default most bytes of one file read: 1 MiB, far above any sheet, side,
/// map or table a person writes (a side of 1,000 combatants is about 300 KB).
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1 << 20;

static MAX_FILE_BYTES: AtomicU64 = AtomicU64::new(DEFAULT_MAX_FILE_BYTES);

/// Sets the most bytes of one file read (from `--max-file-size`).
pub fn set_max_bytes(bytes: u64) {
    MAX_FILE_BYTES.store(bytes, Ordering::Relaxed);
}

/// The most bytes of one file read.
pub fn max_bytes() -> u64 {
    MAX_FILE_BYTES.load(Ordering::Relaxed)
}

fn too_large(what: &str, size: Option<u64>, limit: u64) -> Failure {
    let size = match size {
        Some(s) => format!("{s} bytes"),
        None => format!("more than {limit} bytes"),
    };
    Failure::bad_input(format!(
        "error: {what} is too large: {size}, and the limit is {limit} bytes (--max-file-size BYTES raises it)"
    ))
}

/// Reads at most `limit` bytes of UTF-8 text from `reader`; more is refused.
fn read_limited(reader: impl Read, what: &str, limit: u64) -> Result<String, Failure> {
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::bad_input(format!("error: cannot read {what}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(what, None, limit));
    }
    String::from_utf8(bytes).map_err(|e| {
        Failure::bad_input(format!(
            "error: {what}: not UTF-8 text (byte {} is not valid)",
            e.utf8_error().valid_up_to() + 1
        ))
    })
}

/// Reads a text file, refusing it before reading when it is over the limit.
///
/// The size is checked from the file's metadata first, then the read itself is
/// bounded, so a file that grows while it is read (or a device) is refused too.
pub fn read_text(path: &Path) -> Result<String, Failure> {
    let shown = path.display().to_string();
    let limit = max_bytes();
    let file = std::fs::File::open(path)
        .map_err(|e| Failure::bad_input(format!("error: cannot read {shown}: {e}")))?;
    if let Ok(meta) = file.metadata() {
        if meta.is_dir() {
            return Err(Failure::bad_input(format!(
                "error: cannot read {shown}: it is a folder, not a file"
            )));
        }
        if meta.len() > limit {
            return Err(too_large(&shown, Some(meta.len()), limit));
        }
    }
    read_limited(file, &shown, limit)
}

/// Reads all of standard input, within the same limit.
pub fn read_stdin() -> Result<String, Failure> {
    read_limited(std::io::stdin().lock(), "standard input", max_bytes())
}

/// Writes `text` to `path`, respecting the file (see the module's doc):
/// through symbolic links, keeping mode, owner and hard links, refusing a
/// read-only file, atomically unless links or the owner forbid a rename.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Failure> {
    write_atomic_with(path, text, || Ok(()))
}

/// Where a write to `path` goes: the file a symbolic link leads to, or
/// `path` itself.
fn real_target(path: &Path) -> Result<std::path::PathBuf, Failure> {
    let shown = path.display().to_string();
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(path).map_err(|e| {
            Failure::other(format!(
                "error: cannot write {shown}: it is a link to a file that cannot be reached ({e}); nothing was written"
            ))
        }),
        _ => Ok(path.to_path_buf()),
    }
}

/// [`write_atomic`], with `before_rename` run after the temporary file is
/// complete and before it replaces `path`: an error there (as a crash would)
/// leaves `path` as it was and removes the temporary file.
pub(crate) fn write_atomic_with(
    path: &Path,
    text: &str,
    before_rename: impl FnOnce() -> std::io::Result<()>,
) -> Result<(), Failure> {
    let shown = path.display().to_string();
    let fail = |e: std::io::Error| Failure::other(format!("error: cannot write {shown}: {e}"));
    let target = real_target(path)?;
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let existing = std::fs::metadata(&target).ok();
    if let Some(meta) = &existing {
        refuse_unwritable(&target, meta, &shown)?;
    }
    #[cfg(unix)]
    if let Some(meta) = &existing {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return in_place(&target, text, &shown);
        }
    }
    let mut temporary = match Temporary::new(&folder) {
        Ok(t) => t,
        // A writable file in a folder this user may not add to: in place.
        Err(e) if existing.is_some() && e.kind() == std::io::ErrorKind::PermissionDenied => {
            return in_place(&target, text, &shown);
        }
        Err(e) => return Err(fail(e)),
    };
    temporary.file().write_all(text.as_bytes()).map_err(fail)?;
    temporary.file().flush().map_err(fail)?;
    temporary.file().sync_all().map_err(fail)?;
    if let Some(meta) = &existing {
        // Keep the old file's permissions (a sheet kept private stays
        // private) and its owner; a new file the writer cannot give to the
        // owner is not made: the old one is rewritten in place.
        temporary
            .file()
            .set_permissions(meta.permissions())
            .map_err(fail)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let same = temporary
                .file()
                .metadata()
                .is_ok_and(|m| m.uid() == meta.uid() && m.gid() == meta.gid());
            if !same
                && std::os::unix::fs::fchown(temporary.file(), Some(meta.uid()), Some(meta.gid()))
                    .is_err()
            {
                drop(temporary);
                return in_place(&target, text, &shown);
            }
        }
    }
    before_rename().map_err(fail)?;
    temporary.persist(&folder, &target).map_err(fail)?;
    // Make the rename itself durable where the platform allows it.
    if let Ok(dir) = std::fs::File::open(&folder) {
        let _ = dir.sync_all();
    }
    Ok(())
}

/// Refuses a file nobody may write (mode 444: "read-only" is the owner's
/// word, even for a user, such as root, whom the system would let write),
/// or one this user may not write.
fn refuse_unwritable(target: &Path, meta: &std::fs::Metadata, shown: &str) -> Result<(), Failure> {
    if meta.is_dir() {
        return Err(Failure::bad_input(format!(
            "error: cannot write {shown}: it is a folder, not a file"
        )));
    }
    if meta.permissions().readonly() {
        #[cfg(unix)]
        let mode = {
            use std::os::unix::fs::PermissionsExt;
            format!(" (mode {:o})", meta.permissions().mode() & 0o7777)
        };
        #[cfg(not(unix))]
        let mode = String::new();
        return Err(Failure::bad_input(format!(
            "error: {shown} is read-only{mode}: nothing was written (make it writable, as with `chmod u+w`, to save)"
        )));
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        if let Ok(c) = std::ffi::CString::new(target.as_os_str().as_bytes()) {
            // SAFETY: `c` is a valid NUL-terminated path for the call's duration.
            if unsafe { libc::access(c.as_ptr(), libc::W_OK) } != 0 {
                let e = std::io::Error::last_os_error();
                return Err(Failure::bad_input(format!(
                    "error: cannot write {shown}: {e}; nothing was written"
                )));
            }
        }
    }
    Ok(())
}

/// Rewrites `target` in place (the same file, so every hard link and the
/// owner stay): the new size is reserved first, and if the write fails the
/// old text is put back.
fn in_place(target: &Path, text: &str, shown: &str) -> Result<(), Failure> {
    use std::io::{Seek, SeekFrom};
    let fail = |e: std::io::Error| Failure::other(format!("error: cannot write {shown}: {e}"));
    let old = std::fs::read(target).map_err(fail)?;
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .open(target)
        .map_err(fail)?;
    let new_len = text.len() as u64;
    #[cfg(unix)]
    if new_len > old.len() as u64 {
        use std::os::fd::AsRawFd;
        // SAFETY: a valid descriptor; the range is within i64 (a text in memory).
        let r = unsafe { libc::posix_fallocate(file.as_raw_fd(), 0, new_len as libc::off_t) };
        if r != 0 && r != libc::EOPNOTSUPP && r != libc::EINVAL {
            let _ = file.set_len(old.len() as u64);
            return Err(Failure::other(format!(
                "error: cannot write {shown}: {}; nothing was written",
                std::io::Error::from_raw_os_error(r)
            )));
        }
    }
    let write = |file: &mut std::fs::File, bytes: &[u8]| -> std::io::Result<()> {
        file.seek(SeekFrom::Start(0))?;
        file.write_all(bytes)?;
        file.set_len(bytes.len() as u64)?;
        file.sync_all()
    };
    if let Err(e) = write(&mut file, text.as_bytes()) {
        let restored = write(&mut file, &old).is_ok();
        return Err(Failure::other(format!(
            "error: cannot write {shown}: {e}; {}",
            if restored {
                "the old text was put back"
            } else {
                "the old text could not be put back either"
            }
        )));
    }
    Ok(())
}

/// The temporary file a write goes to before it is renamed over the real
/// one: unnamed where the system allows (Linux's `O_TMPFILE`), so nothing
/// is left behind however the process ends, given a name only just before
/// the rename; else a named file removed on any error.
enum Temporary {
    #[cfg(target_os = "linux")]
    Unnamed(std::fs::File),
    Named(tempfile::NamedTempFile),
}

impl Temporary {
    fn new(folder: &Path) -> std::io::Result<Temporary> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::OpenOptionsExt;
            if let Ok(file) = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .mode(0o600)
                .custom_flags(libc::O_TMPFILE)
                .open(folder)
            {
                return Ok(Temporary::Unnamed(file));
            }
        }
        tempfile::Builder::new()
            .prefix(".nutshell-")
            .suffix(".tmp")
            .tempfile_in(folder)
            .map(Temporary::Named)
    }

    fn file(&mut self) -> &mut std::fs::File {
        match self {
            #[cfg(target_os = "linux")]
            Temporary::Unnamed(f) => f,
            Temporary::Named(t) => t.as_file_mut(),
        }
    }

    /// Renames the complete file over `target`.
    fn persist(self, folder: &Path, target: &Path) -> std::io::Result<()> {
        match self {
            #[cfg(target_os = "linux")]
            Temporary::Unnamed(mut file) => {
                use std::os::fd::AsRawFd;
                use std::os::unix::ffi::OsStrExt;
                let name = folder.join(format!(
                    ".nutshell-{}-{}.tmp",
                    std::process::id(),
                    NEXT_NAME.fetch_add(1, Ordering::Relaxed)
                ));
                let from = std::ffi::CString::new(format!("/proc/self/fd/{}", file.as_raw_fd()))
                    .map_err(std::io::Error::other)?;
                let to = std::ffi::CString::new(name.as_os_str().as_bytes())
                    .map_err(std::io::Error::other)?;
                // SAFETY: both paths are valid NUL-terminated strings for the call.
                let linked = unsafe {
                    libc::linkat(
                        libc::AT_FDCWD,
                        from.as_ptr(),
                        libc::AT_FDCWD,
                        to.as_ptr(),
                        libc::AT_SYMLINK_FOLLOW,
                    )
                } == 0;
                if !linked {
                    // No /proc: copy into a named temporary file instead.
                    use std::io::{Seek, SeekFrom};
                    let mut named = tempfile::Builder::new()
                        .prefix(".nutshell-")
                        .suffix(".tmp")
                        .tempfile_in(folder)?;
                    file.seek(SeekFrom::Start(0))?;
                    std::io::copy(&mut file, named.as_file_mut())?;
                    let meta = file.metadata()?;
                    named.as_file().set_permissions(meta.permissions())?;
                    {
                        use std::os::unix::fs::MetadataExt;
                        let _ = std::os::unix::fs::fchown(
                            named.as_file(),
                            Some(meta.uid()),
                            Some(meta.gid()),
                        );
                    }
                    named.as_file().sync_all()?;
                    return named.persist(target).map(drop).map_err(|e| e.error);
                }
                std::fs::rename(&name, target).inspect_err(|_| {
                    let _ = std::fs::remove_file(&name);
                })
            }
            Temporary::Named(t) => {
                let _ = folder;
                t.persist(target).map(drop).map_err(|e| e.error)
            }
        }
    }
}

#[cfg(target_os = "linux")]
static NEXT_NAME: AtomicU64 = AtomicU64::new(0);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_interrupted_before_the_rename_leaves_the_old_file_intact() {
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("hero.toml");
        std::fs::write(&sheet, "name = \"Hero\"\n# notes\n").unwrap();
        let crash = || Err(std::io::Error::other("the power went out"));
        let failure = write_atomic_with(&sheet, "name = \"Hero\"\ncp = 3\n", crash).unwrap_err();
        assert!(failure.message.contains("the power went out"));
        assert_eq!(
            std::fs::read_to_string(&sheet).unwrap(),
            "name = \"Hero\"\n# notes\n"
        );
        let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(left.len(), 1, "no temporary file is left behind");
        write_atomic(&sheet, "name = \"Hero\"\ncp = 3\n").unwrap();
        assert_eq!(
            std::fs::read_to_string(&sheet).unwrap(),
            "name = \"Hero\"\ncp = 3\n"
        );
    }

    /// A write killed before its rename (even by SIGKILL, which nothing can
    /// clean up after) leaves no file behind: until the moment before the
    /// rename, the temporary file has no name.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_temporary_file_has_no_name_until_the_rename() {
        let dir = tempfile::tempdir().unwrap();
        let sheet = dir.path().join("hero.toml");
        std::fs::write(&sheet, "old").unwrap();
        let mut temporary = Temporary::new(dir.path()).unwrap();
        assert!(matches!(temporary, Temporary::Unnamed(_)), "O_TMPFILE");
        temporary.file().write_all(b"new").unwrap();
        let names = || std::fs::read_dir(dir.path()).unwrap().count();
        assert_eq!(names(), 1, "nothing to leave behind");
        temporary.persist(dir.path(), &sheet).unwrap();
        assert_eq!(names(), 1);
        assert_eq!(std::fs::read_to_string(&sheet).unwrap(), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_nothing_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("hero.toml");
        std::os::unix::fs::symlink(dir.path().join("gone.toml"), &link).unwrap();
        let e = write_atomic(&link, "x").unwrap_err().message;
        assert!(e.contains("a link to a file that cannot be reached"), "{e}");
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
    }

    #[test]
    fn a_file_over_the_limit_is_refused_with_its_size_and_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("side.toml");
        std::fs::write(&big, vec![b'#'; 2000]).unwrap();
        let text = read_limited(std::fs::File::open(&big).unwrap(), "side.toml", 1000)
            .unwrap_err()
            .message;
        assert!(text.contains("side.toml is too large"), "{text}");
        assert!(text.contains("the limit is 1000 bytes"), "{text}");
        assert_eq!(
            read_limited(&b"ok"[..], "input", 2).unwrap(),
            "ok",
            "at the limit is allowed"
        );
    }
}
