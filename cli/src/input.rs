//! Finding the files to check: game or mod directories, single files.
//!
//! A directory is laid out like the game's: `mp/playeranim.script`,
//! `animtrees/*.atr`, `weapons/mp/<weapon>` files, `xanim/<asset>` files.
//! The flat layout of a directory holding just the files
//! (`playeranim.script`, `*.atr`, `weapons_mp.txt`: one weapon name a line)
//! is accepted too. Several paths are layered in the order given: a later
//! file of the same role replaces an earlier one.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

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
#[derive(Default, Debug)]
pub struct Inputs {
    pub script: Option<SourceFile>,
    /// Trees by name, in name order.
    pub trees: Vec<SourceFile>,
    /// Weapon names, weapon 1 first (`none` is weapon 0, added by the module).
    pub weapons: Option<Vec<Vec<u8>>>,
    /// Where the weapon list came from.
    pub weapons_from: Option<String>,
    /// Lower-case names of the xanim assets found (None: no xanim/ directory).
    pub xanims: Option<BTreeSet<Vec<u8>>>,
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
            Some("pk3") | Some("iwd") => Err(format!("{}: .pk3/.iwd archives are not supported yet; extract them into a directory", path.display())),
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
            self.set_weapons(&weapon_dir)?;
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
            let text = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
            text.split(|&b| b == b'\n')
                .map(|l| l.strip_suffix(b"\r").unwrap_or(l).trim_ascii().to_vec())
                .filter(|l| !l.is_empty() && !l.starts_with(b"#") && !l.starts_with(b"//"))
                .collect()
        };
        self.weapons = Some(names);
        self.weapons_from = Some(path.display().to_string());
        Ok(())
    }
}

fn tree_name(path: &Path) -> String {
    path.file_stem().and_then(|s| s.to_str()).unwrap_or("").to_ascii_lowercase()
}

fn read_source(path: &Path) -> Result<SourceFile, String> {
    let text = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(SourceFile { display: path.display().to_string(), name: String::new(), text })
}

fn sorted_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Ok(files)
}
