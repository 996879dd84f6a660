//! Tests of the parser: grammar, diagnostics, every quirk, defined results
//! for the inputs the original leaves undefined, and mutated scripts.

use std::prelude::rust_2021::*;

use super::*;
use crate::abi::Zeroed;
use crate::testing::Rng;
use crate::error::Outcome;
use crate::script::tables::TableName;
use crate::abi::common::scr_anim_t;
use std::ffi::CString;

const PATH: &CStr = c"mp/playeranim.script";

struct Mock {
    names: Vec<Vec<u8>>,
    sounds: Vec<CString>,
    sound_calls: usize,
    cap: usize,
    /// The session state handed over before the engine call to come.
    checkpoint: Option<(i32, Option<usize>)>,
    checkpoints: Vec<(i32, Option<usize>)>,
}

impl Mock {
    /// Every engine call that may not return follows a checkpoint.
    fn take_checkpoint(&mut self) {
        let checkpoint = self.checkpoint.take().expect("a session checkpoint before the engine call");
        self.checkpoints.push(checkpoint);
    }
}

impl ParseEngine for Mock {
    fn fs_open_read(&mut self, _path: &CStr) -> (i32, i32) {
        (-1, 0)
    }
    fn fs_read(&mut self, _buffer: &mut [u8], _length: i32, _handle: i32) {}
    fn fs_close(&mut self, _handle: i32) {}
    fn find_anim(&mut self, tree: &CStr, name: &CStr, out: &mut scr_anim_t) {
        self.take_checkpoint();
        assert_eq!(tree.to_bytes(), b"multiplayer");
        let lower = name.to_bytes().to_ascii_lowercase();
        let index = match self.names.iter().position(|n| *n == lower) {
            Some(i) => i,
            None => {
                self.names.push(lower);
                self.names.len() - 1
            }
        };
        *out = scr_anim_t { animIndex: (index + 1).min(self.cap) as u16, treeIndex: 1 };
    }
    fn session_checkpoint(&mut self, end: &SessionEnd, cursor: Option<usize>) {
        self.checkpoint = Some((end.line, cursor));
    }
    fn sound_alias(&mut self, name: &CStr) -> *const c_char {
        self.take_checkpoint();
        self.sound_calls += 1;
        let s = CString::new([b"snd:", name.to_bytes()].concat()).unwrap();
        let p = s.as_ptr();
        self.sounds.push(s);
        p
    }
}

struct Harness {
    data: Box<ModuleData>,
    table: Box<bg_static_animation_table_t>,
    runtime: Box<[bg_runtime_animation_t; BG_ANIM_MAX_ANIMATIONS]>,
    count: i32,
    engine: Mock,
    weapons: Vec<CString>,
    /// The script text: leaked, so that the failures of a parse, which
    /// borrow it, do not borrow the harness.
    text: &'static [u8],
}

impl Harness {
    fn new(script: &[u8]) -> Self {
        Self::with_weapons(script, 8)
    }

    fn with_weapons(script: &[u8], weapons: usize) -> Self {
        let data = Box::new(ModuleData::INITIAL);
        let mut text = script.to_vec();
        text.push(0);
        let text: &'static [u8] = Vec::leak(text);
        Self {
            data,
            table: Zeroed::boxed_zeroed(),
            runtime: Zeroed::boxed_zeroed(),
            count: 0,
            engine: Mock {
                names: Vec::new(),
                sounds: Vec::new(),
                sound_calls: 0,
                cap: 1 << 15,
                checkpoint: None,
                checkpoints: Vec::new(),
            },
            weapons: (1..=weapons).map(|i| CString::new(format!("w{i}")).unwrap()).collect(),
            text,
        }
    }

    fn parse(&mut self, pass1: bool) -> Outcome<()> {
        // SAFETY: the tables hold the initial literals and the harness's
        // weapon names; the data is parsed from the start.
        let mut m = unsafe { self.data.module() };
        // SAFETY: the harness keeps its weapon names as long as its module.
        m.init_weapon_strings(self.weapons.iter().map(|w| unsafe { TableName::new(w.as_ptr()) }));
        let runtime = if pass1 { Some(RuntimeNames { records: &mut self.runtime[..], count: &mut self.count }) } else { None };
        let input = ParseInput {
            table: &mut self.table,
            runtime,
            engine: &mut self.engine,
            path: if pass1 { Some(PATH) } else { None },
            text: self.text,
            behaviour: Behaviour::Linux,
        };
        parse_script(m, input).0
    }

    /// Pass 1, entries from the registrations (duration 1000 each, move
    /// speed 10), then pass 2.
    fn both(&mut self) -> Outcome<()> {
        self.parse(true)?;
        let n = self.count as usize;
        for i in 0..n {
            let name = tables::field_name(self.runtime[i].name_bytes()).to_vec();
            let e = &mut self.table.entries[i];
            name_as_bytes_mut(&mut e.name)[..name.len()].copy_from_slice(&name);
            e.hash = string_hash(&name);
            e.duration = 1000;
            e.moveSpeed = 10;
        }
        self.table.entryCount = n as i32;
        self.parse(false)
    }

    fn item(&self, i: usize) -> &bg_anim_script_t {
        &self.table.globalItems[i]
    }

    fn err(&mut self, pass1: bool) -> String {
        let e = self.parse(pass1).expect_err("an error");
        String::from_utf8_lossy(e.text(None).as_bytes()).into_owned()
    }
}

fn anim_block(conditions: &str, commands: &str) -> String {
    format!("animations\nstate combat\n{{\n idle\n {{\n  {conditions}\n  {{\n   {commands}\n  }}\n }}\n}}\n")
}

fn event_block(event: &str, conditions: &str, commands: &str) -> String {
    format!("events\n{event}\n{{\n {conditions}\n {{\n  {commands}\n }}\n}}\n")
}

#[test]
fn minimal_script_parses_into_list_and_pool() {
    let mut h = Harness::new(anim_block("default", "both a1").as_bytes());
    h.both().unwrap();
    // Quirk: globalItemCount is not reset between the passes.
    assert_eq!(h.table.globalItemCount, 2);
    let list = &h.table.animations[3][1];
    assert_eq!(list.count, 1);
    assert_eq!(list.scripts[0], core::ptr::addr_of_mut!(h.table.globalItems[1]));
    let s = h.item(1);
    assert_eq!(s.conditionCount, 0);
    assert_eq!(s.commandCount, 1);
    assert_eq!(s.commands[0].bodyPart, [3, 0]);
    assert_eq!(s.commands[0].animIndex[0], 0);
    assert_eq!(s.commands[0].duration[0], 1000);
    assert_eq!(h.count, 1);
    // pass 2 stamps the move type bit.
    assert_eq!(h.table.entries[0].stateFlags, 1 << 1);
}

#[test]
fn quirk_none_sets_bit_zero_and_and_is_or() {
    let mut h = Harness::new(anim_block("weapons w3 AND none, weaponclass mg AND smg", "both a").as_bytes());
    h.parse(true).unwrap();
    let s = h.item(0);
    assert_eq!(s.conditions[0].value, [0b1001, 0]);
    assert_eq!(s.conditions[1].r#type, ANIM_COND_WEAPONCLASS);
    assert_eq!(s.conditions[1].value, [0b110, 0]);
}

#[test]
fn quirk_high_word_leaks_into_later_conditions() {
    let mut h = Harness::with_weapons(anim_block("weapons w40 AND w2, weapon_position ads", "both a").as_bytes(), 40);
    h.parse(true).unwrap();
    let s = h.item(0);
    assert_eq!(s.conditions[0].value, [0b100, 0x100]);
    assert_eq!(s.conditions[1].value, [1, 0x100]);
}

#[test]
fn quirk_minus_rest_of_expression_and_sticky_scratch() {
    let script = format!(
        "set movetype moving = walk AND run\n{}",
        anim_block("movetype moving MINUS run", "both a")
    );
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.data.alias_bits[5 * 16].words(), [(1 << 4) | (1 << 10), 0]);
    // Quirk: `moving MINUS run` removes all of `moving` (the scratch mask
    // still holds it).
    assert_eq!(h.item(0).conditions[0].value, [0, 0]);

    let script = format!(
        "set movetype a = walk\nset movetype b = run\nset movetype c = idle\n{}",
        anim_block("movetype a AND b MINUS c AND b", "both a")
    );
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    // MINUS applies to every later clause (defines overwrite the scratch).
    assert_eq!(h.item(0).conditions[0].value, [1 << 4, 0]);

    let mut h = Harness::new(anim_block("movetype NOT walk", "both a").as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [0, 0]);
}

#[test]
fn quirk_weapon_indexes_past_63_hit_the_minus_flag() {
    let mut h = Harness::with_weapons(anim_block("weapons w70", "both a").as_bytes(), 127);
    h.parse(true).unwrap();
    // w70 sets the MINUS flag: the clause is removed instead of added.
    assert_eq!(h.item(0).conditions[0].value, [0, 0]);
    let mut h = Harness::with_weapons(anim_block("weapons w2 AND w100", "both a").as_bytes(), 127);
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [1 << 2, 0]);
}

#[test]
fn quirk_none_does_not_fill_the_key() {
    let mut h = Harness::new(anim_block("weapons w1 AND none", "both a").as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [0b11, 0]);
    let mut h = Harness::new(anim_block("weapons none AND w1", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_ParseConditionBits: unexpected 'AND': (mp/playeranim.script, line 7)");
    let mut h = Harness::new(anim_block("weapons ,", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_ParseConditionBits: unexpected end of condition: (mp/playeranim.script, line 7)");
    let mut h = Harness::new(anim_block("weapons all", "both a").as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [-1, -1]);
}

#[test]
fn quirk_bare_conditions_consume_no_token() {
    let mut h = Harness::new(anim_block("crouching 1", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_IndexForString: unknown token '1': (mp/playeranim.script, line 7)");
    let mut h = Harness::new(anim_block("underhand crouching firing weapon_position ads,", "both a").as_bytes());
    h.parse(true).unwrap();
    let s = h.item(0);
    assert_eq!(s.conditionCount, 4);
    assert_eq!(s.conditions[3].value, [1, 0]);
}

#[test]
fn quirk_statechange_is_to_then_from() {
    let script = "statechanges\nstatechange relaxed combat\n{\n default\n {\n  both a\n }\n}\n";
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.table.statechanges[0][3].count, 1);
    assert_eq!(h.table.statechanges[3][0].count, 0);
}

#[test]
fn quirk_commands_split_and_brace_rules() {
    let mut h = Harness::new(anim_block("default", "legs a\n   torso b").as_bytes());
    h.parse(true).unwrap();
    let s = h.item(0);
    assert_eq!(s.commandCount, 2);
    assert_eq!(s.commands[0].bodyPart, [1, 0]);
    assert_eq!(s.commands[1].bodyPart, [2, 0]);

    let mut h = Harness::new(anim_block("default", "legs a torso b duration 7").as_bytes());
    h.parse(true).unwrap();
    let s = h.item(0);
    assert_eq!(s.commandCount, 1);
    assert_eq!(s.commands[0].bodyPart, [1, 2]);
    assert_eq!(s.commands[0].duration, [0, 7]);

    let mut h = Harness::new(anim_block("default", "both a }").as_bytes());
    assert_eq!(h.err(true), "\x15BG_ParseCommands: unknown parameter '}': (mp/playeranim.script, line 9)");

    // A first word that is not a body part still allocates a command.
    let mut h = Harness::new(anim_block("default", "sound x").as_bytes());
    h.parse(true).unwrap();
    let s = h.item(0);
    assert_eq!(s.commandCount, 1);
    assert_eq!(s.commands[0].bodyPart, [-1, 0]);
    assert!(!s.commands[0].soundAliasName.is_null());
}

#[test]
fn quirk_repeated_blocks_replace_lists_and_leak_items() {
    let block = anim_block("default", "both a");
    let mut h = Harness::new(format!("{block}{block}").as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.table.globalItemCount, 2);
    assert_eq!(h.table.animations[3][1].count, 1);
    assert_eq!(h.table.animations[3][1].scripts[0], core::ptr::addr_of_mut!(h.table.globalItems[1]));
}

#[test]
fn quirk_pass_two_errors_lose_the_path_and_line_is_plus_one() {
    let mut h = Harness::new(b"animations\nstate combat\n{\n idle\n {\n  bogus\n");
    assert_eq!(h.err(true), "\x15BG_IndexForString: unknown token 'bogus': (mp/playeranim.script, line 7)");
    assert_eq!(h.err(false), "\x15BG_IndexForString: unknown token 'bogus'");
    let mut h = Harness::new(b"animations\nstate combat\n{\n");
    assert_eq!(h.err(true), "\x15BG_AnimParseAnimScript: unexpected end of file: : (mp/playeranim.script, line 5)");
}

#[test]
fn quirk_quoted_first_token_is_an_internal_error() {
    let mut h = Harness::new(anim_block("\"default\"", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_AnimParseAnimScript: internal error: (mp/playeranim.script, line 7)");
}

#[test]
fn quirk_empty_quoted_token_ends_the_parse() {
    let mut h = Harness::new(b"\"\" animations state nonsense {");
    h.parse(true).unwrap();
}

#[test]
fn section_and_brace_diagnostics() {
    let cases: &[(&str, &str)] = &[
        ("animations\nstate combat\n{\nevents\n", "BG_AnimParseAnimScript: unexpected 'events': (mp/playeranim.script, line 5)"),
        ("animations\nfoo\n", "BG_AnimParseAnimScript: expected 'state': (mp/playeranim.script, line 3)"),
        ("animations\nstate combat x\n", "BG_AnimParseAnimScript: expected '{': (mp/playeranim.script, line 3)"),
        ("animations\nstate\n{\n", "BG_IndexForString: unknown token '': (mp/playeranim.script, line 4)"),
        ("}\n", ""),
        ("animations\n}\n", "BG_AnimParseAnimScript: unexpected '}': (mp/playeranim.script, line 3)"),
        ("statechanges\nfoo\n", "BG_AnimParseAnimScript: expected 'statechange', got 'foo': (mp/playeranim.script, line 3)"),
        ("events\npain\n{\n{\n", "BG_AnimParseAnimScript: unexpected '{': (mp/playeranim.script, line 5)"),
        ("set\n", "BG_AnimParseAnimScript: expected condition type string: (mp/playeranim.script, line 3)"),
        ("set mounted x = y\n", "BG_AnimParseAnimScript: can not make a define of type 'mounted': (mp/playeranim.script, line 2)"),
        ("set weapons\n", "BG_AnimParseAnimScript: expected condition define string: (mp/playeranim.script, line 3)"),
        ("set weapons x y\n", "BG_AnimParseAnimScript: expected '=', found 'y': (mp/playeranim.script, line 2)"),
        ("set weapons x\n", "BG_AnimParseAnimScript: expected '=', found '': (mp/playeranim.script, line 3)"),
    ];
    for (script, expected) in cases {
        let mut h = Harness::new(script.as_bytes());
        match h.parse(true) {
            Ok(()) => assert!(expected.is_empty(), "{script:?} parsed"),
            Err(e) => assert_eq!(&e.text(None).as_bytes()[1..], expected.as_bytes(), "{script:?}"),
        }
    }
}

#[test]
fn command_diagnostics() {
    let cases: &[(&str, &str)] = &[
        ("both", "BG_ParseCommands: expected animation"),
        ("both a duration", "BG_ParseCommands: expected duration value"),
        ("legs a turretanim", "BG_ParseCommands: Turret animations can only be played on the 'both' body part"),
        ("both a blendtime", "BG_ParseCommands: expected blendtime value"),
        ("both a sound", "BG_ParseCommands: expected sound"),
        ("both a sound x.wav", "BG_ParseCommands: wav files not supported, only sound scripts"),
        ("both a bogus", "BG_ParseCommands: unknown parameter 'bogus'"),
    ];
    for (commands, expected) in cases {
        let mut h = Harness::new(anim_block("default", commands).as_bytes());
        let e = h.err(true);
        // The error comes after an end-of-line peek (line 10) or on the line (9).
        let on_line = format!("\x15{expected}: (mp/playeranim.script, line 9)");
        let after_peek = format!("\x15{expected}: (mp/playeranim.script, line 10)");
        assert!(e == on_line || e == after_peek, "{commands}: {e:?}");
    }
    let nine = (0..9).map(|i| format!("both a{i}")).collect::<Vec<_>>().join("\n   ");
    let mut h = Harness::new(anim_block("default", &nine).as_bytes());
    assert!(h.err(true).starts_with("\x15BG_ParseCommands: exceeded maximum number of animations (8): "));
}

#[test]
fn define_limits_and_key_truncation() {
    let mut script = String::new();
    for i in 0..17 {
        script.push_str(&format!("set weaponclass d{i} = mg\n"));
    }
    let mut h = Harness::new(script.as_bytes());
    assert_eq!(h.err(true), "\x15BG_AnimParseAnimScript: exceeded maximum condition defines (16): (mp/playeranim.script, line 18)");
    // Quirk: keys are cut at 63 bytes, so a 64-byte define name can never be
    // referenced, but the first 63 bytes of a longer key can match.
    let long = "x".repeat(63);
    let script = format!("set weaponclass {long} = mg\n{}", anim_block(&format!("weaponclass {long}yyy"), "both a"));
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [2, 0]);
}

#[test]
fn pass_two_stamps_entries() {
    let script = format!(
        "{}{}{}",
        anim_block("strafing left", "legs a blendtime 77\n   torso t"),
        event_block("fireweapon", "default", "both f turretanim"),
        event_block("death", "default", "both d blendtime 5"),
    );
    let mut h = Harness::new(script.as_bytes());
    h.both().unwrap();
    let e = |h: &Harness, name: &[u8]| {
        let i = h.engine.names.iter().position(|n| n == name).unwrap();
        h.table.entries[i]
    };
    let a = e(&h, b"a");
    assert_eq!((a.blendTime, a.stateFlags, a.flags), (77, 1 << 1, BG_ANIM_ENTRY_STRAFE_LEFT));
    let t = e(&h, b"t");
    assert_eq!((t.stateFlags, t.flags), (0, 0));
    let f = e(&h, b"f");
    assert_eq!((f.blendTime, f.flags), (30, BG_ANIM_ENTRY_FIRE_WEAPON | BG_ANIM_ENTRY_TURRET));
    let d = e(&h, b"d");
    assert_eq!((d.blendTime, d.moveSpeed, d.flags), (5, 0, BG_ANIM_ENTRY_DEATH));
    // Quirk: sound aliases are resolved on both passes.
    let mut h = Harness::new(anim_block("default", "both a sound s").as_bytes());
    h.both().unwrap();
    assert_eq!(h.engine.sound_calls, 2);
}

#[test]
fn unknown_names_in_pass_two_are_errors() {
    let mut h = Harness::new(anim_block("default", "both a").as_bytes());
    assert_eq!(h.err(false), "\x15BG_AnimationIndexForString: unknown player animation 'a'");
}

#[test]
fn runtime_registration_limits() {
    let mut h = Harness::new(anim_block("default", "both a").as_bytes());
    h.count = 513;
    assert!(h.err(true).starts_with("\x15BG_AnimationIndexForString: invalid runtime animation count 513"));
    let mut h = Harness::new(anim_block("default", "both a").as_bytes());
    h.count = 512;
    assert!(h.err(true).starts_with("\x15BG_AnimationIndexForString: exceeded maximum runtime animations (512)"));
    let mut h = Harness::new(anim_block("default", &format!("both {}", "n".repeat(64))).as_bytes());
    assert!(h.err(true).starts_with("\x15BG_AnimationIndexForString: animation name is too long"));
}

#[test]
fn copy_string_into_buffer_needs_strictly_less() {
    let ctx = ErrorContext { path: None, line: 1 };
    let mut buf = [0xaau8; 8];
    let mut used = 2;
    assert_eq!(copy_string_into_buffer(ctx, b"abcd", &mut buf, &mut used).unwrap(), 2);
    assert_eq!(used, 7);
    assert_eq!(&buf[2..7], b"abcd\0");
    assert!(copy_string_into_buffer(ctx, b"", &mut buf, &mut used).is_err());
    let mut used = -5;
    assert!(copy_string_into_buffer(ctx, b"a", &mut buf, &mut used).is_err());
}

#[test]
fn diagnostics_are_cut_at_1023_bytes_before_the_suffix() {
    let long = "q".repeat(1100);
    let mut h = Harness::new(format!("animations\nstate combat\n{{\n{long}\n").as_bytes());
    let e = h.err(true);
    let prefix = "BG_IndexForString: unknown token '";
    let expected = format!("\x15{prefix}{}: (mp/playeranim.script, line 5)", "q".repeat(1023 - prefix.len()));
    assert_eq!(e, expected);
}

#[test]
fn divergence_command_block_without_script_is_discarded() {
    // The original writes through a NULL script pointer here.
    let script = "animations\nstate combat\n{\n idle\n}\nevents\npain\n{\n{\n both a\n}\n}\n";
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.table.globalItemCount, 0);
    assert_eq!(h.count, 1);
}

#[test]
fn divergence_pending_event_row_past_the_states() {
    let script = "events\nreload\nanimations\n{\n idle\n";
    let mut h = Harness::new(script.as_bytes());
    assert_eq!(h.err(true), "\x15BG_AnimParseAnimScript: unexpected 'idle': (mp/playeranim.script, line 6)");
    // With an event row below 4 the row is used (defined in C too).
    let script = "events\njump\ncanned_animations\n{\n idle\n {\n default\n {\n both a\n }\n }\n}\n";
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.table.canned[3][1].count, 1);
}

/// A script exercising most of the grammar, the base of the mutation test.
fn feature_script() -> String {
    let mut s = String::from(
        "// defines\nset weapons autos = w1 AND w2\nset weaponclass guns = mg AND smg MINUS rifle\nset movetype moving = walk AND run AND walkcr\n",
    );
    s.push_str(&anim_block("weapons autos MINUS w1, strafing right, mounted mg42", "legs a1 duration 300 torso a2\n   both a3 blendtime 40 sound s1\n   torso a4"));
    s.push_str("canned_animations\nstate relaxed\n{\n walk\n {\n  weaponclass guns, crouching firing\n  {\n   both c1\n  }\n  default\n  {\n   both c2 turretanim\n  }\n }\n}\n");
    s.push_str("statechanges\nstatechange alert combat\n{\n movetype moving\n {\n  legs s1 torso s2\n }\n}\n");
    s.push_str(&event_block("reload", "weapons all", "both r1 sound s2"));
    s.push_str(&event_block("fireweapon", "weapon_position ads, vehicle tank", "both f1 /* c */ duration -5"));
    s
}

#[test]
fn feature_script_parses_both_passes() {
    let mut h = Harness::new(feature_script().as_bytes());
    h.both().unwrap();
    assert!(h.table.globalItemCount > 0);
}

fn mutate(base: &[u8], rng: &mut Rng) -> Vec<u8> {
    const INSERTS: &[&[u8]] = &[
        b"{", b"}", b"\n", b" ", b",", b"\"", b"//", b"/*", b"*/", b"\x00", b"\xff", b"\x80", b"AND", b"MINUS", b"NOT",
        b"none", b"none,", b"all", b"default", b"set", b"state", b"statechange", b"events", b"animations",
        b"canned_animations", b"statechanges", b"defines", b"legs", b"torso", b"both", b"duration", b"blendtime",
        b"turretanim", b"sound", b"x.wav", b"weapons", b"movetype", b"crouching", b"combat", b"idle", b"reload",
        b"death", b"=", b"99999999999999999999", b"-1",
    ];
    let mut text = base.to_vec();
    for _ in 0..=rng.index(4) {
        let at = rng.index(text.len() + 1);
        match rng.index(6) {
            0 => {
                let end = (at + rng.index(40)).min(text.len());
                text.drain(at..end);
            }
            1 => {
                let end = (at + rng.index(80)).min(text.len());
                let chunk = text[at..end].to_vec();
                let to = rng.index(text.len() + 1);
                text.splice(to..to, chunk);
            }
            2 => {
                let word = INSERTS[rng.index(INSERTS.len())];
                text.splice(at..at, [b" ", word, b" "].concat());
            }
            3 => {
                let word = INSERTS[rng.index(INSERTS.len())];
                text.splice(at..at, word.iter().copied());
            }
            4 => {
                if at < text.len() {
                    text[at] = (rng.next_u64() & 0xff) as u8;
                }
            }
            _ => {
                let end = (at + rng.index(300)).min(text.len());
                let chunk = text[at..end].to_ascii_uppercase();
                text.splice(at..end, chunk);
            }
        }
    }
    text
}

#[test]
fn mutated_scripts_never_panic_and_finish_quickly() {
    // UOANIM_FUZZ_BASE=<file> mutates another script (e.g. a game's own).
    let base = match std::env::var("UOANIM_FUZZ_BASE") {
        Ok(path) => std::fs::read(path).expect("UOANIM_FUZZ_BASE"),
        Err(_) => feature_script().into_bytes(),
    };
    let seed: u64 = std::env::var("UOANIM_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(0x9e37_79b9_7f4a_7c15);
    let mut rng = Rng::new(seed | 1);
    let start = std::time::Instant::now();
    let mut ok = 0;
    let rounds: usize = std::env::var("UOANIM_FUZZ_ROUNDS").ok().and_then(|v| v.parse().ok()).unwrap_or(crate::rounds(1500));
    for _ in 0..rounds {
        let text = mutate(&base, &mut rng);
        let mut h = Harness::with_weapons(&text, 63);
        if let Ok(path) = std::env::var("UOANIM_FUZZ_WEAPONS") {
            // `weapon NAME` lines (the difftest's include format).
            let list = std::fs::read_to_string(path).expect("UOANIM_FUZZ_WEAPONS");
            h.weapons = list
                .lines()
                .filter_map(|l| l.strip_prefix("weapon "))
                .map(|w| CString::new(w.trim()).unwrap())
                .collect();
        }
        h.engine.cap = 600;
        if h.both().is_ok() {
            ok += 1;
        }
    }
    assert!(ok > 0 || rounds < 100);
    eprintln!("mutants parsed without error: {ok}");
    // (a wall-clock bound: not under Miri, which interprets every step)
    assert!(cfg!(miri) || start.elapsed().as_secs() < 120);
}

#[test]
fn random_bytes_never_panic() {
    let mut rng = Rng::new(12345);
    for len in [0usize, 1, 2, 3, 10, 100, 1000, 5000] {
        for _ in 0..20 {
            let text: Vec<u8> = (0..len).map(|_| {
                let alphabet = b"{} \n\"/*,aAsetNOTnone=\x80\x00";
                alphabet[rng.index(alphabet.len())]
            }).collect();
            let mut h = Harness::new(&text);
            let _ = h.both();
        }
    }
}

#[test]
fn pool_limits_are_errors() {
    // 129 scripts in one list.
    let mut body = String::new();
    for _ in 0..129 {
        body.push_str("  default\n  {\n   both a\n  }\n");
    }
    let script = format!("animations\nstate combat\n{{\n idle\n {{\n{body} }}\n}}\n");
    let mut h = Harness::new(script.as_bytes());
    assert!(h.err(true).starts_with("\x15BG_AnimParseAnimScript: exceeded maximum items per script (128)"));
    // The pool: 2048 items in total.
    let mut h = Harness::new(anim_block("default", "both a").as_bytes());
    h.table.globalItemCount = 2048;
    assert!(h.err(true).starts_with("\x15BG_AnimParseAnimScript: exceeded maximum global items (2048)"));
}

#[test]
fn quirk_full_define_window_runs_into_the_next() {
    // 16 WEAPONS defines leave the window without a terminator: a lookup
    // continues into the WEAPONCLASS window (index 16 = its first define).
    let mut script = String::new();
    for i in 0..16 {
        script.push_str(&format!("set weapons d{i} = w1\n"));
    }
    script.push_str("set weaponclass foo = mg AND smg\n");
    script.push_str(&anim_block("weapons foo", "both a"));
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [0b110, 0]);
    // A full WEAPONCLASS window runs into the (always empty) MOUNTED one.
    let mut script = String::new();
    for i in 0..16 {
        script.push_str(&format!("set weaponclass d{i} = mg\n"));
    }
    script.push_str(&anim_block("weaponclass pistol", "both a"));
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditions[0].value, [1 << 4, 0]);
}

#[test]
fn twelfth_condition_is_an_error() {
    let line = ["crouching"; 12].join(" ");
    let mut h = Harness::new(anim_block(&line, "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_ParseConditions: exceeded maximum conditions (11): (mp/playeranim.script, line 7)");
    let line = ["crouching"; 11].join(" ");
    let mut h = Harness::new(anim_block(&line, "both a").as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.item(0).conditionCount, 11);
}

#[test]
fn quirk_commas_after_bare_conditions() {
    let mut h = Harness::new(anim_block("crouching, firing", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_IndexForString: unknown token 'crouching,': (mp/playeranim.script, line 7)");
    let mut h = Harness::new(anim_block("firing , crouching", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_IndexForString: unknown token ',': (mp/playeranim.script, line 7)");
    let mut h = Harness::new(anim_block("mounted \"** UNUSED **\", firing", "both a").as_bytes());
    assert_eq!(h.err(true), "\x15BG_IndexForString: unknown token ',': (mp/playeranim.script, line 7)");
}

#[test]
fn quirk_slot_indices_survive_closing_braces() {
    // `state S { <movetype> }` leaves the move-type slot set: the next
    // `state T { {` appends into S's list.
    let script = "animations\nstate relaxed\n{\n walk\n}\nstate combat\n{\n {\n  default\n  {\n   both a\n  }\n }\n}\n";
    let mut h = Harness::new(script.as_bytes());
    h.parse(true).unwrap();
    assert_eq!(h.table.animations[0][4].count, 1);
    assert_eq!(h.table.animations[3][4].count, 0);
}

#[test]
fn quirk_errors_after_an_end_of_line_peek_report_the_later_line() {
    let mut h = Harness::new(b"set weapons\n\n\n\nx");
    assert_eq!(h.err(true), "\x15BG_AnimParseAnimScript: expected condition define string: (mp/playeranim.script, line 6)");
}

/// The engine can write the module's exported name tables; a terminator
/// overwritten with a name must not let a lookup index past the table it
/// selects (the original reads past its arrays there).
#[test]
fn divergence_name_tables_without_terminator_are_searched_to_their_end() {
    type TableOf = fn(&mut ModuleData) -> &mut [S];
    let extra = c"extra";
    let cases: [(&str, TableOf); 4] = [
        ("defines\nset extra a = b\n", |d| &mut d.condition_type_str[..]),
        ("animations\nstate combat\n{\n extra\n {\n default\n {\n both a\n }\n }\n}\n", |d| &mut d.group_str[..]),
        ("statechanges\nstatechange extra combat\n{\n default\n {\n both a\n }\n}\n", |d| &mut d.state_str[..]),
        ("events\nextra\n{\n default\n {\n both a\n }\n}\n", |d| &mut d.event_str[..]),
    ];
    for (script, table) in cases {
        let mut h = Harness::new(script.as_bytes());
        let last = table(&mut h.data).last_mut().unwrap();
        *last = S { name: extra.as_ptr(), hash: string_hash(b"extra") };
        let e = h.err(true);
        assert!(e.contains("BG_IndexForString: unknown token 'extra'"), "{script:?}: {e}");
    }
}

#[test]
fn reserve_string_space_checks_like_the_copy() {
    let ctx = ErrorContext { path: None, line: 1 };
    let mut used = 2;
    assert_eq!(reserve_string_space(ctx, 4, 8, &mut used).unwrap(), 2);
    assert_eq!(used, 7);
    assert!(reserve_string_space(ctx, 0, 8, &mut used).is_err());
    assert_eq!(used, 7);
    let mut used = 0;
    assert!(reserve_string_space(ctx, usize::MAX, 8, &mut used).is_err());
    assert_eq!(used, 0);
}

/// Counters and indices the engine can see (the table, the registrations
/// and the exported parser globals) set to odd values before a parse: the
/// parse gives a diagnostic or a result, never a panic.
#[test]
fn engine_visible_counters_with_odd_values_never_panic() {
    const ODD: [i32; 9] = [i32::MIN, -65536, -2, -1, 0, 1, 127, 2047, i32::MAX];
    let base = feature_script().into_bytes();
    let mut rng = Rng::new(0x5eed_0dd5);
    for round in 0..crate::rounds(400) {
        let mut h = Harness::with_weapons(&base, 63);
        let mut odd = || ODD[rng.index(ODD.len())];
        h.table.globalItemCount = odd();
        h.table.entryCount = odd();
        h.count = odd();
        h.data.alias_used = odd();
        h.data.alias_counts[round % ANIM_COND_COUNT] = odd();
        h.data.current_anim_group = odd();
        h.data.current_event = odd();
        h.table.animations[round % ANIM_STATE_COUNT][round % ANIM_MT_COUNT].count = odd();
        h.table.events[round % ANIM_EVENT_RELOAD].count = odd();
        let item = (round * 7) % BG_ANIM_MAX_GLOBAL_SCRIPTS;
        h.table.globalItems[item].commandCount = odd();
        h.table.globalItems[item].conditionCount = odd();
        let pass1 = round % 2 == 0;
        let _ = h.parse(pass1);
        let _ = h.parse(!pass1);
    }
}

#[test]
fn engine_calls_that_may_not_return_follow_a_session_checkpoint() {
    // Registration (line 8: `both a1`) and the sound alias (same line).
    let mut h = Harness::new(anim_block("default", "both a1 sound s1").as_bytes());
    h.parse(true).unwrap();
    let [(line_a, cursor_a), (line_s, cursor_s)] = h.engine.checkpoints[..] else {
        std::panic!("{:?}", h.engine.checkpoints);
    };
    assert_eq!((line_a, line_s), (8, 8));
    let text = h.text;
    let after = |what: &[u8]| text.windows(what.len()).position(|w| w == what).map(|p| p + what.len());
    // The cursor is just past the token the call is made for.
    assert_eq!(cursor_a, after(b"a1"));
    assert_eq!(cursor_s, after(b"s1"));
}

/// The observation hooks and the stop point (used by tools): what they
/// report, and a parse observed gives the same table as one that is not.
#[test]
fn observation_hooks_and_stop_point() {
    struct Observer {
        inner: Mock,
        blocks: Vec<(usize, Option<usize>)>,
        defines: Vec<(usize, usize)>,
        uses: Vec<usize>,
    }
    impl ParseEngine for Observer {
        fn fs_open_read(&mut self, path: &CStr) -> (i32, i32) {
            self.inner.fs_open_read(path)
        }
        fn fs_read(&mut self, buffer: &mut [u8], length: i32, handle: i32) {
            self.inner.fs_read(buffer, length, handle)
        }
        fn fs_close(&mut self, handle: i32) {
            self.inner.fs_close(handle)
        }
        fn find_anim(&mut self, tree: &CStr, name: &CStr, out: &mut scr_anim_t) {
            self.inner.find_anim(tree, name, out)
        }
        fn sound_alias(&mut self, name: &CStr) -> *const c_char {
            self.inner.sound_alias(name)
        }
        fn session_checkpoint(&mut self, end: &SessionEnd, cursor: Option<usize>) {
            self.inner.session_checkpoint(end, cursor)
        }
        fn observe_block(&mut self, item: usize, line_start: Option<usize>) {
            self.blocks.push((item, line_start));
        }
        fn observe_define(&mut self, slot: usize, name_pos: usize) {
            self.defines.push((slot, name_pos));
        }
        fn observe_define_use(&mut self, slot: usize) {
            self.uses.push(slot);
        }
    }
    let script: &[u8] = b"DEFINES\nset weapons pair = w1 AND w2\nset weapons other = w3\nANIMATIONS\nstate COMBAT\n{\n\tidle\n\t{\n\t\tweapons pair\n\t\t{\n\t\t\tboth a\n\t\t}\n\t\tdefault\n\t\t{\n\t\t\tboth b\n\t\t}\n\t}\n}\nnonsense\n";
    let mut plain = Harness::new(script);
    let plain_outcome = plain.parse(true);
    let mut h = Harness::new(script);
    let mut observer = Observer { inner: h.engine, blocks: Vec::new(), defines: Vec::new(), uses: Vec::new() };
    // SAFETY: as in `Harness::parse`.
    let mut m = unsafe { h.data.module() };
    // SAFETY: as in `Harness::parse`.
    m.init_weapon_strings(h.weapons.iter().map(|w| unsafe { TableName::new(w.as_ptr()) }));
    let input = ParseInput {
        table: &mut h.table,
        runtime: Some(RuntimeNames { records: &mut h.runtime[..], count: &mut h.count }),
        engine: &mut observer,
        path: Some(PATH),
        text: h.text,
        behaviour: Behaviour::Linux,
    };
    let (outcome, stop) = parse_script_stop(m, input);
    assert_eq!(outcome, plain_outcome);
    let text = outcome.expect_err("the parse stops at 'nonsense'");
    assert_eq!(text.text(None).as_bytes(), b"\x15BG_AnimParseAnimScript: expected 'state': (mp/playeranim.script, line 20)");
    let at = |needle: &[u8]| script.windows(needle.len()).position(|w| w == needle).unwrap();
    assert_eq!((stop.token_pos, stop.token_len), (at(b"nonsense"), 8));
    assert_eq!(observer.blocks, vec![(0, Some(at(b"weapons pair\n\t\t{"))), (1, Some(at(b"default")))]);
    assert_eq!(observer.defines, vec![(0, at(b"pair =")), (1, at(b"other"))]);
    assert_eq!(observer.uses, vec![0]);
    assert_eq!(h.table.globalItemCount, plain.table.globalItemCount);
    assert_eq!(h.count, plain.count);
}

/// A diagnostic naming a token names it as it was read, though the failure
/// only points at the text: a quoted token (its escapes, a comma stripped),
/// a condition key of several tokens (`none` and comments skipped, joined
/// by spaces, cut at 63 bytes). (A key ended by the end of its line is
/// looked up after the line break was read: the next line is reported.)
#[test]
fn diagnostics_name_tokens_and_keys_as_read() {
    let long = "k".repeat(40);
    let cases: [(&str, String, i32); 6] = [
        ("weapons \"q z\" none /* c */ x,", "unknown token 'q z x'".into(), 7),
        ("weapons w1 AND \"a\\\"b\" w9", "unknown token 'a\"b w9'".into(), 8),
        (&*format!("weapons {long} {long}"), format!("unknown token '{long} {}'", "k".repeat(22)), 8),
        ("mounted \"bogus,\"", "unknown token 'bogus'".into(), 7),
        ("mounted bogus, weapons w1", "unknown token 'bogus'".into(), 7),
        ("strafing \"st x\"", "unknown token 'st x'".into(), 7),
    ];
    for (conditions, expected, line) in cases {
        let mut h = Harness::new(anim_block(conditions, "both a").as_bytes());
        assert_eq!(h.err(true), format!("\x15BG_IndexForString: {expected}: (mp/playeranim.script, line {line})"), "{conditions:?}");
    }
    let mut h = Harness::new(b"statechanges\n\"a\\\"b c\" x\n");
    assert_eq!(h.err(true), "\x15BG_AnimParseAnimScript: expected 'statechange', got 'a\"b c': (mp/playeranim.script, line 3)");
    let mut h = Harness::new(b"DEFINES\nset weapons K = w1 \"w 9\"\n");
    assert_eq!(h.err(true), "\x15BG_IndexForString: unknown token 'w1 w 9': (mp/playeranim.script, line 4)");
}
