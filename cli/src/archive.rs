//! `.pk3` / `.iwd` archives: zip files, read with the `zip` crate (stored
//! and deflated members), within limits on the number of members and on
//! the inflated size, so that a hostile archive (a zip bomb) gets a clear
//! error instead of filling the memory. A pak on disk is read where its
//! members are (the game's paks are large): its central directory, then
//! only the members asked for.

use std::io::{BufReader, Cursor, Read, Seek};
use std::path::Path;

/// What an archive is read from: bytes in memory or a file.
trait ReadSeek: Read + Seek {}
impl<T: Read + Seek> ReadSeek for T {}

/// At most this many members in one archive (the game's largest hold a few
/// thousand).
pub const MAX_ENTRIES: usize = 65_536;
/// At most this many bytes inflated from one member.
pub const MAX_MEMBER_SIZE: u64 = 64 << 20;
/// At most this many bytes inflated from one archive, all members read.
pub const MAX_TOTAL_SIZE: u64 = 256 << 20;

/// One member of an archive.
#[derive(Clone, Debug)]
pub struct Member {
    /// Its path inside the archive (`/` separators).
    pub name: String,
    index: usize,
}

/// A zip archive.
pub struct Archive {
    zip: zip::ZipArchive<Box<dyn ReadSeek>>,
    pub members: Vec<Member>,
    inflated: u64,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive").field("members", &self.members.len()).finish()
    }
}

impl Archive {
    /// Reads the central directory of `bytes`.
    pub fn parse(bytes: Vec<u8>) -> Result<Archive, String> {
        Archive::new(Box::new(Cursor::new(bytes)))
    }

    /// Reads the central directory of the archive at `path` (its members
    /// are read from the file when asked for).
    pub fn open(path: &Path) -> Result<Archive, String> {
        let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
        Archive::new(Box::new(BufReader::new(file)))
    }

    fn new(reader: Box<dyn ReadSeek>) -> Result<Archive, String> {
        let zip = zip::ZipArchive::new(reader).map_err(|e| format!("not a readable zip archive ({e})"))?;
        if zip.len() > MAX_ENTRIES {
            return Err(format!("{} members: more than the {MAX_ENTRIES} an archive may hold", zip.len()));
        }
        let members = (0..zip.len())
            .filter_map(|index| zip.name_for_index(index).map(|n| Member { name: n.replace('\\', "/"), index }))
            .collect();
        Ok(Archive { zip, members, inflated: 0 })
    }

    /// The bytes of a member.
    pub fn read(&mut self, member: &Member) -> Result<Vec<u8>, String> {
        let mut file = self.zip.by_index(member.index).map_err(|e| format!("{}: {e}", member.name))?;
        let limit = MAX_MEMBER_SIZE.min(MAX_TOTAL_SIZE - self.inflated);
        if file.size() > limit {
            return Err(format!("{}: {} bytes inflated: over the limit of {limit} bytes (a zip bomb?)", member.name, file.size()));
        }
        // The declared size may lie: read at most one byte past the limit.
        let mut out = Vec::with_capacity(file.size() as usize);
        (&mut file).take(limit + 1).read_to_end(&mut out).map_err(|e| format!("{}: {e}", member.name))?;
        if out.len() as u64 > limit {
            return Err(format!("{}: inflates past the limit of {limit} bytes (a zip bomb?)", member.name));
        }
        self.inflated += out.len() as u64;
        Ok(out)
    }
}

#[cfg(test)]
pub(crate) use tests::build as build_zip;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use zip::write::SimpleFileOptions;

    /// A zip of stored and deflated members, built here.
    pub(crate) fn build(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        for (name, data, deflate) in members {
            let method = if *deflate { zip::CompressionMethod::Deflated } else { zip::CompressionMethod::Stored };
            w.start_file(*name, SimpleFileOptions::default().compression_method(method)).unwrap();
            w.write_all(data).unwrap();
        }
        w.finish().unwrap().into_inner()
    }

    #[test]
    fn stored_and_deflated_members() {
        let text = b"ANIMATIONS\nstate COMBAT\n{\n}\n".repeat(20);
        let mut a = Archive::parse(build(&[("mp/playeranim.script", &text, true), ("animtrees\\x.atr", b"a\n", false)])).unwrap();
        assert_eq!(a.members.len(), 2);
        assert_eq!(a.members[1].name, "animtrees/x.atr");
        let m: Vec<Member> = a.members.drain(..).collect();
        assert_eq!(a.read(&m[0]).unwrap(), text);
        assert_eq!(a.read(&m[1]).unwrap(), b"a\n");
    }

    #[test]
    fn not_a_zip() {
        assert!(Archive::parse(b"hello".to_vec()).expect_err("refused").starts_with("not a readable zip archive"));
    }

    #[test]
    fn a_zip_bomb_gets_a_clear_error() {
        // 80 MiB of zeros deflate to about 80 KiB.
        let zeros = vec![0u8; 80 << 20];
        let bytes = build(&[("mp/playeranim.script", &zeros, true)]);
        assert!(bytes.len() < 1 << 20);
        let mut a = Archive::parse(bytes).unwrap();
        let m: Vec<Member> = a.members.drain(..).collect();
        let e = a.read(&m[0]).unwrap_err();
        assert!(e.contains("over the limit") && e.contains("zip bomb"), "{e}");
    }

    #[test]
    fn too_many_members_get_a_clear_error() {
        let names: Vec<String> = (0..=MAX_ENTRIES).map(|i| format!("x/{i}")).collect();
        let members: Vec<(&str, &[u8], bool)> = names.iter().map(|n| (n.as_str(), &b""[..], false)).collect();
        let e = Archive::parse(build(&members)).expect_err("refused");
        assert!(e.contains("more than the 65536"), "{e}");
    }
}
