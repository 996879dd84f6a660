//! Finding the files to check as the game's file system finds them.
//!
//! A mod directory is laid out like the game's folders: `mp/playeranim.script`,
//! `animtrees/*.atr`, `weapons/mp/<weapon>` files, `xanim/<asset>` files,
//! loose or in `.pk3` paks; names are matched with case ignored, as the game
//! does. The flat layout of a directory holding just the files
//! (`playeranim.script`, `*.atr`, `weapons_mp.txt`: one weapon name a line)
//! is accepted too, when it has none of those folders.
//!
//! The places searched make a search path, highest first, as the engine's
//! `FS_Startup` builds it (docs/CHECK.md, "Where the files come from"):
//! the PATHs given (a later one first), then the game folder (`--game`):
//! `uo/`, then `main/`. Within one folder its paks come first, the pak last
//! in name order first, then its loose files. The script and each tree are
//! the first found on that path; the weapon names and the xanim asset names
//! are gathered from every place.
//!
//! [`mod_root`] finds a mod's directory from any starting point (the
//! directory, a file in it, a folder inside it): the command line and the
//! language server both use it.

use crate::archive::Archive;
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs;
use std::path::{Component, Path, PathBuf};

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

/// Something finding the files found out about a file (a loose file a pak
/// hides, a file in a folder the game does not read): a diagnostic at the
/// file's start.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub file: String,
    pub code: &'static str,
    pub message: String,
    pub note: Option<String>,
    pub help: Option<String>,
}

/// Where the weapon list comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum WeaponList {
    /// No weapon file and no list: the stock names ([`crate::stock`]).
    #[default]
    Stock,
    /// The weapon files found, the game folder's and the mod's.
    Files,
    /// The mod's weapon files added to the stock names (no game folder):
    /// `own` new ones, `replaced` of the same name as a stock one.
    AddedToStock { own: usize, replaced: usize },
    /// A list given: `weapons_mp.txt`, `--weapons`.
    Given,
}

/// Everything found.
#[derive(Default, Debug, Clone)]
pub struct Inputs {
    pub script: Option<SourceFile>,
    /// Trees by name, in name order.
    pub trees: Vec<SourceFile>,
    /// Weapon names, weapon 1 first (`none` is weapon 0, added by the
    /// module); None: none found, the stock names are assumed.
    pub weapons: Option<Vec<Vec<u8>>>,
    /// Where the weapon list came from.
    pub weapons_from: Option<String>,
    pub weapon_list: WeaponList,
    /// The `weaponClass` of each weapon file read (lower-case weapon name →
    /// lower-case class name).
    pub weapon_classes: HashMap<Vec<u8>, Vec<u8>>,
    /// Lower-case names of the xanim assets found (None: no xanim/ folder).
    pub xanims: Option<BTreeSet<Vec<u8>>>,
    /// The files (by display) found in the game folder, not in the mod:
    /// used for the mod's check, not checked on their own.
    pub game_files: BTreeSet<String>,
    /// What finding the files found out.
    pub notices: Vec<Notice>,
    /// Without a multiplayer tree, check with none (names unchecked, the
    /// entries made of the script's names, as the differential suites'
    /// tree stub does) instead of the stock tree.
    pub without_tree: bool,
}

/// The game paths of the roles the check reads.
const SCRIPT: &str = "mp/playeranim.script";
const TREES: &str = "animtrees/";
const WEAPONS: &str = "weapons/mp/";
const XANIM: &str = "xanim/";

impl Inputs {
    /// The multiplayer tree (`multiplayer.atr`), if found.
    pub fn multiplayer_tree(&self) -> Option<&SourceFile> {
        self.trees.iter().find(|t| t.name == "multiplayer")
    }

    /// Files in the order diagnostics are listed: the script, then the trees.
    pub fn file_order(&self) -> Vec<String> {
        self.script.iter().chain(self.trees.iter()).map(|f| f.display.clone()).collect()
    }

    /// Whether a file of the mod was found (not only the game folder's).
    pub fn has_mod_files(&self) -> bool {
        self.script.iter().chain(self.trees.iter()).any(|f| !self.game_files.contains(&f.display))
    }

    fn add_tree(&mut self, file: SourceFile) {
        self.trees.retain(|t| t.name != file.name);
        self.trees.push(file);
        self.trees.sort_by(|a, b| a.name.cmp(&b.name));
    }

    /// Reads the PATHs (directories, paks, single files; a later one is
    /// searched first) over the game folder `game` (its `uo/` and `main/`),
    /// as the game searches them.
    pub fn load(paths: &[PathBuf], game: Option<&Path>) -> Result<Inputs, String> {
        let mut layers = Vec::new();
        for (group, path) in paths.iter().enumerate().rev() {
            layers.extend(layers_of_path(path, group)?);
        }
        if let Some(g) = game {
            let folders: Vec<PathBuf> = ["uo", "main"].iter().filter_map(|f| find_ci(g, f).filter(|p| p.is_dir())).collect();
            if folders.is_empty() {
                return Err(format!("{}: no main/ or uo/ folder here (--game names the game's folder)", display_path(g)));
            }
            for (i, f) in folders.iter().enumerate() {
                layers.extend(layers_of_dir(f, paths.len() + i, false)?);
            }
        }
        let mut inputs = Inputs::default();
        resolve(&mut inputs, &mut layers, game.is_some())?;
        Ok(inputs)
    }

    /// `--tree`: the multiplayer tree, from any file name.
    pub fn set_multiplayer_tree(&mut self, path: &Path) -> Result<(), String> {
        let file = read_source(path)?;
        self.add_tree(SourceFile { name: "multiplayer".into(), ..file });
        Ok(())
    }

    /// `--weapons`: a `weapons/mp` directory (its file names, in the game's
    /// order) or a list file (one name a line, in its order).
    pub fn set_weapons(&mut self, path: &Path) -> Result<(), String> {
        let names: Vec<Vec<u8>> = if path.is_dir() {
            let mut names: Vec<Vec<u8>> = sorted_files(path)?.iter().filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(|n| n.as_bytes().to_vec())).collect();
            names.sort_by(|a, b| q_stricmp(a, b));
            names
        } else {
            read_list(path)?
        };
        self.weapons = Some(names);
        self.weapons_from = Some(display_path(path));
        self.weapon_list = WeaponList::Given;
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

// ---- the engine's string orders -------------------------------------------------

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
pub fn q_stricmp(a: &[u8], b: &[u8]) -> Ordering {
    let key = |s: &[u8]| s.iter().map(|&b| fold(b)).chain(std::iter::once(0)).collect::<Vec<i32>>();
    key(a).cmp(&key(b))
}

/// `FS_PathCmp`'s order: the order of a folder's paks (`paksort`); case
/// ignored, `\\` and `:` read as `/`.
pub fn path_cmp(a: &[u8], b: &[u8]) -> Ordering {
    let sep = |c: i32| if c == b'\\' as i32 || c == b':' as i32 { b'/' as i32 } else { c };
    let key = |s: &[u8]| s.iter().map(|&b| sep(fold(b))).chain(std::iter::once(0)).collect::<Vec<i32>>();
    key(a).cmp(&key(b))
}

// ---- a mod's directory from any starting point ---------------------------------------

/// The folders of the game's layout inside a mod directory.
const GAME_FOLDERS: [&str; 4] = ["mp", "animtrees", "weapons", "xanim"];

/// `path` with `.` dropped and `..` taken back where it can be.
fn lexical(path: &Path) -> PathBuf {
    let mut out: Vec<Component> = Vec::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.last(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

/// The mod directory of a starting point: the directory itself, the
/// directory of a file, and from a game folder of the mod's layout (`mp/`,
/// `animtrees/`, `weapons/`, `weapons/mp/`, `xanim/`, in any case) the
/// directory above it. `mymod`, `mymod/mp/playeranim.script`,
/// `mymod/AnimTrees` and `.` run inside `mymod/mp` all give `mymod` (as
/// `..` for the last). A path that is not a directory is a file's. The
/// command line and the language server find a mod's files through this.
pub fn mod_root(start: &Path) -> PathBuf {
    // A file (or a document not saved yet): its directory.
    let dir = if start.is_dir() {
        start.to_path_buf()
    } else {
        start.parent().filter(|p| !p.as_os_str().is_empty()).map_or_else(|| PathBuf::from("."), Path::to_path_buf)
    };
    // The names of the directories above, read on the absolute path.
    let absolute = if dir.is_absolute() { lexical(&dir) } else { lexical(&std::env::current_dir().unwrap_or_default().join(&dir)) };
    let names: Vec<String> = absolute.components().filter_map(|c| if let Component::Normal(n) = c { Some(n.to_string_lossy().to_ascii_lowercase()) } else { None }).collect();
    let mut up = 0;
    if let Some(last) = names.last() {
        if GAME_FOLDERS.contains(&last.as_str()) {
            up = 1;
            if last == "mp" && names.len() >= 2 && names[names.len() - 2] == "weapons" {
                up = 2;
            }
        }
    }
    let mut out: Vec<Component> = dir.components().filter(|c| *c != Component::CurDir).collect();
    for _ in 0..up {
        match out.last() {
            Some(Component::Normal(_)) => {
                out.pop();
            }
            _ => out.push(Component::ParentDir),
        }
    }
    if out.is_empty() {
        PathBuf::from(".")
    } else {
        out.iter().collect()
    }
}

/// The entry `name` of `dir`, its case ignored (the exact name first), as
/// the game finds a loose file on a file system that tells case apart;
/// spelled as it is on disk on every file system (one that ignores case
/// too would answer a probe of `name` itself).
pub fn find_ci(dir: &Path, name: &str) -> Option<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        let exact = dir.join(name);
        return exact.exists().then_some(exact);
    };
    let mut found: Vec<PathBuf> = entries.filter_map(|e| e.ok()).filter(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name)).map(|e| e.path()).collect();
    found.sort();
    if let Some(exact) = found.iter().position(|p| p.file_name().is_some_and(|f| f.to_string_lossy() == name)) {
        return Some(found.swap_remove(exact));
    }
    found.into_iter().next()
}

/// `find_ci` along the parts of a relative path (`weapons/mp`).
fn find_ci_path(dir: &Path, rel: &str) -> Option<PathBuf> {
    rel.split('/').filter(|p| !p.is_empty()).try_fold(dir.to_path_buf(), |d, part| find_ci(&d, part))
}

// ---- the search path -------------------------------------------------------------------

/// Where a file of a layer is.
#[derive(Debug)]
enum At {
    Disk(PathBuf),
    Member(crate::archive::Member),
}

/// One file of a layer.
#[derive(Debug)]
struct Entry {
    /// As shown in diagnostics.
    display: String,
    at: At,
}

/// One place the game searches: a folder's loose files, one pak, or one
/// file given on the command line.
#[derive(Debug)]
struct Layer {
    /// The folder or pak, as shown.
    label: String,
    pak: Option<Archive>,
    /// The PATH or game folder it belongs to: a folder's paks and its
    /// loose files share one.
    group: usize,
    /// A place of the mod (not of the game folder).
    of_mod: bool,
    /// The files the check reads, by lower-case game path (`mp/playeranim.script`,
    /// `animtrees/x.atr`, `weapons/mp/x`, `xanim/x`).
    files: BTreeMap<String, Entry>,
    /// A `weapons_mp.txt` list (a directory of the flat layout).
    list: Option<PathBuf>,
    notices: Vec<Notice>,
}

impl Layer {
    fn new(label: String, group: usize, of_mod: bool) -> Layer {
        Layer { label, pak: None, group, of_mod, files: BTreeMap::new(), list: None, notices: Vec::new() }
    }

    fn read(&mut self, key: &str) -> Result<Vec<u8>, String> {
        let entry = self.files.get(key).ok_or_else(|| format!("{key}: not in {}", self.label))?;
        match &entry.at {
            At::Disk(p) => fs::read(p).map_err(|e| format!("{}: {e}", entry.display)),
            At::Member(m) => {
                let m = m.clone();
                let archive = self.pak.as_mut().ok_or("a member without its pak")?;
                archive.read(&m).map_err(|e| format!("{}: {e}", self.label))
            }
        }
    }
}

fn is_pak(path: &Path) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| e.eq_ignore_ascii_case("pk3") || e.eq_ignore_ascii_case("iwd"))
}

fn is_atr(name: &str) -> bool {
    name.len() > 4 && name[name.len() - 4..].eq_ignore_ascii_case(".atr")
}

/// The layers of one PATH, highest first.
fn layers_of_path(path: &Path, group: usize) -> Result<Vec<Layer>, String> {
    if path.is_dir() {
        return layers_of_dir(&mod_root(path), group, true);
    }
    if !path.is_file() {
        return Err(format!("{}: no such file or directory", display_path(path)));
    }
    if is_pak(path) {
        return Ok(vec![pak_layer(path, group, true)?]);
    }
    // A file in a game folder of a mod (`mymod/mp/playeranim.script`,
    // `mymod/animtrees/x.atr`) brings its mod; any other is read alone.
    let root = mod_root(path);
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if lexical(&root) != lexical(parent) {
        return layers_of_dir(&root, group, true);
    }
    let mut layer = Layer::new(display_path(path), group, true);
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let key = if is_atr(&name) { format!("{TREES}{}", name.to_ascii_lowercase()) } else { SCRIPT.to_string() };
    layer.files.insert(key, Entry { display: display_path(path), at: At::Disk(path.to_path_buf()) });
    Ok(vec![layer])
}

/// The layers of a folder, highest first: its paks (the last in
/// `FS_PathCmp` order first; `localized_*` paks are not read), then its
/// loose files.
fn layers_of_dir(dir: &Path, group: usize, of_mod: bool) -> Result<Vec<Layer>, String> {
    let mut loose = Layer::new(display_path(dir), group, of_mod);
    let mut paks = Vec::new();
    for p in sorted_files(dir)? {
        let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let ext = p.extension().and_then(|e| e.to_str()).map(|e| e.to_ascii_lowercase());
        match ext.as_deref() {
            Some("pk3") if !name.starts_with("localized_") => paks.push((name, p)),
            Some("iwd") if of_mod => loose.notices.push(Notice {
                file: display_path(&p),
                code: "misplaced-file",
                message: "the game does not read this archive: United Offensive reads the .pk3 files of a folder, not .iwd".into(),
                note: None,
                help: Some("rename it to .pk3 (both are zip archives)".into()),
            }),
            _ => {}
        }
    }
    paks.sort_by(|a, b| path_cmp(a.0.as_bytes(), b.0.as_bytes()));
    let mut layers = Vec::new();
    for (_, p) in paks.iter().rev() {
        layers.push(pak_layer(p, group, of_mod)?);
    }
    let has_game_folders = GAME_FOLDERS.iter().any(|f| find_ci(dir, f).is_some_and(|p| p.is_dir()));
    if has_game_folders || !of_mod {
        if let Some(p) = find_ci_path(dir, SCRIPT).filter(|p| p.is_file()) {
            loose.files.insert(SCRIPT.into(), Entry { display: display_path(&p), at: At::Disk(p) });
        }
        for (folder, only_atr) in [(TREES, true), (WEAPONS, false), (XANIM, false)] {
            let Some(d) = find_ci_path(dir, folder).filter(|p| p.is_dir()) else { continue };
            for p in sorted_files(&d)? {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                if only_atr && !is_atr(&name) {
                    continue;
                }
                loose.files.insert(format!("{folder}{}", name.to_ascii_lowercase()), Entry { display: display_path(&p), at: At::Disk(p) });
            }
        }
        if of_mod {
            // The files of the game's layout left at the top.
            for p in sorted_files(dir)? {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let (wants, folder) = if name.eq_ignore_ascii_case("playeranim.script") {
                    ("'mp/playeranim.script'", "mp/")
                } else if is_atr(&name) {
                    ("trees from 'animtrees/'", "animtrees/")
                } else {
                    continue;
                };
                loose.notices.push(Notice {
                    file: display_path(&p),
                    code: "misplaced-file",
                    message: format!("the game does not read this file: it reads {wants}"),
                    note: None,
                    help: Some(format!("move it into the mod's {folder} folder")),
                });
            }
        }
    } else {
        // The flat layout: the files at the top.
        for p in sorted_files(dir)? {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let key = if name.eq_ignore_ascii_case("playeranim.script") {
                SCRIPT.to_string()
            } else if is_atr(&name) {
                format!("{TREES}{}", name.to_ascii_lowercase())
            } else {
                continue;
            };
            loose.files.insert(key, Entry { display: display_path(&p), at: At::Disk(p) });
        }
    }
    if of_mod {
        loose.list = find_ci(dir, "weapons_mp.txt").filter(|p| p.is_file());
    }
    layers.push(loose);
    Ok(layers)
}

/// A pak's layer: the members the check reads, and (of the mod's paks)
/// those in a folder the game does not read.
fn pak_layer(path: &Path, group: usize, of_mod: bool) -> Result<Layer, String> {
    let label = display_path(path);
    let archive = Archive::open(path).map_err(|e| format!("{label}: {e}"))?;
    let mut layer = Layer::new(label.clone(), group, of_mod);
    let mut stray_weapons: Vec<String> = Vec::new();
    for m in &archive.members {
        if m.name.ends_with('/') {
            continue;
        }
        let lower = m.name.to_ascii_lowercase();
        let display = display_path(Path::new(&format!("{}/{}", path.display(), m.name)));
        let file_name = lower.rsplit('/').next().unwrap_or("");
        let rest_of = |prefix: &str| lower.strip_prefix(prefix).filter(|r| !r.is_empty() && !r.contains('/'));
        let read = lower == SCRIPT || rest_of(TREES).is_some_and(is_atr) || rest_of(WEAPONS).is_some() || rest_of(XANIM).is_some();
        if read {
            layer.files.insert(lower.clone(), Entry { display, at: At::Member(m.clone()) });
            continue;
        }
        if !of_mod {
            continue;
        }
        let top = |inner: &str| lower.find(inner).filter(|&i| i > 0).map(|i| m.name[..i + 1].to_string());
        if file_name == "playeranim.script" || is_atr(file_name) {
            let (wants, inner) = if file_name == "playeranim.script" { ("'mp/playeranim.script'", "/mp/playeranim.script") } else { ("trees from 'animtrees/'", "/animtrees/") };
            let help = match top(inner) {
                Some(t) => format!("the pak has a folder too many at its top ('{t}'): pack the mod's folders (mp/, animtrees/, weapons/) at the pak's root"),
                None => format!("move it to '{}' in the pak", if file_name == "playeranim.script" { SCRIPT.to_string() } else { format!("{TREES}{}", m.name.rsplit('/').next().unwrap_or("")) }),
            };
            layer.notices.push(Notice { file: display, code: "misplaced-file", message: format!("the game does not read this file: it reads {wants}"), note: None, help: Some(help) });
        } else if lower.contains("/weapons/mp/") {
            stray_weapons.push(m.name.clone());
        }
    }
    if let Some(first) = stray_weapons.first() {
        let i = first.to_ascii_lowercase().find("/weapons/mp/").unwrap_or(0);
        layer.notices.push(Notice {
            file: display_path(Path::new(&format!("{}/{}", path.display(), first))),
            code: "misplaced-file",
            message: format!("the game does not read the {} weapon file(s) under '{}': it reads weapon files from 'weapons/mp/'", stray_weapons.len(), &first[..i + 12]),
            note: None,
            help: Some(format!("the pak has a folder too many at its top ('{}'): pack the mod's folders at the pak's root", &first[..i + 1])),
        });
    }
    layer.pak = Some(archive);
    Ok(layer)
}

/// The first layer (highest) holding `key`.
fn first_with(layers: &[Layer], key: &str) -> Option<usize> {
    layers.iter().position(|l| l.files.contains_key(key))
}

/// A pak of the mod hides the copies below it in the same folder: said on
/// each copy.
fn hidden_copies(layers: &[Layer], key: &str, winner: usize, out: &mut Vec<Notice>) {
    let w = &layers[winner];
    if !w.of_mod || w.pak.is_none() {
        return;
    }
    let read = &w.files[key].display;
    for l in layers[winner + 1..].iter().filter(|l| l.group == w.group && l.of_mod) {
        if let Some(e) = l.files.get(key) {
            out.push(Notice {
                file: e.display.clone(),
                code: "hidden-by-pak",
                message: format!("the game does not read this file: it reads '{read}'"),
                note: Some(if l.pak.is_some() {
                    "a folder's paks are searched last in name order first (FS_AddGameDirectory): the other pak's copy wins".into()
                } else {
                    "a folder's paks are searched before its loose files (FS_AddGameDirectory): the pak's copy wins".into()
                }),
                help: Some(format!("edit the copy in '{}', or take that file out of the pak", w.label)),
            });
        }
    }
}

/// Chooses each file as the game does: the script and each tree from the
/// highest layer, the weapon and xanim names from every layer.
fn resolve(inputs: &mut Inputs, layers: &mut [Layer], with_game: bool) -> Result<(), String> {
    for l in layers.iter() {
        inputs.notices.extend(l.notices.iter().cloned());
    }
    // The script.
    if let Some(i) = first_with(layers, SCRIPT) {
        hidden_copies(layers, SCRIPT, i, &mut inputs.notices);
        let display = layers[i].files[SCRIPT].display.clone();
        let text = layers[i].read(SCRIPT)?;
        if !layers[i].of_mod {
            inputs.game_files.insert(display.clone());
        }
        inputs.script = Some(SourceFile { display, name: String::new(), text });
    }
    // The trees: every tree of the mod, and the game folder's multiplayer tree.
    let mut tree_keys: BTreeSet<String> = BTreeSet::new();
    for l in layers.iter() {
        tree_keys.extend(l.files.keys().filter(|k| k.starts_with(TREES) && (l.of_mod || *k == "animtrees/multiplayer.atr")).cloned());
    }
    for key in &tree_keys {
        let Some(i) = first_with(layers, key) else { continue };
        hidden_copies(layers, key, i, &mut inputs.notices);
        let display = layers[i].files[key].display.clone();
        let text = layers[i].read(key)?;
        if !layers[i].of_mod {
            inputs.game_files.insert(display.clone());
        }
        let name = key[TREES.len()..key.len() - 4].to_string();
        inputs.add_tree(SourceFile { display, name, text });
    }
    // The weapon names of every layer (the first spelling found), and the
    // class in the file the game reads of each.
    let mut names: Vec<(Vec<u8>, usize)> = Vec::new();
    for (li, l) in layers.iter().enumerate() {
        for e in l.files.iter().filter(|(k, _)| k.starts_with(WEAPONS)).map(|(_, e)| e) {
            let spelled = match &e.at {
                At::Disk(p) => p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
                At::Member(m) => m.name.rsplit('/').next().unwrap_or("").to_string(),
            };
            if !names.iter().any(|(n, _)| n.eq_ignore_ascii_case(spelled.as_bytes())) {
                names.push((spelled.into_bytes(), li));
            }
        }
    }
    for (name, _) in &names {
        let key = format!("{WEAPONS}{}", String::from_utf8_lossy(name).to_ascii_lowercase());
        if let Some(i) = first_with(layers, &key) {
            if let Some(class) = layers[i].read(&key).ok().as_deref().and_then(weapon_class) {
                inputs.weapon_classes.insert(name.to_ascii_lowercase(), class);
            }
        }
    }
    let from: Vec<String> = {
        let mut labels: Vec<String> = Vec::new();
        for (_, li) in &names {
            if !labels.contains(&layers[*li].label) {
                labels.push(layers[*li].label.clone());
            }
        }
        labels
    };
    let mod_names: Vec<&Vec<u8>> = names.iter().filter(|(_, li)| layers[*li].of_mod).map(|(n, _)| n).collect();
    if with_game && !names.is_empty() {
        let mut list: Vec<Vec<u8>> = names.iter().map(|(n, _)| n.clone()).collect();
        list.sort_by(|a, b| q_stricmp(a, b));
        inputs.weapons = Some(list);
        inputs.weapons_from = Some(from.join(", "));
        inputs.weapon_list = WeaponList::Files;
    } else if !mod_names.is_empty() {
        let own = mod_names.iter().filter(|n| !crate::stock::is_weapon(n)).count();
        let mut list: Vec<Vec<u8>> = mod_names.iter().map(|n| n.to_vec()).collect();
        for w in crate::stock::UO_MP_WEAPONS {
            if !list.iter().any(|n| n.eq_ignore_ascii_case(w.as_bytes())) {
                list.push(w.as_bytes().to_vec());
            }
        }
        list.sort_by(|a, b| q_stricmp(a, b));
        inputs.weapons = Some(list);
        inputs.weapons_from = Some(from.join(", "));
        inputs.weapon_list = WeaponList::AddedToStock { own, replaced: mod_names.len() - own };
    } else if let Some(list) = layers.iter().find_map(|l| l.list.clone()) {
        inputs.weapons = Some(read_list(&list)?);
        inputs.weapons_from = Some(display_path(&list));
        inputs.weapon_list = WeaponList::Given;
    }
    // The xanim asset names of every layer.
    for l in layers.iter() {
        for key in l.files.keys().filter(|k| k.starts_with(XANIM)) {
            inputs.xanims.get_or_insert_with(BTreeSet::new).insert(key.as_bytes()[XANIM.len()..].to_vec());
        }
    }
    Ok(())
}

/// A list of weapon names, one a line (`#` and `//` lines are comments).
fn read_list(path: &Path) -> Result<Vec<Vec<u8>>, String> {
    let text = fs::read(path).map_err(|e| format!("{}: {e}", display_path(path)))?;
    Ok(text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l).trim_ascii().to_vec())
        .filter(|l| !l.is_empty() && !l.starts_with(b"#") && !l.starts_with(b"//"))
        .collect())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::build_zip;

    /// A fresh directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("uoanim-input-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    fn write(path: &Path, bytes: &[u8]) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, bytes).unwrap();
    }

    fn ends(display: &str, tail: &str) -> bool {
        display.ends_with(&display_path(Path::new(tail)))
    }

    #[test]
    fn the_engines_orders() {
        // Q_stricmp folds to upper case: '_' (0x5f) sorts after the letters.
        assert!(q_stricmp(b"PanzerIV_turret_mp", b"panzerfaust_mp").is_gt());
        assert!(q_stricmp(b"mg_sg43_stand_mp", b"mg50cal_tripod_stand_mp").is_gt());
        assert!(q_stricmp(b"Colt_mp", b"colt_MP").is_eq());
        assert!(q_stricmp(b"ab", b"abc").is_lt());
        assert!(q_stricmp(b"ab\xe9", b"ab").is_lt(), "a byte of 0x80 or more is a negative char");
        // FS_PathCmp likewise, with '\\' and ':' read as '/'.
        assert!(path_cmp(b"za.pk3", b"z_a.pk3").is_lt());
        assert!(path_cmp(b"PAK1.pk3", b"pak0.pk3").is_gt());
        assert!(path_cmp(b"a\\b", b"a/b").is_eq());
    }

    #[test]
    fn a_mods_directory_from_any_starting_point() {
        let d = scratch("root");
        let m = d.join("mymod");
        write(&m.join("MP/PlayerAnim.script"), b"ANIMATIONS\n");
        write(&m.join("AnimTrees/x.atr"), b"a\n");
        write(&m.join("weapons/mp/w_mp"), b"");
        for start in [m.clone(), m.join("MP"), m.join("MP/PlayerAnim.script"), m.join("AnimTrees"), m.join("AnimTrees/x.atr"), m.join("weapons"), m.join("weapons/mp"), m.join("weapons/mp/w_mp"), m.join("mp/not_saved_yet.script")] {
            assert_eq!(mod_root(&start), m, "from {}", start.display());
        }
        // Relative paths stay relative: 'mymod/mp' gives 'mymod'.
        assert_eq!(mod_root(Path::new("a/b/mymod/MP/x.script")), PathBuf::from("a/b/mymod"));
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn names_are_found_with_case_ignored_from_a_file_of_the_mod() {
        let d = scratch("case");
        let m = d.join("mymod");
        write(&m.join("MP/PlayerAnim.script"), b"ANIMATIONS\n");
        write(&m.join("AnimTrees/MultiPlayer.ATR"), b"torso\n");
        write(&m.join("Weapons/MP/Colt_mp"), b"WEAPONFILE\\weaponClass\\pistol");
        // Named by its script, the mod is found whole.
        let i = Inputs::load(&[m.join("MP/PlayerAnim.script")], None).unwrap();
        assert!(ends(&i.script.as_ref().unwrap().display, "mymod/MP/PlayerAnim.script"), "{}", i.script.as_ref().unwrap().display);
        assert!(ends(&i.multiplayer_tree().expect("the tree").display, "mymod/AnimTrees/MultiPlayer.ATR"));
        assert_eq!(i.weapon_classes.get(&b"colt_mp"[..]), Some(&b"pistol".to_vec()));
        assert_eq!(i.weapon_list, WeaponList::AddedToStock { own: 0, replaced: 1 });
        assert_eq!(i.weapons.as_ref().unwrap().len(), 63, "colt_mp replaces the stock file of that name");
        assert!(i.weapons.as_ref().unwrap().contains(&b"Colt_mp".to_vec()), "the mod's spelling");
        // A file outside a mod's folders is read alone.
        write(&d.join("loose/test.script"), b"ANIMATIONS\n");
        write(&d.join("loose/animtrees/multiplayer.atr"), b"torso\n");
        let i = Inputs::load(&[d.join("loose/test.script")], None).unwrap();
        assert!(ends(&i.script.as_ref().unwrap().display, "loose/test.script") && i.trees.is_empty());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn paks_are_searched_in_the_engines_order_before_the_loose_files() {
        let d = scratch("order");
        let script = |n: &str| format!("ANIMATIONS // {n}\n").into_bytes();
        write(&d.join("mp/playeranim.script"), &script("loose"));
        write(&d.join("animtrees/multiplayer.atr"), b"loose\n");
        write(&d.join("za.pk3"), &build_zip(&[("mp/playeranim.script", &script("za"), false)]));
        // 'z_a' sorts after 'za' when '_' is compared with upper-case letters.
        write(&d.join("z_a.pk3"), &build_zip(&[("MP\\PlayerAnim.script", &script("z_a"), true), ("animtrees/multiplayer.atr", b"pak\n", false)]));
        write(&d.join("localized_english_pak0.pk3"), &build_zip(&[("mp/playeranim.script", &script("localized"), false)]));
        let i = Inputs::load(std::slice::from_ref(&d), None).unwrap();
        assert_eq!(i.script.as_ref().unwrap().text, script("z_a"));
        assert_eq!(i.multiplayer_tree().unwrap().text, b"pak\n");
        let hidden: Vec<(&str, &str)> = i.notices.iter().map(|n| (n.file.as_str(), n.code)).collect();
        assert_eq!(hidden.len(), 3, "{hidden:?}");
        assert!(i.notices.iter().all(|n| n.code == "hidden-by-pak" && n.message.contains("z_a.pk3")));
        let loose = i.notices.iter().find(|n| ends(&n.file, "mp/playeranim.script") && !n.file.contains(".pk3")).expect("the loose script");
        assert!(loose.note.as_deref().unwrap().contains("before its loose files"));
        assert!(i.notices.iter().any(|n| ends(&n.file, "za.pk3/mp/playeranim.script") && n.note.as_deref().unwrap().contains("name order")));
        assert!(i.notices.iter().any(|n| ends(&n.file, "animtrees/multiplayer.atr")));
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn files_in_a_folder_the_game_does_not_read_are_said() {
        let d = scratch("misplaced");
        write(&d.join("mp/playeranim.script"), b"ANIMATIONS\n");
        write(&d.join("playeranim.script"), b"ANIMATIONS\n");
        write(&d.join("extra.atr"), b"a\n");
        write(&d.join("old.iwd"), &build_zip(&[("mp/playeranim.script", b"x", false)]));
        let pak = build_zip(&[
            ("playeranim.script", b"ANIMATIONS\n", false),
            ("mymod/animtrees/multiplayer.atr", b"a\n", false),
            ("mymod/weapons/mp/w1_mp", b"", false),
            ("mymod/weapons/mp/w2_mp", b"", false),
        ]);
        write(&d.join("mod.pk3"), &pak);
        let i = Inputs::load(std::slice::from_ref(&d), None).unwrap();
        let said = |tail: &str| i.notices.iter().find(|n| ends(&n.file, tail)).unwrap_or_else(|| panic!("nothing on {tail}: {:?}", i.notices));
        assert_eq!(said("mod.pk3/playeranim.script").help.as_deref(), Some("move it to 'mp/playeranim.script' in the pak"));
        let atr = said("mod.pk3/mymod/animtrees/multiplayer.atr");
        assert!(atr.message.ends_with("it reads trees from 'animtrees/'") && atr.help.as_deref().unwrap().contains("a folder too many at its top ('mymod/')"), "{atr:?}");
        assert!(said("mod.pk3/mymod/weapons/mp/w1_mp").message.contains("the 2 weapon file(s) under 'mymod/weapons/mp/'"));
        assert_eq!(said("old.iwd").code, "misplaced-file");
        assert_eq!(said("extra.atr").help.as_deref(), Some("move it into the mod's animtrees/ folder"));
        assert!(i.notices.iter().all(|n| n.code == "misplaced-file"));
        assert_eq!(i.notices.len(), 6, "{:?}", i.notices);
        // The script read is the one where the game reads it; the .iwd is not read.
        assert!(ends(&i.script.as_ref().unwrap().display, "mp/playeranim.script") && !i.script.as_ref().unwrap().display.contains(".iwd"));
        assert!(i.weapons.is_none() && i.trees.is_empty());
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_game_folder_is_searched_under_the_mod() {
        let d = scratch("game");
        let game = d.join("CoD UO");
        write(
            &game.join("Main/pak0.pk3"),
            &build_zip(&[
                ("mp/playeranim.script", b"ANIMATIONS // main\n", false),
                ("animtrees/multiplayer.atr", b"main\n", false),
                ("animtrees/level.atr", b"level\n", false),
                ("weapons/mp/a_mp", b"WEAPONFILE\\weaponClass\\rifle", false),
                ("xanim/pb_x", b"", false),
            ]),
        );
        write(&game.join("uo/pakuo00.pk3"), &build_zip(&[("animtrees/multiplayer.atr", b"uo\n", false), ("weapons/mp/B_mp", b"WEAPONFILE\\weaponClass\\smg", false)]));
        write(&game.join("uo/weapons/mp/a_mp"), b"WEAPONFILE\\weaponClass\\pistol");
        let m = d.join("mymod");
        write(&m.join("weapons/mp/c_mp"), b"WEAPONFILE\\weaponClass\\mg");
        write(&m.join("animtrees/vehicle.atr"), b"v\n");
        let i = Inputs::load(std::slice::from_ref(&m), Some(&game)).unwrap();
        // The script and the multiplayer tree come from the game's folder:
        // uo's tree over main's; main's level tree is not read.
        let s = i.script.as_ref().unwrap();
        assert!(ends(&s.display, "Main/pak0.pk3/mp/playeranim.script") && i.game_files.contains(&s.display), "{}", s.display);
        let t = i.multiplayer_tree().unwrap();
        assert_eq!(t.text, b"uo\n");
        assert!(i.game_files.contains(&t.display));
        assert_eq!(i.trees.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(), ["multiplayer", "vehicle"]);
        assert!(!i.game_files.contains(&i.trees[1].display));
        assert!(i.has_mod_files());
        // The weapons of every place, in the game's order; each class from
        // the file the game reads (uo's loose a_mp over main's pak).
        assert_eq!(i.weapons.as_deref(), Some(&[b"a_mp".to_vec(), b"B_mp".to_vec(), b"c_mp".to_vec()][..]));
        assert_eq!(i.weapon_list, WeaponList::Files);
        assert_eq!(i.weapon_classes.get(&b"a_mp"[..]), Some(&b"pistol".to_vec()));
        assert_eq!(i.weapon_classes.get(&b"b_mp"[..]), Some(&b"smg".to_vec()));
        assert!(i.xanims.as_ref().unwrap().contains(&b"pb_x"[..]));
        // The mod's script over the game's.
        write(&m.join("mp/playeranim.script"), b"ANIMATIONS // mod\n");
        let i = Inputs::load(std::slice::from_ref(&m), Some(&game)).unwrap();
        assert_eq!(i.script.as_ref().unwrap().text, b"ANIMATIONS // mod\n");
        assert!(i.notices.is_empty(), "the game's copies are not the mod's: {:?}", i.notices);
        // A folder that is not the game's.
        let e = Inputs::load(std::slice::from_ref(&m), Some(&m)).unwrap_err();
        assert!(e.contains("no main/ or uo/ folder"), "{e}");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn the_mods_weapons_add_to_the_stock_ones_in_the_games_order() {
        let d = scratch("weapons");
        write(&d.join("weapons/mp/Zeta_mp"), b"");
        write(&d.join("weapons/mp/aaa_mp"), b"");
        write(&d.join("weapons/mp/kar98k_mp"), b"WEAPONFILE\\weaponClass\\smg");
        let i = Inputs::load(std::slice::from_ref(&d), None).unwrap();
        let w = i.weapons.as_ref().unwrap();
        assert_eq!(w.len(), 65);
        assert_eq!(i.weapon_list, WeaponList::AddedToStock { own: 2, replaced: 1 });
        assert_eq!(w.first(), Some(&b"30cal_tank_mp".to_vec()));
        assert_eq!(w.last(), Some(&b"Zeta_mp".to_vec()));
        let at = |n: &[u8]| w.iter().position(|x| x == n).unwrap();
        assert_eq!(at(b"aaa_mp"), 2, "after 30cal_tank_mp and 50cal_tank_mp");
        assert!(at(b"webley_mp") < at(b"Zeta_mp"));
        // A list file replaces them.
        write(&d.join("list.txt"), b"# mine\nw1_mp\nw2_mp\n");
        let mut i = i;
        i.set_weapons(&d.join("list.txt")).unwrap();
        assert_eq!((i.weapons.as_ref().unwrap().len(), i.weapon_list), (2, WeaponList::Given));
        fs::remove_dir_all(&d).unwrap();
    }
}
