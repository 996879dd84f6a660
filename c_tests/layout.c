/* layout.c — the generated headers against the C original's layouts.
 *
 * Compiled (never run) by c_tests/run.sh for every target: gcc -m32 and
 * -m64, i686-w64-mingw32-gcc and x86_64-w64-mingw32-gcc, clang for aarch64
 * (LP64: the x86_64 layouts, as the engine's arm64 builds). Every size and
 * offset below is the one of bg_animation_types.h / xanim_types.h /
 * client_info_types.h / player_state_types.h at that pointer width, on Linux
 * and Windows alike, the same numbers the Rust mirrors assert at compile
 * time and the differential drivers' layout.h files assert on their side. */
#include <stddef.h>
#include "uoanim_common.h"
#include "uoanim_playeranim.h"
#include "uoanim_animtree.h"
#include "uoanim_action.h"

#if defined(__i386__)
#define ARCH(i686, x86_64) (i686)
#elif defined(__x86_64__) || defined(__aarch64__)
#define ARCH(i686, x86_64) (x86_64)
#else
#error "uoanim supports i386, x86_64 and aarch64"
#endif

/* the types whose size differs between the Linux and Windows ABIs are in no
 * mirrored structure; the ones the mirrors use are the same on both */
_Static_assert(sizeof(int) == 4 && sizeof(void *) == ARCH(4, 8), "int and pointer sizes");

#define SIZE(type, i686, x86_64) \
    _Static_assert(sizeof(type) == ARCH(i686, x86_64), "sizeof(" #type ")")
#define OFFSET(type, field, i686, x86_64) \
    _Static_assert(offsetof(type, field) == ARCH(i686, x86_64), "offsetof(" #type ", " #field ")")

/* ---- shared ---- */
SIZE(qboolean, 4, 4);
SIZE(scr_anim_t, 4, 4);
OFFSET(scr_anim_t, animIndex, 0, 0);
OFFSET(scr_anim_t, treeIndex, 2, 2);
SIZE(script_anim_tree_ref_t, 4, 8);
OFFSET(script_anim_tree_ref_t, tree, 0, 0);

/* ---- bg_animation_types.h ---- */
SIZE(bg_indexed_string_t, 8, 16);
OFFSET(bg_indexed_string_t, name, 0, 0);
OFFSET(bg_indexed_string_t, hash, 4, 8);

SIZE(bg_anim_condition_t, 12, 12);
OFFSET(bg_anim_condition_t, type, 0, 0);
OFFSET(bg_anim_condition_t, value, 4, 4);

SIZE(bg_condition_bits_t, 8, 8);

SIZE(bg_anim_condition_type_t, 8, 16);
OFFSET(bg_anim_condition_type_t, mode, 0, 0);
OFFSET(bg_anim_condition_type_t, values, 4, 8);

SIZE(bg_anim_script_command_t, 0x10, 0x18);
OFFSET(bg_anim_script_command_t, bodyPart, 0, 0);
OFFSET(bg_anim_script_command_t, animIndex, 4, 4);
OFFSET(bg_anim_script_command_t, duration, 8, 8);
OFFSET(bg_anim_script_command_t, soundAliasName, 0xc, 0x10);

SIZE(bg_anim_script_t, 0x10c, 0x150);
OFFSET(bg_anim_script_t, conditionCount, 0, 0);
OFFSET(bg_anim_script_t, conditions, 4, 4);
OFFSET(bg_anim_script_t, commandCount, 0x88, 0x88);
OFFSET(bg_anim_script_t, commands, 0x8c, 0x90);

SIZE(bg_anim_script_list_t, 0x204, 0x408);
OFFSET(bg_anim_script_list_t, count, 0, 0);
OFFSET(bg_anim_script_list_t, scripts, 4, 8);

SIZE(bg_static_animation_t, 0x5c, 0x5c);
OFFSET(bg_static_animation_t, name, 0, 0);
OFFSET(bg_static_animation_t, blendTime, 0x40, 0x40);
OFFSET(bg_static_animation_t, moveSpeed, 0x44, 0x44);
OFFSET(bg_static_animation_t, duration, 0x48, 0x48);
OFFSET(bg_static_animation_t, hash, 0x4c, 0x4c);
OFFSET(bg_static_animation_t, flags, 0x50, 0x50);
OFFSET(bg_static_animation_t, stateFlags, 0x54, 0x54);
OFFSET(bg_static_animation_t, usedByScript, 0x58, 0x58);

SIZE(bg_runtime_animation_t, 0x48, 0x48);
OFFSET(bg_runtime_animation_t, anim, 0, 0);
OFFSET(bg_runtime_animation_t, hash, 4, 4);
OFFSET(bg_runtime_animation_t, name, 8, 8);

SIZE(bg_static_animation_table_t, 0xa7acc, 0xdfd98);
OFFSET(bg_static_animation_table_t, entries, 0, 0);
OFFSET(bg_static_animation_table_t, entryCount, 0xb800, 0xb800);
OFFSET(bg_static_animation_table_t, animations, 0xb804, 0xb808);
OFFSET(bg_static_animation_table_t, canned, 0x14924, 0x1da48);
OFFSET(bg_static_animation_table_t, statechanges, 0x1da44, 0x2fc88);
OFFSET(bg_static_animation_table_t, events, 0x1fa84, 0x33d08);
OFFSET(bg_static_animation_table_t, scriptLists, 0x20eac, 0x36558);
OFFSET(bg_static_animation_table_t, globalItems, 0x21ac4, 0x37d88);
OFFSET(bg_static_animation_table_t, globalItemCount, 0xa7ac4, 0xdfd88);
OFFSET(bg_static_animation_table_t, animTree, 0xa7ac8, 0xdfd90);

SIZE(bgs_t, 0xbaef4, 0xf33d0);
OFFSET(bgs_t, animationTable, 0, 0);
OFFSET(bgs_t, resolvedTorsoAnimHandle, 0xa7acc, 0xdfd98);
OFFSET(bgs_t, resolvedLegsAnimHandle, 0xa7ad0, 0xdfd9c);
OFFSET(bgs_t, resolvedTurningAnimHandle, 0xa7ad4, 0xdfda0);
OFFSET(bgs_t, soundAliasCallback, 0xa7ad8, 0xdfda8);
OFFSET(bgs_t, soundEventCallback, 0xa7adc, 0xdfdb0);
OFFSET(bgs_t, multiplayerAnimTree, 0xa7ae0, 0xdfdb8);
OFFSET(bgs_t, rootAnimHandle, 0xa7ae4, 0xdfdc0);
OFFSET(bgs_t, torsoAnimHandle, 0xa7ae8, 0xdfdc4);
OFFSET(bgs_t, legsAnimHandle, 0xa7aec, 0xdfdc8);
OFFSET(bgs_t, turningAnimHandle, 0xa7af0, 0xdfdcc);
OFFSET(bgs_t, clientinfo, 0xa7af4, 0xdfdd0);

/* ---- client_info_types.h / player_state_types.h ---- */
SIZE(clientInfo_t, 0x4d0, 0x4d8);
OFFSET(clientInfo_t, infoValid, 0, 0);
OFFSET(clientInfo_t, moduleState, 4, 4);
OFFSET(clientInfo_t, clientNum, 8, 8);
OFFSET(clientInfo_t, conditionWords, 0x468, 0x468);
OFFSET(clientInfo_t, animTransitionTime, 0x4c0, 0x4c0);
OFFSET(clientInfo_t, animTree, 0x4c4, 0x4c8);

SIZE(playerState_t, 0x4504, 0x4504);
OFFSET(playerState_t, commandTime, 0, 0);
OFFSET(playerState_t, pmType, 4, 4);
OFFSET(playerState_t, legsTimer, 0x70, 0x70);
OFFSET(playerState_t, legsAnim, 0x74, 0x74);
OFFSET(playerState_t, torsoTimer, 0x78, 0x78);
OFFSET(playerState_t, torsoAnim, 0x7c, 0x7c);
OFFSET(playerState_t, psClientNum, 0xd4, 0xd4);

OFFSET(weaponInfo_t, pickupName, 4, 8);

/* ---- xanim_types.h ---- */
SIZE(XAnim, 8, 16);
OFFSET(XAnim, name, 0, 0);
OFFSET(XAnim, nodeCount, 4, 8);
OFFSET(XAnim, entries, 8, 16);

SIZE(XAnimEntry, 8, 16);
OFFSET(XAnimEntry, childCount, 0, 0);
OFFSET(XAnimEntry, parentIndex, 2, 2);
OFFSET(XAnimEntry, payload, 4, 8);
OFFSET(XAnimEntry, payload.parent.flags, 4, 8);
OFFSET(XAnimEntry, payload.parent.firstChildIndex, 6, 10);
OFFSET(XAnimEntry, payload.leafAsset, 4, 8);

SIZE(XAnimParts, 32, 56);
OFFSET(XAnimParts, frameCountMinusOne, 0, 0);
OFFSET(XAnimParts, looped, 2, 2);
OFFSET(XAnimParts, frameRate, 4, 4);
OFFSET(XAnimParts, noteTracks, 20, 32);

SIZE(fileData_t, 12, 24);
OFFSET(fileData_t, name, 0, 0);
OFFSET(fileData_t, data, 4, 8);
OFFSET(fileData_t, freeData, 8, 16);

SIZE(XAnimTree, 12, 16);
OFFSET(XAnimTree, sourceTree, 0, 0);
OFFSET(XAnimTree, poolNodeHandles, 12, 16);
