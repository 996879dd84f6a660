/* engine_anim_side.h -- the engine's side of the animation-tree module for the
 * C tests and the fuzz harness: what the engine's kept files define around
 * the engine and client units (the script-state storage's data symbols with
 * the engine's types, the load functions of script_compile_load.c, the
 * readers of script_value.c), written after the engine's behaviour
 * (docs/LINKING.md, "What the kept files do"; tests/parity/at/PROTOCOL.md, "Engine
 * side (v2)"). The script VM is not here: the registry object the engine's
 * Begin allocates is a counter. Include once per program, after
 * uoanim_animtree.h. */
#ifndef UOANIM_TEST_ENGINE_ANIM_SIDE_H
#define UOANIM_TEST_ENGINE_ANIM_SIDE_H

#include <stdint.h>

int32_t script_activeAnimTreeHandle;
int32_t script_animCheckEnabled;
int32_t script_animCommentDepth;
uint16_t script_animCurrentUsingTree;
uint32_t script_animTreeChecksum;
int32_t xanim_activePoolPayloadSlot;
int32_t script_animTreeCounts[2];
XAnim *script_animTrees[2][128];
uint16_t script_animTreeHandles[2][128];
uint16_t script_animTreeRoot;
uint16_t script_animCurrentTreeRoot;
const char *script_animParseStart;
char *script_animParseState;
uint8_t script_loadAnimTreesActive;
uint8_t *script_codeEnd;

static uint16_t engine_next_object = 1;
static uint8_t engine_low_hunk[16];

static inline int32_t engine_slot(void) { return xanim_activePoolPayloadSlot == 0 ? 0 : 1; }

void Scr_BeginLoadAnimTrees(void)
{
    int32_t slot = engine_slot();
    coduo_script_compat_anim_release_unresolved_ref_sidecars();
    script_loadAnimTreesActive = 1;
    script_animTreeCounts[slot] = 0;
    script_animTrees[slot][0] = NULL;
    script_animTreeRoot = engine_next_object++;
    script_animCurrentTreeRoot = 0;
}

void Scr_PrecacheAnimTrees(script_anim_tree_alloc_t allocCallback)
{
    for (int32_t i = 1; i <= script_animTreeCounts[engine_slot()]; i++)
        Scr_LoadAnimTreeAtIndex(i, allocCallback);
}

void Scr_EndLoadAnimTrees(void)
{
    script_loadAnimTreesActive = 0;
    coduo_script_compat_anim_release_unresolved_ref_sidecars();
    script_animTreeRoot = 0;
    script_animCurrentTreeRoot = 0;
    script_codeEnd = engine_low_hunk;
}

/* Scr_GetAnims: the tree row the engine's run time reads */
static inline XAnim *engine_get_anims(uint32_t index)
{
    return index < 128 ? script_animTrees[engine_slot()][index] : NULL;
}

/* Scr_GetAnimsIndex over the row (the largest matching index, else 0) */
static inline uint32_t engine_get_anims_index(const XAnim *tree)
{
    int32_t slot = engine_slot();
    for (int32_t i = script_animTreeCounts[slot]; i > 0; i--)
        if (i < 128 && script_animTrees[slot][i] == tree)
            return (uint32_t)i;
    return 0;
}

#endif
