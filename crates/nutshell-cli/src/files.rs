//! Every file the command line reads or writes goes through here: sides,
//! sheets, maps, tables, choices, and standard input.
//!
//! - Reading refuses a file larger than the limit *before* parsing it (a
//!   9 MB side file would otherwise cost seconds and hundreds of megabytes
//!   before any other check could refuse it). The limit is 1 MiB by default
//!   ([`DEFAULT_MAX_FILE_BYTES`]) and set with `--max-file-size BYTES`.
//! - Writing is atomic: the text goes to a temporary file in the same folder,
//!   is flushed and synced to the disk, then renamed over the old file. A crash
//!   or a full disk mid-write leaves the old file whole.

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

/// Writes `text` to `path` atomically: a temporary file in the same folder,
/// flushed and synced, then renamed over `path`.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), Failure> {
    write_atomic_with(path, text, || Ok(()))
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
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::Builder::new()
        .prefix(".nutshell-")
        .suffix(".tmp")
        .tempfile_in(folder)
        .map_err(fail)?;
    temporary.write_all(text.as_bytes()).map_err(fail)?;
    temporary.flush().map_err(fail)?;
    temporary.as_file().sync_all().map_err(fail)?;
    // Keep the old file's permissions (a sheet kept private stays private).
    if let Ok(meta) = std::fs::metadata(path) {
        let _ = temporary.as_file().set_permissions(meta.permissions());
    }
    before_rename().map_err(fail)?;
    temporary.persist(path).map_err(|e| fail(e.error))?;
    // Make the rename itself durable where the platform allows it.
    if let Ok(dir) = std::fs::File::open(folder) {
        let _ = dir.sync_all();
    }
    Ok(())
}

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
