//! Finding the files to check: game or mod directories, single files.
//!
//! A directory is laid out like the game's: `mp/playeranim.script`,
//! `animtrees/*.atr`, `weapons/mp/<weapon>` files, `xanim/<asset>` files.
//! The flat layout of a directory holding just the files
//! (`playeranim.script`, `*.atr`, `weapons_mp.txt`: one weapon name a line)
//! is accepted too. A `.pk3` / `.iwd` archive holds the game layout.
//! Several paths are layered in the order given: a later file of the same
//! role replaces an earlier one. In a directory, its archives are layered
//! over its loose files, in name order, as the game searches them.
//! Weapon names and xanim asset names are gathered from every layer.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

/// A path as the tool prints it: on Windows with `\\` separators only (a
/// directory given as `C:/mod` and the files found in it alike, never
/// `C:/mod\\animtrees/x.atr`), elsewhere as it is.
pub fn display_path(path: &Path) -> String {
    let s = path.display().to_string();
    if cfg!(windows) {
        s.replace('/', "\\")
    } else {
        s
    }
}

/// One text file to check.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The path as shown in diagnostics.
    pub display: String,
    /// For a tree: its name (file stem, lower case).
    pub name: String,
    pub text: Vec<u8>,
}

/// Everything found on the command line.
#[derive(Default, Debug, Clone)]
pub struct Inputs {
    pub script: Option<SourceFile>,
    /// Trees by name, in name order.
    pub trees: Vec<SourceFile>,
    /// Weapon names, weapon 1 first (`none` is weapon 0, added by the module).
    pub weapons: Option<Vec<Vec<u8>>>,
    /// Where the weapon list came from.
    pub weapons_from: Option<String>,
    /// The `weaponClass` of each weapon file read (lower-case weapon name →
    /// lower-case class name).
    pub weapon_classes: HashMap<Vec<u8>, Vec<u8>>,
    /// Lower-case names of the xanim assets found (None: no xanim/ directory).
    pub xanims: Option<BTreeSet<Vec<u8>>>,
    /// Without a multiplayer tree, check with none (names unchecked, the
    /// entries made of the script's names, as the differential suites'
    /// tree stub does) instead of the stock tree.
    pub without_tree: bool,
}

impl Inputs {
    /// The multiplayer tree (`multiplayer.atr`), if found.
    pub fn multiplayer_tree(&self) -> Option<&SourceFile> {
        self.trees.iter().find(|t| t.name == "multiplayer")
    }

    /// Files in the order diagnostics are listed: the script, then the trees.
    pub fn file_order(&self) -> Vec<String> {
        self.script.iter().chain(self.trees.iter()).map(|f| f.display.clone()).collect()
    }

    fn add_tree(&mut self, file: SourceFile) {
        self.trees.retain(|t| t.name != file.name);
        self.trees.push(file);
        self.trees.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// Adds one path (directory or file).
    pub fn add_path(&mut self, path: &Path) -> Result<(), String> {
        if path.is_dir() {
            return self.add_dir(path);
        }
        let ext = path.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("pk3") | Some("iwd") => self.add_archive(path),
            Some("atr") => {
                let file = read_source(path)?;
                self.add_tree(SourceFile { name: tree_name(path), ..file });
                Ok(())
            }
            _ => {
                self.script = Some(read_source(path)?);
                Ok(())
            }
        }
    }

    fn add_dir(&mut self, dir: &Path) -> Result<(), String> {
        for candidate in ["mp/playeranim.script", "playeranim.script"] {
            let p = dir.join(candidate);
            if p.is_file() {
                self.script = Some(read_source(&p)?);
                break;
            }
        }
        let tree_dir = if dir.join("animtrees").is_dir() { dir.join("animtrees") } else { dir.to_path_buf() };
        for p in sorted_files(&tree_dir)? {
            if p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("atr")) {
                let file = read_source(&p)?;
                self.add_tree(SourceFile { name: tree_name(&p), ..file });
            }
        }
        let weapon_dir = dir.join("weapons/mp");
        if weapon_dir.is_dir() {
            let mut names = Vec::new();
            for p in sorted_files(&weapon_dir)? {
                let Some(name) = p.file_name().and_then(|n| n.to_str()).map(|n| n.as_bytes().to_vec()) else { continue };
                if let Some(class) = fs::read(&p).ok().as_deref().and_then(weapon_class) {
                    self.weapon_classes.insert(name.to_ascii_lowercase(), class);
                }
                names.push(name);
            }
            self.merge_weapons(names, &display_path(&weapon_dir));
        } else if dir.join("weapons_mp.txt").is_file() {
            self.set_weapons(&dir.join("weapons_mp.txt"))?;
        }
        let xanim_dir = dir.join("xanim");
        if xanim_dir.is_dir() {
            let set = self.xanims.get_or_insert_with(BTreeSet::new);
            for p in sorted_files(&xanim_dir)? {
                if let Some(name) = p.file_name().and_then(|n| n.to_str()) {
                    set.insert(name.to_ascii_lowercase().into_bytes());
                }
            }
        }
        let mut archives: Vec<PathBuf> = sorted_files(dir)?
            .into_iter()
            .filter(|p| p.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("pk3") || e.eq_ignore_ascii_case("iwd")))
            .collect();
        archives.sort_by_key(|p| p.file_name().map(|n| n.to_string_lossy().to_ascii_lowercase()));
        for a in archives {
            self.add_archive(&a)?;
        }
        Ok(())
    }

    /// Adds the weapon names of one layer to those found so far (a list
    /// given with `--weapons` replaces them instead).
    fn merge_weapons(&mut self, names: Vec<Vec<u8>>, from: &str) {
        let mut all: BTreeSet<Vec<u8>> = self.weapons.take().unwrap_or_default().into_iter().collect();
        all.extend(names);
        self.weapons = Some(all.into_iter().collect());
        self.weapons_from = Some(match self.weapons_from.take() {
            Some(before) => format!("{before}, {from}"),
            None => from.to_string(),
        });
    }

    /// Adds the files of a `.pk3` / `.iwd` archive (members named
    /// `<archive>/<member>` in diagnostics).
    pub fn add_archive(&mut self, path: &Path) -> Result<(), String> {
        let bytes = fs::read(path).map_err(|e| format!("{}: {e}", display_path(path)))?;
        let mut archive = crate::archive::Archive::parse(bytes).map_err(|e| format!("{}: {e}", display_path(path)))?;
        let members = std::mem::take(&mut archive.members);
        let mut weapons = Vec::new();
        for m in &members {
            let lower = m.name.to_ascii_lowercase();
            let display = display_path(Path::new(&format!("{}/{}", path.display(), m.name)));
            if lower == "mp/playeranim.script" {
                let text = archive.read(m).map_err(|e| format!("{}: {e}", display_path(path)))?;
                self.script = Some(SourceFile { display, name: String::new(), text });
            } else if let Some(file) = lower.strip_prefix("animtrees/").filter(|f| f.ends_with(".atr") && !f.contains('/')) {
                let text = archive.read(m).map_err(|e| format!("{}: {e}", display_path(path)))?;
                let name = file.trim_end_matches(".atr").to_string();
                self.add_tree(SourceFile { display, name, text });
            } else if let Some(w) = m.name.strip_prefix("weapons/mp/").filter(|w| !w.is_empty() && !w.contains('/')) {
                if let Some(class) = archive.read(m).ok().as_deref().and_then(weapon_class) {
                    self.weapon_classes.insert(w.as_bytes().to_ascii_lowercase(), class);
                }
                weapons.push(w.as_bytes().to_vec());
            } else if let Some(x) = lower.strip_prefix("xanim/").filter(|x| !x.is_empty() && !x.contains('/')) {
                self.xanims.get_or_insert_with(BTreeSet::new).insert(x.as_bytes().to_vec());
            }
        }
        if !weapons.is_empty() {
            self.merge_weapons(weapons, &display_path(path));
        }
        Ok(())
    }

    /// `--tree`: the multiplayer tree, from any file name.
    pub fn set_multiplayer_tree(&mut self, path: &Path) -> Result<(), String> {
        let file = read_source(path)?;
        self.add_tree(SourceFile { name: "multiplayer".into(), ..file });
        Ok(())
    }

    /// `--weapons`: a `weapons/mp` directory (its file names, in name
    /// order) or a list file (one name a line).
    pub fn set_weapons(&mut self, path: &Path) -> Result<(), String> {
        let names: Vec<Vec<u8>> = if path.is_dir() {
            sorted_files(path)?
                .iter()
                .filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(|n| n.as_bytes().to_vec()))
                .collect()
        } else {
            let text = fs::read(path).map_err(|e| format!("{}: {e}", display_path(path)))?;
            text.split(|&b| b == b'\n')
                .map(|l| l.strip_suffix(b"\r").unwrap_or(l).trim_ascii().to_vec())
                .filter(|l| !l.is_empty() && !l.starts_with(b"#") && !l.starts_with(b"//"))
                .collect()
        };
        self.weapons = Some(names);
        self.weapons_from = Some(display_path(path));
        Ok(())
    }
}

/// The `weaponClass` of a weapon file (`WEAPONFILE` followed by
/// `\key\value` pairs), lower case.
pub fn weapon_class(text: &[u8]) -> Option<Vec<u8>> {
    let rest = text.strip_prefix(b"WEAPONFILE")?;
    let fields: Vec<&[u8]> = rest.split(|&b| b == b'\\').skip(1).collect();
    fields
        .chunks(2)
        .find(|kv| kv.len() == 2 && kv[0].eq_ignore_ascii_case(b"weaponClass"))
        .map(|kv| kv[1].trim_ascii().to_ascii_lowercase())
}

/// One byte as the engine's comparisons read it: a signed char, `a`..`z`
/// folded to upper case.
fn fold(b: u8) -> i32 {
    let c = b as i8 as i32;
    if (b'a' as i32..=b'z' as i32).contains(&c) {
        c - 32
    } else {
        c
    }
}

/// `Q_stricmp`'s order: the order of the weapon list (`BG_SetupWeaponInfo`
/// sorts the names of `weapons/mp/` with it).
pub fn q_stricmp(a: &[u8], b: &[u8]) -> std::cmp::Ordering {
    let key = |s: &[u8]| s.iter().map(|&b| fold(b)).chain(std::iter::once(0)).collect::<Vec<i32>>();
    key(a).cmp(&key(b))
}

fn tree_name(path: &Path) -> String {
    path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_ascii_lowercase()
}

fn read_source(path: &Path) -> Result<SourceFile, String> {
    let text = fs::read(path).map_err(|e| format!("{}: {e}", display_path(path)))?;
    Ok(SourceFile { display: display_path(path), name: String::new(), text })
}

fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", display_path(dir)))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}
