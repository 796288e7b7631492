//! The data directory is private to the server's user (issue 18): it holds the store,
//! whose registry names every match's server seed (sealed, see [`crate::seal`]), and the
//! director token. Made so on creation and on every start, which also fixes directories
//! made by older versions (0755 with 0644 files).

use std::io;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Mode of every directory under the data directory, itself included.
pub const DIR_MODE: u32 = 0o700;
/// Mode of every file under the data directory.
pub const FILE_MODE: u32 = 0o600;

/// Creates `dir` if need be and makes it and everything under it private: directories
/// 0700, files 0600. Symbolic links are left alone (and not followed): the server makes
/// none, and a link elsewhere is the operator's choice.
pub fn make_private(dir: &Path) -> io::Result<()> {
    std::fs::create_dir_all(dir)?;
    restrict(dir)
}

fn restrict(path: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    let file_type = meta.file_type();
    if file_type.is_symlink() {
        return Ok(());
    }
    let mode = if file_type.is_dir() {
        DIR_MODE
    } else {
        FILE_MODE
    };
    if meta.permissions().mode() & 0o777 != mode {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))?;
    }
    if file_type.is_dir() {
        for entry in std::fs::read_dir(path)? {
            restrict(&entry?.path())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn an_older_open_directory_is_made_private() {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("data");
        std::fs::create_dir_all(data.join("store/blobs")).unwrap();
        std::fs::write(data.join("store/db"), b"seeds").unwrap();
        for (path, m) in [
            (data.clone(), 0o755),
            (data.join("store"), 0o755),
            (data.join("store/blobs"), 0o755),
            (data.join("store/db"), 0o644),
        ] {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(m)).unwrap();
        }
        make_private(&data).unwrap();
        assert_eq!(mode(&data), 0o700);
        assert_eq!(mode(&data.join("store")), 0o700);
        assert_eq!(mode(&data.join("store/blobs")), 0o700);
        assert_eq!(mode(&data.join("store/db")), 0o600);
    }

    #[test]
    fn a_new_directory_is_made_private() {
        let root = tempfile::tempdir().unwrap();
        let data = root.path().join("a/b");
        make_private(&data).unwrap();
        assert_eq!(mode(&data), 0o700);
    }
}
