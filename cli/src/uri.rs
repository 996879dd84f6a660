//! `file:` URIs (RFC 8089, as LSP clients send them) and paths, both ways,
//! for Unix and Windows paths.
//!
//! The conversions are plain string functions with the path flavour as a
//! parameter, so that both flavours are tested on every target; [`to_path`]
//! and [`from_path`] use the flavour of the target the tool is built for.
//!
//! Windows: `file:///c%3A/mod/x.atr` (VS Code's form: drive letter in lower
//! case, `:` escaped) and `file:///C:/mod/x.atr` (Neovim's) are both
//! `C:\mod\x.atr`; `file://server/share/x` is `\\server\share\x`. A path
//! gives VS Code's form. Unix: `file:///home/m%20x/a` is `/home/m x/a`.

use std::path::{Path, PathBuf};

/// The bytes of `s` with `%XX` escapes decoded (a `%` not followed by two
/// hex digits is kept).
fn percent_decode(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = ((b[i + 1] as char).to_digit(16), (b[i + 2] as char).to_digit(16)) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    out
}

/// `s` with every byte but the unreserved ones (RFC 3986) and `/` escaped.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The path of a `file:` URI, for Windows (`windows`) or Unix; None for
/// another scheme.
pub fn uri_to_path(uri: &str, windows: bool) -> Option<String> {
    let rest = uri.get(..5).filter(|s| s.eq_ignore_ascii_case("file:")).map(|_| &uri[5..])?;
    // Query and fragment are not part of the path.
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (host, path) = match rest.strip_prefix("//") {
        Some(r) => match r.find('/') {
            Some(i) => (&r[..i], &r[i..]),
            None => (r, ""),
        },
        None => ("", rest),
    };
    let path = String::from_utf8_lossy(&percent_decode(path)).into_owned();
    let host = if host.eq_ignore_ascii_case("localhost") { "" } else { host };
    if !windows {
        let path = if path.is_empty() { "/".to_string() } else { path };
        return Some(if host.is_empty() { path } else { format!("//{host}{path}") });
    }
    if !host.is_empty() {
        return Some(format!("\\\\{host}{}", path.replace('/', "\\")));
    }
    // `/c:/x` → `C:\x`
    let b = path.as_bytes();
    let drive = b.len() >= 3 && b[0] == b'/' && b[1].is_ascii_alphabetic() && b[2] == b':';
    let path = if drive {
        let rest = &path[3..];
        format!("{}:{}", (b[1] as char).to_ascii_uppercase(), if rest.is_empty() { "\\".to_string() } else { rest.replace('/', "\\") })
    } else {
        path.replace('/', "\\")
    };
    Some(path)
}

/// The `file:` URI of an absolute path, for Windows (`windows`) or Unix.
pub fn path_to_uri(path: &str, windows: bool) -> String {
    if !windows {
        return format!("file://{}", percent_encode(path));
    }
    let p = path.replace('\\', "/");
    // `\\?\C:\x` (a verbatim path) is `C:\x`; `\\?\UNC\server\x` is `\\server\x`.
    let p = match p.strip_prefix("//?/") {
        Some(r) => match r.strip_prefix("UNC/") {
            Some(unc) => format!("//{unc}"),
            None => r.to_string(),
        },
        None => p,
    };
    if let Some(unc) = p.strip_prefix("//") {
        let (host, rest) = unc.split_once('/').unwrap_or((unc, ""));
        return format!("file://{host}/{}", percent_encode(rest));
    }
    let b = p.as_bytes();
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return format!("file:///{}%3A{}", (b[0] as char).to_ascii_lowercase(), percent_encode(&p[2..]));
    }
    format!("file://{}{}", if p.starts_with('/') { "" } else { "/" }, percent_encode(&p))
}

/// A URI reference for a path as the tool prints it (SARIF's
/// `artifactLocation.uri`): an absolute path's `file:` URI, else the
/// relative path with `/` separators, escaped.
pub fn reference(path: &str, windows: bool) -> String {
    let b = path.as_bytes();
    let absolute = if windows { path.starts_with("\\\\") || path.starts_with("//") || (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/')) } else { path.starts_with('/') };
    if absolute {
        return path_to_uri(path, windows);
    }
    percent_encode(&if windows { path.replace('\\', "/") } else { path.to_string() })
}

/// The path of a `file:` URI on this target.
pub fn to_path(uri: &str) -> Option<PathBuf> {
    uri_to_path(uri, cfg!(windows)).map(PathBuf::from)
}

/// The `file:` URI of a path on this target (made absolute against the
/// current directory).
pub fn from_path(path: &Path) -> String {
    let abs = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().map(|d| d.join(path)).unwrap_or_else(|_| path.to_path_buf()) };
    path_to_uri(&abs.to_string_lossy(), cfg!(windows))
}

/// A key for comparing paths of this target: separators unified, and on
/// Windows case folded (its file names ignore case).
pub fn path_key(path: &Path) -> String {
    let s = path.to_string_lossy();
    if cfg!(windows) {
        s.replace('/', "\\").to_lowercase()
    } else {
        s.into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_drive_letters_both_ways() {
        for uri in ["file:///c%3A/mod/animtrees/multiplayer.atr", "file:///C:/mod/animtrees/multiplayer.atr", "file:///c%3a/mod/animtrees/multiplayer.atr"] {
            assert_eq!(uri_to_path(uri, true).as_deref(), Some(r"C:\mod\animtrees\multiplayer.atr"), "{uri}");
        }
        assert_eq!(path_to_uri(r"C:\mod\animtrees\multiplayer.atr", true), "file:///c%3A/mod/animtrees/multiplayer.atr");
        // Mixed separators give the same URI.
        assert_eq!(path_to_uri(r"C:\mod/animtrees\multiplayer.atr", true), "file:///c%3A/mod/animtrees/multiplayer.atr");
        assert_eq!(path_to_uri(r"\\?\C:\mod\x.atr", true), "file:///c%3A/mod/x.atr");
        assert_eq!(uri_to_path("file:///d%3A", true).as_deref(), Some(r"D:\"));
    }

    #[test]
    fn windows_escapes_and_shares() {
        let p = r"C:\Program Files (x86)\Call of Duty\uo\mods\m\mp\playeranim.script";
        let uri = path_to_uri(p, true);
        assert_eq!(uri, "file:///c%3A/Program%20Files%20%28x86%29/Call%20of%20Duty/uo/mods/m/mp/playeranim.script");
        assert_eq!(uri_to_path(&uri, true).as_deref(), Some(p));
        assert_eq!(uri_to_path("file://server/share/mod/x.atr", true).as_deref(), Some(r"\\server\share\mod\x.atr"));
        assert_eq!(path_to_uri(r"\\server\share\mod\x.atr", true), "file://server/share/mod/x.atr");
        let accented = "C:\\mods\\caf\u{e9}\\x.atr";
        assert_eq!(path_to_uri(accented, true), "file:///c%3A/mods/caf%C3%A9/x.atr");
        assert_eq!(uri_to_path("file:///c%3A/mods/caf%C3%A9/x.atr", true).as_deref(), Some(accented));
        assert_eq!(uri_to_path("file:///C:/a%2Fb?x#y", true).as_deref(), Some(r"C:\a\b"));
    }

    #[test]
    fn references_of_printed_paths() {
        assert_eq!(reference(r"mods\m y\mp\playeranim.script", true), "mods/m%20y/mp/playeranim.script");
        assert_eq!(reference(r"C:\mods\m\x.atr", true), "file:///c%3A/mods/m/x.atr");
        assert_eq!(reference(r"\\server\mods\x.atr", true), "file://server/mods/x.atr");
        assert_eq!(reference("mods/m/x.atr", false), "mods/m/x.atr");
        assert_eq!(reference("/home/m/x.atr", false), "file:///home/m/x.atr");
    }

    #[test]
    fn unix_paths_both_ways() {
        assert_eq!(uri_to_path("file:///home/m%20x/mp/playeranim.script", false).as_deref(), Some("/home/m x/mp/playeranim.script"));
        assert_eq!(uri_to_path("file://localhost/home/a", false).as_deref(), Some("/home/a"));
        assert_eq!(path_to_uri("/home/m x/caf\u{e9}.atr", false), "file:///home/m%20x/caf%C3%A9.atr");
        assert_eq!(uri_to_path("untitled:Untitled-1", false), None);
        assert_eq!(uri_to_path("FILE:///x", false).as_deref(), Some("/x"));
        // A '%' not followed by two hex digits stays.
        assert_eq!(uri_to_path("file:///a%zz%4", false).as_deref(), Some("/a%zz%4"));
    }

    #[test]
    fn this_targets_paths_round_trip() {
        let dir = std::env::temp_dir().join("uoanim uri test").join("caf\u{e9}");
        let uri = from_path(&dir);
        assert!(uri.starts_with("file:///"), "{uri}");
        assert!(!uri.contains('\\') && !uri.contains(' '), "{uri}");
        assert_eq!(path_key(&to_path(&uri).unwrap()), path_key(&dir));
        assert_eq!(from_path(&to_path(&uri).unwrap()), uri);
    }
}
