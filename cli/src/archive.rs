//! `.pk3` / `.iwd` archives: zip files, read without a zip library (the
//! central directory, stored and deflated members; no zip64, no
//! encryption, which the game's archives do not use).

/// One member of an archive.
pub struct Member {
    /// Its path inside the archive (`/` separators).
    pub name: String,
    method: u16,
    compressed: usize,
    size: usize,
    local_offset: usize,
}

/// A zip archive in memory.
pub struct Archive {
    bytes: Vec<u8>,
    pub members: Vec<Member>,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

impl Archive {
    /// Reads the central directory of `bytes`.
    pub fn parse(bytes: Vec<u8>) -> Result<Archive, String> {
        const EOCD: u32 = 0x0605_4b50;
        const CENTRAL: u32 = 0x0201_4b50;
        let min = bytes.len().saturating_sub(22 + 65535);
        let eocd = (min..=bytes.len().saturating_sub(22))
            .rev()
            .find(|&i| u32_at(&bytes, i) == Some(EOCD))
            .ok_or("not a zip archive (no end of central directory)")?;
        let count = usize::from(u16_at(&bytes, eocd + 10).ok_or("truncated archive")?);
        let mut at = u32_at(&bytes, eocd + 16).ok_or("truncated archive")? as usize;
        let mut members = Vec::with_capacity(count);
        for _ in 0..count {
            if u32_at(&bytes, at) != Some(CENTRAL) {
                return Err("bad central directory entry".into());
            }
            let field = |off: usize| u16_at(&bytes, at + off).ok_or("truncated archive");
            let method = field(10)?;
            let name_len = usize::from(field(28)?);
            let extra_len = usize::from(field(30)?);
            let comment_len = usize::from(field(32)?);
            let compressed = u32_at(&bytes, at + 20).ok_or("truncated archive")? as usize;
            let size = u32_at(&bytes, at + 24).ok_or("truncated archive")? as usize;
            let local_offset = u32_at(&bytes, at + 42).ok_or("truncated archive")? as usize;
            let name = bytes.get(at + 46..at + 46 + name_len).ok_or("truncated archive")?;
            let name = String::from_utf8_lossy(name).replace('\\', "/");
            members.push(Member { name, method, compressed, size, local_offset });
            at += 46 + name_len + extra_len + comment_len;
        }
        Ok(Archive { bytes, members })
    }

    /// The bytes of a member.
    pub fn read(&self, member: &Member) -> Result<Vec<u8>, String> {
        const LOCAL: u32 = 0x0403_4b50;
        let at = member.local_offset;
        if u32_at(&self.bytes, at) != Some(LOCAL) {
            return Err(format!("{}: bad local header", member.name));
        }
        let name_len = usize::from(u16_at(&self.bytes, at + 26).ok_or("truncated archive")?);
        let extra_len = usize::from(u16_at(&self.bytes, at + 28).ok_or("truncated archive")?);
        let start = at + 30 + name_len + extra_len;
        let data = self.bytes.get(start..start + member.compressed).ok_or_else(|| format!("{}: truncated member", member.name))?;
        match member.method {
            0 => Ok(data.to_vec()),
            8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, member.size.max(1) * 2 + 1024)
                .map_err(|e| format!("{}: bad deflate data ({e:?})", member.name)),
            m => Err(format!("{}: compression method {m} is not supported", member.name)),
        }
    }
}

#[cfg(test)]
pub(crate) use tests::build as build_zip;

#[cfg(test)]
mod tests {
    use super::*;

    /// A zip with one stored and one deflated member, built here.
    fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        for (name, data, deflate) in members {
            let body = if *deflate { miniz_oxide::deflate::compress_to_vec(data, 6) } else { data.to_vec() };
            let offset = out.len() as u32;
            let method: u16 = if *deflate { 8 } else { 0 };
            let mut header = Vec::new();
            header.extend(0x0403_4b50u32.to_le_bytes());
            header.extend([20, 0, 0, 0]);
            header.extend(method.to_le_bytes());
            header.extend([0; 8]); // time, date, crc (not checked)
            header.extend((body.len() as u32).to_le_bytes());
            header.extend((data.len() as u32).to_le_bytes());
            header.extend((name.len() as u16).to_le_bytes());
            header.extend([0, 0]);
            header.extend(name.as_bytes());
            out.extend(&header);
            out.extend(&body);
            central.extend(0x0201_4b50u32.to_le_bytes());
            central.extend([20, 0, 20, 0, 0, 0]);
            central.extend(method.to_le_bytes());
            central.extend([0; 8]);
            central.extend((body.len() as u32).to_le_bytes());
            central.extend((data.len() as u32).to_le_bytes());
            central.extend((name.len() as u16).to_le_bytes());
            central.extend([0; 12]);
            central.extend(offset.to_le_bytes());
            central.extend(name.as_bytes());
        }
        let cd_offset = out.len() as u32;
        out.extend(&central);
        out.extend(0x0605_4b50u32.to_le_bytes());
        out.extend([0; 4]);
        out.extend((members.len() as u16).to_le_bytes());
        out.extend((members.len() as u16).to_le_bytes());
        out.extend((central.len() as u32).to_le_bytes());
        out.extend(cd_offset.to_le_bytes());
        out.extend([0, 0]);
        out
    }

    #[test]
    fn stored_and_deflated_members() {
        let text = b"ANIMATIONS\nstate COMBAT\n{\n}\n".repeat(20);
        let a = Archive::parse(zip(&[("mp/playeranim.script", &text, true), ("animtrees\\x.atr", b"a\n", false)])).unwrap();
        assert_eq!(a.members.len(), 2);
        assert_eq!(a.members[1].name, "animtrees/x.atr");
        assert_eq!(a.read(&a.members[0]).unwrap(), text);
        assert_eq!(a.read(&a.members[1]).unwrap(), b"a\n");
    }

    #[test]
    fn not_a_zip() {
        assert!(Archive::parse(b"hello".to_vec()).is_err());
    }

    pub(crate) fn build(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        zip(members)
    }
}
