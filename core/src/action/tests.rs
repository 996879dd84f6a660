//! Tests of the action-animation selector: the worked examples of the
//! resource, the limits, the consequences of the selection rule, the text
//! form, and a randomised comparison with a literal model of the rule.

use std::prelude::rust_2021::*;
use crate::testing::Rng;

use super::*;

const MOVE: i32 = ActionType::Move as i32;
const JUMP: i32 = ActionType::Jump as i32;
const ROOT: i32 = ActionType::Root as i32;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn add(t: &mut ActionTable, name: &str, kind: i32, dir: Vec3, speed: f32) -> usize {
    t.add(name.as_bytes(), kind, dir, speed, true).expect("valid entry")
}

fn name_of(t: &ActionTable, index: Option<usize>) -> &str {
    let index = index.expect("a finite query");
    core::str::from_utf8(t.get(index).expect("an existing entry").name()).expect("ASCII name")
}

/// The resource's script table, with the side animation split in two.
fn kork() -> ActionTable {
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "run", MOVE, v(0.0, 1.0, 0.0), 0.0);
    add(&mut t, "back", MOVE, v(0.0, -1.0, 0.0), 0.0);
    add(&mut t, "sidel", MOVE, v(-1.0, 0.0, 0.0), 0.0);
    add(&mut t, "sider", MOVE, v(1.0, 0.0, 0.0), 0.0);
    add(&mut t, "fall", ActionType::Fall.as_i32(), Vec3::ZERO, 0.0);
    add(&mut t, "jump", JUMP, v(0.0, 1.0, 1.0), 0.0);
    add(&mut t, "land", ActionType::Land.as_i32(), Vec3::ZERO, 0.0);
    t
}

// ---------------------------------------------------------------- examples

#[test]
fn four_move_directions_pick_run_back_sidel_sider() {
    let t = kork();
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.0)), "run");
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, -1.0, 0.0), 0.0)), "back");
    assert_eq!(name_of(&t, t.find(MOVE, v(-1.0, 0.0, 0.0), 0.0)), "sidel");
    assert_eq!(name_of(&t, t.find(MOVE, v(1.0, 0.0, 0.0), 0.0)), "sider");
    // The query direction is normalised first, and a speed changes nothing
    // when a single candidate survives the cull.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 7.5, 0.0), 0.6)), "run");
    assert_eq!(name_of(&t, t.find(MOVE, v(3.0, -0.5, 0.0), 1.0)), "sider");
}

#[test]
fn other_types_pick_their_only_entry() {
    let t = kork();
    assert_eq!(name_of(&t, t.find(ActionType::Fall.as_i32(), v(0.0, 1.0, 0.0), 0.0)), "fall");
    assert_eq!(name_of(&t, t.find(ActionType::Land.as_i32(), v(1.0, 0.0, 0.0), 0.0)), "land");
    assert_eq!(name_of(&t, t.find(ROOT, v(0.0, 1.0, 0.0), 0.0)), "root");
}

#[test]
fn walk_at_low_speed_run_at_high_speed() {
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "run", MOVE, v(0.0, 1.0, 0.0), 1.0);
    add(&mut t, "walk", MOVE, v(0.0, 1.0, 0.0), 0.1);
    add(&mut t, "back", MOVE, v(0.0, -1.0, 0.0), 0.0);
    add(&mut t, "sidel", MOVE, v(-1.0, 0.0, 0.0), 0.0);
    add(&mut t, "sider", MOVE, v(1.0, 0.0, 0.0), 0.0);
    let forward = v(0.0, 1.0, 0.0);
    assert_eq!(name_of(&t, t.find(MOVE, forward, 0.2)), "walk");
    assert_eq!(name_of(&t, t.find(MOVE, forward, 0.9)), "run");
    // Without a speed the direction alone decides: the first of the two.
    assert_eq!(name_of(&t, t.find(MOVE, forward, 0.0)), "run");
    // Backwards only "back" survives, whatever the speed.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, -1.0, 0.0), 0.2)), "back");
}

#[test]
fn standing_jump_goes_straight_up() {
    let mut t = kork();
    add(&mut t, "standjump", JUMP, v(0.0, 0.0, 1.0), 0.0);
    // Not moving: the player searches with the direction straight up.
    assert_eq!(name_of(&t, t.find(JUMP, v(0.0, 0.0, 1.0), 0.0)), "standjump");
    // Moving forward: the forward jump.
    assert_eq!(name_of(&t, t.find(JUMP, v(0.0, 1.0, 0.0), 0.0)), "jump");
    assert_eq!(name_of(&t, t.find(JUMP, v(0.0, 2.0, 0.5), 0.0)), "jump");
}

// ------------------------------------------------------------------ limits

#[test]
fn capacity_is_128_and_a_full_table_is_left_unchanged() {
    let mut t = ActionTable::new();
    for i in 0..MAX_ENTRIES {
        let name = format!("a{i}");
        assert_eq!(t.add(name.as_bytes(), MOVE, v(1.0, 0.0, 0.0), 0.0, true), Ok(i));
    }
    assert_eq!(t.len(), MAX_ENTRIES);
    assert_eq!(t.add(b"extra", ROOT, Vec3::ZERO, 0.0, true), Err(AddError::Full));
    assert_eq!(t.len(), MAX_ENTRIES);
    assert_eq!(t.root(), 0);
    assert_eq!(t.get(MAX_ENTRIES - 1).map(|e| e.name()), Some(&b"a127"[..]));
    assert!(t.get(MAX_ENTRIES).is_none());
    // All 128 share the direction: the first one wins the cull.
    assert_eq!(t.find(MOVE, v(1.0, 0.0, 0.0), 0.0), Some(0));
}

#[test]
fn names_are_1_to_63_bytes_without_nul() {
    let mut t = ActionTable::new();
    assert_eq!(t.add(b"", MOVE, Vec3::ZERO, 0.0, true), Err(AddError::EmptyName));
    assert_eq!(t.add(&[b'n'; 64], MOVE, Vec3::ZERO, 0.0, true), Err(AddError::NameTooLong));
    assert_eq!(t.add(b"a\0b", MOVE, Vec3::ZERO, 0.0, true), Err(AddError::NulInName));
    assert!(t.is_empty());
    assert_eq!(t.add(&[b'n'; 63], MOVE, Vec3::ZERO, 0.0, true), Ok(0));
    assert_eq!(t.add(b"x", MOVE, Vec3::ZERO, 0.0, true), Ok(1));
    let long = t.get(0).unwrap();
    assert_eq!(long.name().len(), 63);
    assert_eq!(long.name_with_nul().len(), 64);
    assert_eq!(long.name_with_nul().last(), Some(&0));
    assert_eq!(t.get(1).unwrap().name_with_nul(), b"x\0");
}

#[test]
fn types_must_be_0_to_5() {
    let mut t = ActionTable::new();
    assert_eq!(t.add(b"a", -1, Vec3::ZERO, 0.0, true), Err(AddError::BadType));
    assert_eq!(t.add(b"a", 6, Vec3::ZERO, 0.0, true), Err(AddError::BadType));
    assert_eq!(t.add(b"a", i32::MIN, Vec3::ZERO, 0.0, true), Err(AddError::BadType));
    for kind in ActionType::ALL {
        assert_eq!(t.add(kind.name().as_bytes(), kind.as_i32(), Vec3::ZERO, 0.0, true).map(t_kind), Ok(kind));
    }
    fn t_kind(i: usize) -> ActionType {
        ActionType::ALL[i]
    }
    assert_eq!(ActionType::from_name(b"MoVe"), Some(ActionType::Move));
    assert_eq!(ActionType::from_name(b"walk"), None);
}

#[test]
fn non_finite_direction_or_speed_is_refused() {
    let mut t = ActionTable::new();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(t.add(b"a", MOVE, v(bad, 0.0, 0.0), 0.0, true), Err(AddError::DirNotFinite));
        assert_eq!(t.add(b"a", MOVE, v(0.0, 0.0, bad), 0.0, true), Err(AddError::DirNotFinite));
        assert_eq!(t.add(b"a", MOVE, v(0.0, 1.0, 0.0), bad, true), Err(AddError::SpeedNotFinite));
    }
    assert!(t.is_empty());
}

#[test]
fn directions_are_stored_normalised() {
    let mut t = ActionTable::new();
    add(&mut t, "a", MOVE, v(3.0, 4.0, 0.0), 0.0);
    add(&mut t, "b", MOVE, Vec3::ZERO, 0.0);
    add(&mut t, "c", MOVE, v(-0.0, 0.0, -0.0), 0.0);
    add(&mut t, "d", MOVE, v(0.0, 1.0, 1.0), 0.0);
    add(&mut t, "e", MOVE, v(1e30, 0.0, -1e30), 0.0);
    add(&mut t, "f", MOVE, v(0.0, 1e-30, 0.0), 0.0);
    add(&mut t, "g", MOVE, v(f32::MAX, f32::MAX, f32::MAX), 0.0);
    add(&mut t, "h", MOVE, v(3e-21, 0.0, -4e-21), 0.0);
    let dir = |i: usize| t.get(i).unwrap().dir();
    assert_eq!(dir(0), v(0.6, 0.8, 0.0));
    assert_eq!(dir(1), Vec3::ZERO);
    assert!(dir(2).is_zero());
    let h = 1.0f32 / 2.0f32.sqrt();
    assert_eq!(dir(3), v(0.0, h, h));
    // Squared lengths that overflow or underflow still give unit vectors.
    assert_eq!(dir(4), v(h, 0.0, -h));
    assert_eq!(dir(5), v(0.0, 1.0, 0.0));
    let g = 1.0f32 / 3.0f32.sqrt();
    assert_eq!(dir(6), v(g, g, g));
    // A subnormal squared length would give (0.6, 0, -0.8) only roughly.
    assert_eq!(dir(7), v(0.6, 0.0, -0.8));
    // In the normal range the rule is exactly x / sqrt(x*x + y*y + z*z).
    let raw = v(0.3, -1.7, 2.9);
    let len = (raw.x * raw.x + raw.y * raw.y + raw.z * raw.z).sqrt();
    assert_eq!(raw.normalized(), v(raw.x / len, raw.y / len, raw.z / len));
}

#[test]
fn root_is_the_first_root_entry_or_0() {
    let mut t = ActionTable::new();
    assert_eq!(t.root(), 0);
    // An empty table answers 0 too, as the original does.
    assert_eq!(t.find(MOVE, v(0.0, 1.0, 0.0), 1.0), Some(0));
    add(&mut t, "run", MOVE, v(0.0, 1.0, 0.0), 0.0);
    assert_eq!(t.root(), 0);
    add(&mut t, "idle", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "idle2", ROOT, Vec3::ZERO, 0.0);
    assert_eq!(t.root(), 1);
    assert_eq!(t.find(JUMP, Vec3::ZERO, 0.0), Some(1));
}

// ------------------------------------------------------------ consequences

#[test]
fn zero_direction_and_zero_speed_give_the_root_action() {
    let t = kork();
    // Move candidates exist, but neither pass runs.
    assert_eq!(name_of(&t, t.find(MOVE, Vec3::ZERO, 0.0)), "root");
    assert_eq!(name_of(&t, t.find(JUMP, v(-0.0, 0.0, 0.0), -0.0)), "root");
    // A zero direction with a speed lets the speed pass choose among all
    // candidates of the type.
    assert_eq!(name_of(&t, t.find(MOVE, Vec3::ZERO, 0.5)), "run");
}

#[test]
fn omnidirectional_candidates_survive_the_cull_and_win_on_speed() {
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "run", MOVE, v(0.0, 1.0, 0.0), 1.0);
    add(&mut t, "shuffle", MOVE, Vec3::ZERO, 0.3);
    add(&mut t, "back", MOVE, v(0.0, -1.0, 0.0), 1.0);
    // Forward at shuffling speed: "back" is culled, "shuffle" is stepped
    // over by the cull and is closest in speed.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.3)), "shuffle");
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.9)), "run");
    // Without a speed the cull's choice stands.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.0)), "run");
    // Sideways: both directional entries are culled, "shuffle" is the last
    // candidate standing.
    assert_eq!(name_of(&t, t.find(MOVE, v(1.0, 0.0, 0.0), 0.0)), "shuffle");
}

#[test]
fn ties_keep_the_earlier_candidate() {
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "first", MOVE, v(0.0, 1.0, 0.0), 0.5);
    add(&mut t, "second", MOVE, v(0.0, 2.0, 0.0), 0.5);
    add(&mut t, "third", MOVE, v(0.0, 1.0, 0.0), 1.5);
    // Equal dot products: the first one that raised the best stays.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.0)), "first");
    // Equal speed differences: the earlier one.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.5)), "first");
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 1.0)), "first");
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 1.25)), "third");
}

#[test]
fn quirk_last_candidate_standing_is_chosen_whatever_it_is() {
    // Quirk: the original's default table with a single side animation
    // plays it when moving right: "run" and "back" are culled and the lone
    // survivor is taken without a dot test.
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "run", MOVE, v(0.0, 1.0, 0.0), 0.0);
    add(&mut t, "back", MOVE, v(0.0, -1.0, 0.0), 0.0);
    add(&mut t, "side", MOVE, v(-1.0, 0.0, 0.0), 0.0);
    assert_eq!(name_of(&t, t.find(MOVE, v(1.0, 0.0, 0.0), 0.0)), "side");
    // Even one without a sequence.
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    t.add(b"ghost", MOVE, v(0.0, 1.0, 0.0), 0.0, false).unwrap();
    add(&mut t, "back", MOVE, v(0.0, -1.0, 0.0), 0.0);
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.0)), "ghost");
    // A single candidate is never culled.
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "back", MOVE, v(0.0, -1.0, 0.0), 0.0);
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.0)), "back");
}

#[test]
fn quirk_no_match_above_0_1_keeps_the_root() {
    // The walk can end with several candidates left and none chosen: the
    // result is then still the root action.
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    t.add(b"a", MOVE, v(0.0, 1.0, 0.0), 0.0, false).unwrap();
    t.add(b"b", MOVE, v(0.0, -1.0, 0.0), 0.0, false).unwrap();
    // Neither takes part in the cull (no sequence) and two are left.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.0)), "root");
    // Nor in the speed pass.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 1.0)), "root");
}

#[test]
fn quirk_a_new_best_erases_the_earlier_ties() {
    // "a" and "b" tie at the first best; "c" beats them, the restarted walk
    // erases both, so the speed pass only sees "c" and "d" (omni).
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "a", MOVE, v(1.0, 1.0, 0.0), 0.5);
    add(&mut t, "b", MOVE, v(1.0, 1.0, 0.0), 0.5);
    add(&mut t, "c", MOVE, v(1.0, 0.0, 0.0), 2.0);
    add(&mut t, "d", MOVE, Vec3::ZERO, 3.0);
    assert_eq!(name_of(&t, t.find(MOVE, v(1.0, 0.0, 0.0), 0.5)), "c");
    assert_eq!(name_of(&t, t.find(MOVE, v(1.0, 0.0, 0.0), 2.9)), "d");
    assert_eq!(name_of(&t, t.find(MOVE, v(1.0, 1.0, 0.0), 0.5)), "a");
}

#[test]
fn speed_pass_ignores_entries_without_sequence_and_far_speeds() {
    let mut t = ActionTable::new();
    add(&mut t, "root", ROOT, Vec3::ZERO, 0.0);
    add(&mut t, "a", MOVE, Vec3::ZERO, 1.0);
    t.add(b"b", MOVE, Vec3::ZERO, 5.0, false).unwrap();
    assert_eq!(name_of(&t, t.find(MOVE, Vec3::ZERO, 5.0)), "a");
    // A difference of 1000 or more never wins.
    assert_eq!(name_of(&t, t.find(MOVE, Vec3::ZERO, 1001.0)), "root");
    assert_eq!(name_of(&t, t.find(MOVE, Vec3::ZERO, 1000.9)), "a");
    // Negative speeds are just numbers.
    assert_eq!(name_of(&t, t.find(MOVE, Vec3::ZERO, -3.0)), "a");
}

#[test]
fn unknown_type_and_bad_queries() {
    let t = kork();
    assert_eq!(t.find(-1, v(0.0, 1.0, 0.0), 1.0), Some(0));
    assert_eq!(t.find(6, v(0.0, 1.0, 0.0), 1.0), Some(0));
    assert_eq!(t.find(i32::MAX, Vec3::ZERO, 0.0), Some(0));
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        assert_eq!(t.find(MOVE, v(bad, 1.0, 0.0), 0.0), None);
        assert_eq!(t.find(MOVE, v(0.0, 1.0, bad), 0.0), None);
        assert_eq!(t.find(MOVE, v(0.0, 1.0, 0.0), bad), None);
    }
    // Huge and tiny finite directions still point somewhere.
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, f32::MAX, 0.0), 0.0)), "run");
    assert_eq!(name_of(&t, t.find(MOVE, v(-1e-40, 0.0, 0.0), 0.0)), "sidel");
}

// --------------------------------------------------------------- text form

#[test]
fn parse_the_resource_table() {
    let text = b"\
# The resource's DefaultAnimation, with speeds.
root  Root
run   Move dir 0 1 0 speed 1.0
walk  Move dir 0 1 0 speed 0.1   // the backward animation, for testing
back  Move dir 0 -1 0
sidel Move dir -1 0 0
sider MOVE dir 1 0 0
fall  fall
jump  jump dir 0 1 1

land  Land
look  Other nosequence
";
    let mut t = ActionTable::new();
    assert_eq!(t.parse(text), Ok(10));
    assert_eq!(t.len(), 10);
    assert_eq!(t.root(), 0);
    let walk = t.get(2).unwrap();
    assert_eq!(walk.name(), b"walk");
    assert_eq!(walk.kind(), ActionType::Move);
    assert_eq!(walk.speed(), 0.1);
    assert!(walk.has_sequence());
    assert!(!t.get(9).unwrap().has_sequence());
    assert_eq!(t.get(9).unwrap().kind(), ActionType::Other);
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.2)), "walk");
    assert_eq!(name_of(&t, t.find(MOVE, v(0.0, 1.0, 0.0), 0.9)), "run");
    // Parsing appends.
    assert_eq!(t.parse(b"extra other\r\n"), Ok(1));
    assert_eq!(t.get(10).unwrap().name(), b"extra");
}

#[test]
fn parse_syntax_details() {
    let mut t = ActionTable::new();
    assert_eq!(t.parse(b""), Ok(0));
    assert_eq!(t.parse(b"\n\n   \t\n# only comments\n// here too\n"), Ok(0));
    assert_eq!(t.parse(b"a move nosequence speed -2.5e-1 dir 1e0 0 0#c"), Ok(1));
    let a = t.get(0).unwrap();
    assert_eq!((a.speed(), a.dir(), a.has_sequence()), (-0.25, v(1.0, 0.0, 0.0), false));
    assert_eq!(t.parse(b"b\tJUMP\tDIR .5 0 0 SPEED 3.\r"), Ok(1));
    assert_eq!(t.get(1).unwrap().dir(), v(1.0, 0.0, 0.0));
    assert_eq!(t.parse(b"c/d root"), Ok(1));
    assert_eq!(t.get(2).unwrap().name(), b"c/d");
    assert_eq!(t.parse(&[0xC3, 0xA9, b' ', b'm', b'o', b'v', b'e']), Ok(1));
    assert_eq!(t.get(3).unwrap().name(), "\u{e9}".as_bytes());
}

fn parse_error(text: &[u8]) -> String {
    let mut t = ActionTable::new();
    t.add(b"keep", ROOT, Vec3::ZERO, 0.0, true).unwrap();
    let err = t.parse(text).expect_err("a bad text");
    // Atomic: nothing was added.
    assert_eq!(t.len(), 1);
    assert_eq!(t.get(0).unwrap().name(), b"keep");
    assert!(t.get(1).is_none());
    err.to_string()
}

#[test]
fn parse_errors_name_the_line_and_add_nothing() {
    assert_eq!(parse_error(b"run"), "line 1: missing type (root, move, jump, fall, land or other)");
    assert_eq!(parse_error(b"a move\n\n# c\nrun walk"), "line 4: unknown type 'walk'");
    assert_eq!(parse_error(b"a move\nb move dir 1 0"), "line 2: 'dir' needs 3 numbers");
    assert_eq!(parse_error(b"a move speed"), "line 1: 'speed' needs a number");
    assert_eq!(parse_error(b"a move speed fast"), "line 1: bad number 'fast'");
    assert_eq!(parse_error(b"a move dir 0 x 0"), "line 1: bad number 'x'");
    assert_eq!(parse_error(b"a move speed inf"), "line 1: number is not finite: 'inf'");
    assert_eq!(parse_error(b"a move dir 0 nan 0"), "line 1: number is not finite: 'nan'");
    assert_eq!(parse_error(b"a move speed 1e39"), "line 1: number is not finite: '1e39'");
    assert_eq!(parse_error(b"a move speed 1 speed 2"), "line 1: 'speed' given twice");
    assert_eq!(parse_error(b"a move dir 1 0 0 dir 1 0 0"), "line 1: 'dir' given twice");
    assert_eq!(parse_error(b"a move nosequence nosequence"), "line 1: 'nosequence' given twice");
    assert_eq!(parse_error(b"a move fast"), "line 1: unexpected 'fast'");
    assert_eq!(parse_error(b"a move 1 0 0"), "line 1: unexpected '1'");
    let long = [&[b'n'; 64][..], b" move"].concat();
    assert_eq!(parse_error(&long), "line 1: name is longer than 63 bytes");
    let ok63 = [&[b'n'; 63][..], b" move"].concat();
    assert_eq!(ActionTable::new().parse(&ok63), Ok(1));
}

#[test]
fn parse_past_capacity_is_refused_atomically() {
    let mut t = ActionTable::new();
    for i in 0..100 {
        t.add(format!("e{i}").as_bytes(), MOVE, Vec3::ZERO, 0.0, true).unwrap();
    }
    let mut text = String::new();
    for i in 0..29 {
        text.push_str(&format!("p{i} other\n"));
    }
    let err = t.parse(text.as_bytes()).unwrap_err();
    assert_eq!(err.line(), 29);
    assert_eq!(err.to_string(), "line 29: too many entries (the table holds 128)");
    assert_eq!(t.len(), 100);
    // One fewer fits exactly.
    let fits: String = text.lines().take(28).map(|l| format!("{l}\n")).collect();
    assert_eq!(t.parse(fits.as_bytes()), Ok(28));
    assert_eq!(t.len(), MAX_ENTRIES);
}

// ------------------------------------------------------- randomised model

/// splitmix64: a tiny deterministic generator.
/// The directions and speeds of the randomised tests.
trait Directions {
    fn dir(&mut self) -> Vec3;
    fn speed(&mut self) -> f32;
}

impl Directions for Rng {
    /// A direction: often from a small palette (to make ties and exact
    /// zeros likely), sometimes arbitrary.
    fn dir(&mut self) -> Vec3 {
        const PALETTE: [(f32, f32, f32); 12] = [
            (0.0, 0.0, 0.0),
            (0.0, 1.0, 0.0),
            (0.0, -1.0, 0.0),
            (1.0, 0.0, 0.0),
            (-1.0, 0.0, 0.0),
            (0.0, 1.0, 1.0),
            (0.0, 0.0, 1.0),
            (1.0, 1.0, 0.0),
            (-1.0, 1.0, 0.0),
            (0.1, 1.0, 0.0),
            (1.0, 0.1, 0.0),
            (2.0, 0.0, 0.0),
        ];
        if self.below(4) == 0 {
            let mut c = || (self.unit() * 2.0 - 1.0) * if self.below(8) == 0 { 0.0 } else { 1.0 };
            Vec3::new(c(), c(), c())
        } else {
            let (x, y, z) = self.pick(&PALETTE);
            Vec3::new(x, y, z)
        }
    }

    fn speed(&mut self) -> f32 {
        if self.below(3) == 0 {
            self.unit() * 3.0 - 0.5
        } else {
            self.pick(&[0.0, 0.0, 0.1, 0.25, 0.5, 1.0, 1.0, 2.0, 1500.0])
        }
    }
}

/// One entry of the model: what the original's `ActionAnimation` holds.
#[derive(Clone, Copy)]
struct ModelEntry {
    kind: i32,
    dir: Vec3,
    speed: f32,
    sequence: i32,
}

fn model_normalize(d: Vec3) -> Vec3 {
    if d.x == 0.0 && d.y == 0.0 && d.z == 0.0 {
        return d;
    }
    let len = (d.x * d.x + d.y * d.y + d.z * d.z).sqrt();
    Vec3::new(d.x / len, d.y / len, d.z / len)
}

/// `findActionAnimation`, transcribed step by step (erase and restart).
fn model_find(table: &[ModelEntry], root: usize, kind: i32, dir: Vec3, speed: f32) -> usize {
    let mut action = root;
    let mut matches: Vec<usize> = Vec::new();
    for (i, e) in table.iter().enumerate() {
        if e.kind == kind {
            matches.push(i);
        }
    }
    if !(dir.x == 0.0 && dir.y == 0.0 && dir.z == 0.0) {
        let mut cur_max = 0.1f32;
        let dir = model_normalize(dir);
        let mut d_iter = 0usize;
        loop {
            let size = matches.len();
            if d_iter == size {
                break;
            }
            if size > 1 {
                let anim = table[matches[d_iter]];
                let zero = anim.dir.x == 0.0 && anim.dir.y == 0.0 && anim.dir.z == 0.0;
                if anim.sequence != -1 && !zero {
                    let d = dir.x * anim.dir.x + dir.y * anim.dir.y + dir.z * anim.dir.z;
                    if d < cur_max {
                        matches.remove(d_iter);
                        d_iter = 0;
                        continue;
                    } else if d > cur_max {
                        cur_max = d;
                        action = matches[d_iter];
                        d_iter = 0;
                        continue;
                    }
                }
                d_iter += 1;
            } else {
                action = matches[0];
                break;
            }
        }
    }
    if speed != 0.0 {
        let mut smallest = 1000.0f32;
        for &m in &matches {
            let anim = table[m];
            if anim.sequence != -1 {
                let diff = (speed - anim.speed).abs();
                if diff < smallest {
                    smallest = diff;
                    action = m;
                }
            }
        }
    }
    action
}

#[test]
fn randomised_tables_and_queries_match_the_literal_model() {
    let mut rng = Rng::new(0x5EED_AC71_0000_0001);
    let mut queries = 0usize;
    for round in 0..crate::rounds(3000) {
        let size = match round % 10 {
            0 => rng.below(129) as usize,
            1..=3 => rng.below(3) as usize,
            _ => rng.below(24) as usize,
        };
        // Few types per table so that candidate lists are long.
        let types = 1 + rng.below(6) as i32;
        let mut table = ActionTable::new();
        let mut model: Vec<ModelEntry> = Vec::new();
        for i in 0..size {
            let kind = rng.below(types as u64) as i32;
            let dir = rng.dir();
            let speed = rng.speed();
            let has_sequence = rng.below(6) != 0;
            let name = format!("e{i}");
            assert_eq!(table.add(name.as_bytes(), kind, dir, speed, has_sequence), Ok(i));
            model.push(ModelEntry {
                kind,
                dir: model_normalize(dir),
                speed,
                sequence: if has_sequence { i as i32 } else { -1 },
            });
            assert_eq!(table.get(i).unwrap().dir(), model[i].dir);
        }
        let root = model.iter().position(|e| e.kind == ROOT).unwrap_or(0);
        assert_eq!(table.root(), root);
        for _ in 0..20 {
            let kind = rng.below(8) as i32 - 1;
            let dir = if rng.below(5) == 0 { Vec3::ZERO } else { rng.dir() };
            let speed = if rng.below(3) == 0 { 0.0 } else { rng.speed() };
            let expected = model_find(&model, root, kind, dir, speed);
            assert_eq!(
                table.find(kind, dir, speed),
                Some(expected),
                "round {round}: kind {kind} dir {dir:?} speed {speed}"
            );
            queries += 1;
        }
    }
    assert_eq!(queries, 20 * crate::rounds(3000));
}

#[test]
fn random_bytes_never_panic_the_parser_and_failures_change_nothing() {
    let mut rng = Rng::new(0xF00D_0000_0000_0007);
    const PIECES: [&[u8]; 16] = [
        b" ", b"\t", b"\n", b"\r\n", b"#", b"//", b"move", b"ROOT", b"dir", b"speed", b"nosequence", b"1",
        b"-0.5e3", b"nan", b"\0", b"\xff\xfe",
    ];
    let mut table = ActionTable::new();
    for _ in 0..crate::rounds(4000) {
        let mut text = Vec::new();
        for _ in 0..rng.below(40) {
            if rng.below(3) == 0 {
                text.push(rng.next_u64() as u8);
            } else {
                text.extend_from_slice(rng.pick(&PIECES));
            }
            if rng.below(50) == 0 {
                text.extend(std::iter::repeat_n(b'n', rng.below(100) as usize));
            }
        }
        let before = table.len();
        match table.parse(&text) {
            Ok(added) => assert_eq!(table.len(), before + added),
            Err(err) => {
                assert_eq!(table.len(), before);
                assert!(err.line() >= 1);
                assert!(err.message().as_bytes().starts_with(format!("line {}: ", err.line()).as_bytes()));
            }
        }
        if table.len() > 100 {
            table = ActionTable::new();
        }
    }
}

#[test]
fn arbitrary_floats_never_panic_add_or_find() {
    let mut rng = Rng::new(0xF10A_7000_0000_0003);
    let any = |rng: &mut Rng| match rng.below(4) {
        0 => f32::from_bits(rng.next_u64() as u32),
        1 => rng.pick(&[0.0, -0.0, f32::MIN_POSITIVE, 1e-45, -1e-45, f32::MAX, f32::MIN, f32::NAN, f32::INFINITY]),
        _ => rng.unit() * 2.0 - 1.0,
    };
    for _ in 0..crate::rounds(300) {
        let mut table = ActionTable::new();
        for _ in 0..rng.below(40) {
            let dir = Vec3::new(any(&mut rng), any(&mut rng), any(&mut rng));
            let speed = any(&mut rng);
            let added = table.add(b"e", rng.below(7) as i32 - 1, dir, speed, rng.below(2) == 0);
            if let Ok(i) = added {
                let stored = table.get(i).unwrap().dir();
                assert!(stored.is_finite());
                let len = stored.dot(stored);
                assert!(stored.is_zero() || (len - 1.0).abs() < 1e-5, "{dir:?} -> {stored:?}");
            }
        }
        for _ in 0..50 {
            let dir = Vec3::new(any(&mut rng), any(&mut rng), any(&mut rng));
            let speed = any(&mut rng);
            let kind = rng.below(8) as i32 - 1;
            match table.find(kind, dir, speed) {
                None => assert!(!dir.is_finite() || !speed.is_finite()),
                Some(i) => {
                    assert!(dir.is_finite() && speed.is_finite());
                    assert!(i < table.len() || i == 0);
                }
            }
        }
    }
}
