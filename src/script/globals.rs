// The player-animation module's globals, listed once: each with its C name,
// the core's name for it, its Rust type, its initial value and (for a data
// symbol) its C declaration. Not a module: a single macro invocation that is
// `include!`d three times, each time with a `player_anim_globals!` of its
// own: by `script::module` (the core's views `Module`, `ModuleData`,
// `SessionGlobals` and the initial values), by the units' FFI layer (the
// `ModuleCell` statics, their reset and the function that borrows them) and
// by the header generator (`tools/headers`) (the C declarations of the header).
//
// The groups, in the header's order: `tables` and `defines` are the parser's
// (`Module`), `types` is read by C only (its value names other statics),
// `script` and `private` are the rest of the module's state
// (`SessionGlobals`); `private` has no C symbol, and `zeroed` starts (and is
// reset to) all-zero bits.
player_anim_globals! {
    tables {
        /// `weaponStrings`.
        pub(crate) weaponStrings as weapon_strings: [S; MAX_WEAPONS] = [S { name: core::ptr::null(), hash: 0 }; MAX_WEAPONS]
            => "bg_indexed_string_t weaponStrings[MAX_WEAPONS]";
        /// `animStateStr`.
        pub(crate) animStateStr as state_str: [S; 5] = tables::ANIM_STATE_STR => "bg_indexed_string_t animStateStr[5]";
        /// `bgAnimGroupStrings`.
        pub(crate) bgAnimGroupStrings as group_str: [S; 19] = tables::ANIM_GROUP_STRINGS => "bg_indexed_string_t bgAnimGroupStrings[19]";
        /// `bgAnimEventStrings`.
        pub(crate) bgAnimEventStrings as event_str: [S; 17] = tables::ANIM_EVENT_STRINGS => "bg_indexed_string_t bgAnimEventStrings[17]";
        /// `animBodyPartsStr`.
        pub(crate) animBodyPartsStr as body_parts_str: [S; 5] = tables::ANIM_BODY_PARTS_STR => "bg_indexed_string_t animBodyPartsStr[5]";
        /// `animMountedStr`.
        pub(crate) animMountedStr as mounted_str: [S; 9] = tables::ANIM_MOUNTED_STR => "bg_indexed_string_t animMountedStr[9]";
        /// `animVehicleMotionStr`.
        pub(crate) animVehicleMotionStr as vehicle_motion_str: [S; 5] = tables::ANIM_VEHICLE_MOTION_STR
            => "bg_indexed_string_t animVehicleMotionStr[5]";
        /// `animVehicleStr`.
        pub(crate) animVehicleStr as vehicle_str: [S; 5] = tables::ANIM_VEHICLE_STR => "bg_indexed_string_t animVehicleStr[5]";
        /// `animWeaponClassStr`.
        pub(crate) animWeaponClassStr as weapon_class_str: [S; 12] = tables::ANIM_WEAPON_CLASS_STR
            => "bg_indexed_string_t animWeaponClassStr[12]";
        /// `animWeaponPositionStr`.
        pub(crate) animWeaponPositionStr as weapon_position_str: [S; 3] = tables::ANIM_WEAPON_POSITION_STR
            => "bg_indexed_string_t animWeaponPositionStr[3]";
        /// `animStrafeStateStr`.
        pub(crate) animStrafeStateStr as strafe_str: [S; 4] = tables::ANIM_STRAFE_STATE_STR => "bg_indexed_string_t animStrafeStateStr[4]";
        /// `bgAnimConditionTypeStrings`.
        pub(crate) bgAnimConditionTypeStrings as condition_type_str: [S; 12] = tables::ANIM_CONDITION_TYPE_STRINGS
            => "bg_indexed_string_t bgAnimConditionTypeStrings[12]";
        /// `bgAnimParseSectionStrings`.
        pub(crate) bgAnimParseSectionStrings as section_str: [S; 6] = tables::ANIM_PARSE_SECTION_STRINGS
            => "bg_indexed_string_t bgAnimParseSectionStrings[6]";
    }
    types {
        /// `bgAnimConditionTypes`: mode and value table per condition type
        /// (`tables::CONDITION_TYPES`, as the addresses of the tables).
        bgAnimConditionTypes: [bg_anim_condition_type_t; ANIM_COND_COUNT] = [
            condition_type(ANIM_CONDMODE_BITMASK, weaponStrings.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_BITMASK, animWeaponClassStr.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_EQUAL, animMountedStr.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_EQUAL, animVehicleStr.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_EQUAL, animVehicleMotionStr.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_BITMASK, bgAnimGroupStrings.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_EQUAL, core::ptr::null_mut()),
            condition_type(ANIM_CONDMODE_EQUAL, core::ptr::null_mut()),
            condition_type(ANIM_CONDMODE_EQUAL, core::ptr::null_mut()),
            condition_type(ANIM_CONDMODE_EQUAL, animWeaponPositionStr.as_ptr().cast()),
            condition_type(ANIM_CONDMODE_EQUAL, animStrafeStateStr.as_ptr().cast()),
        ] => "bg_anim_condition_type_t bgAnimConditionTypes[ANIM_COND_COUNT]";
    }
    defines {
        /// `bgAnimParseCurrentAnimGroup` (`bg_anim_move_type_t`).
        pub bgAnimParseCurrentAnimGroup as current_anim_group: i32 = ANIM_MT_UNUSED => "int32_t bgAnimParseCurrentAnimGroup";
        /// `bgAnimParseCurrentEvent` (`bg_anim_event_t`).
        pub bgAnimParseCurrentEvent as current_event: i32 = ANIM_EVENT_PAIN => "int32_t bgAnimParseCurrentEvent";
        /// `bgAnimConditionAliases`: the define names, 16 per condition type.
        pub(crate) bgAnimConditionAliases as aliases: [S; ALIAS_COUNT] = [S { name: core::ptr::null(), hash: 0 }; ALIAS_COUNT]
            => "bg_indexed_string_t bgAnimConditionAliases[(ANIM_COND_COUNT * BG_ANIM_CONDITION_VALUE_COUNT)]";
        /// `bgAnimConditionAliasBits`.
        pub bgAnimConditionAliasBits as alias_bits: [bg_condition_bits_t; ALIAS_COUNT] = [bg_condition_bits_t::ZERO; ALIAS_COUNT]
            => "bg_condition_bits_t bgAnimConditionAliasBits[(ANIM_COND_COUNT * BG_ANIM_CONDITION_VALUE_COUNT)]";
        /// `bgAnimConditionAliasCounts`.
        pub bgAnimConditionAliasCounts as alias_counts: [i32; ANIM_COND_COUNT] = [0; ANIM_COND_COUNT]
            => "int32_t bgAnimConditionAliasCounts[ANIM_COND_COUNT]";
        /// `bgAnimConditionAliasStringBuffer`: the define-name pool.
        pub bgAnimConditionAliasStringBuffer as alias_buffer: [u8; BG_ANIM_CONDITION_ALIAS_STRING_BUFFER_SIZE] =
            [0; BG_ANIM_CONDITION_ALIAS_STRING_BUFFER_SIZE] => "char bgAnimConditionAliasStringBuffer[BG_ANIM_CONDITION_ALIAS_STRING_BUFFER_SIZE]";
        /// `bgAnimConditionAliasStringUsed`.
        pub bgAnimConditionAliasStringUsed as alias_used: i32 = 0 => "int32_t bgAnimConditionAliasStringUsed";
    }
    script {
        /// `bgAnimScriptFileBuffer`: the script text, loaded once.
        pub(crate) bgAnimScriptFileBuffer as script: [u8; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE] = [0; BG_ANIM_SCRIPT_FILE_BUFFER_SIZE]
            => "char bgAnimScriptFileBuffer[BG_ANIM_SCRIPT_FILE_BUFFER_SIZE]";
        /// `bgAnimScriptLoaded`.
        pub(crate) bgAnimScriptLoaded as loaded: i32 = 0 => "int32_t bgAnimScriptLoaded";
        /// `bgPlayerAnimScriptPath` = "mp/playeranim.script"; NULL after a parse.
        pub(crate) bgPlayerAnimScriptPath as path: *const c_char = c"mp/playeranim.script".as_ptr()
            => "const char *bgPlayerAnimScriptPath";
    }
    private {
        /// Open parse sessions (`com_numParseSessions`): a parse abandoned by
        /// an error leaves its session open, as in the original.
        pub(crate) PARSE_SESSIONS as sessions: i32 = 0;
        /// The parse session outside any parse of the module's own.
        pub(crate) OUTER_SESSION as outer: OuterSession = OuterSession::INITIAL;
    }
    zeroed {
        /// The table the standalone helpers use while no table is published
        /// (divergence: the C original would dereference NULL where it reads
        /// one).
        pub(crate) SCRATCH_TABLE as scratch: bg_static_animation_table_t;
    }
}
