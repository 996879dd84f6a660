// links: game engine
/* engine_init_test.c — the game unit and the engine unit linked into one
 * program, driven through the engine's real init sequence:
 *
 *   Scr_BeginLoadAnimTrees, BG_FindAnims, pass 1 of BG_AnimParseAnimScript,
 *   Scr_PrecacheAnimTrees, BG_FindAnimTrees, Scr_EndLoadAnimTrees,
 *   BG_FinalizePlayerAnims
 *
 * The engine side is c_tests/small_engine.h. Checks: the registered
 * handles, the built tree, the static entries the finalize pass derives from
 * it, runtime selection, and that an engine error (Com_Error, longjmp) leaves
 * both units usable. */
#include "small_engine.h"

/* ---- the test ------------------------------------------------------------ */
static int node_of(const char *name)
{
    for (int i = 0; i < XAnimGetAnimTreeSize(the_tree); i++)
        if (strcmp(XAnimGetAnimName(the_tree, i), name) == 0)
            return i;
    return -1;
}

int main(void)
{
    bg_runtime_animation_t runtime[512];
    int32_t runtime_count = 0;

    memset(runtime, 0, sizeof runtime);
    stack_top = (uintptr_t)&runtime_count;
    bgs.soundAliasCallback = alias;
    bgs.soundEventCallback = sound_event;

    CHECK(!RAISES(Scr_BeginLoadAnimTrees()), "Scr_BeginLoadAnimTrees raised: %s", error_text);
    CHECK(!RAISES(BG_FindAnims()), "BG_FindAnims raised: %s", error_text);
    CHECK(!RAISES(BG_AnimParseAnimScript(&bgs.animationTable, runtime, &runtime_count)), "pass 1 raised: %s",
          error_text);
    CHECK(runtime_count == 4, "pass 1 registered %d names, expected 4", runtime_count);
    CHECK(!RAISES(Scr_PrecacheAnimTrees(alloc_tree)), "precache raised: %s", error_text);
    CHECK(tree_allocations == 1, "tree allocator called %d times, expected once", tree_allocations);
    the_tree = Scr_FindAnimTree("multiplayer").tree;
    CHECK(the_tree != NULL, "Scr_FindAnimTree(multiplayer) is NULL");
    /* the engine's readers see the tree in the row the unit filled */
    CHECK(script_animTreeCounts[0] >= 1 && engine_get_anims_index(the_tree) >= 1
              && engine_get_anims(engine_get_anims_index(the_tree)) == the_tree,
          "the engine's readers do not see the built tree (count %d)", (int)script_animTreeCounts[0]);
    if (!the_tree) {
        printf("engine_init_test: %d passed, %d failed\n", checks - failures, failures);
        return 1;
    }
    CHECK(!RAISES(BG_FindAnimTrees()), "BG_FindAnimTrees raised: %s", error_text);
    CHECK(bgs.multiplayerAnimTree == the_tree, "bgs.multiplayerAnimTree is not the built tree");
    CHECK(!RAISES(Scr_EndLoadAnimTrees()), "Scr_EndLoadAnimTrees raised: %s", error_text);

    /* the built tree: root, torso, legs, turning, their leaves, pb_jump; the
     * unreferenced leaf is pruned */
    CHECK(XAnimGetAnimTreeSize(the_tree) == 9, "tree has %d nodes, expected 9", XAnimGetAnimTreeSize(the_tree));
    CHECK(node_of("pb_unused_by_anyone") < 0, "an unreferenced leaf survived pruning");
    CHECK(bgs.rootAnimHandle.treeIndex == 1 && bgs.rootAnimHandle.animIndex == 0, "root handle %u:%u",
          bgs.rootAnimHandle.treeIndex, bgs.rootAnimHandle.animIndex);
    CHECK(!XAnimIsPrimitive(the_tree, bgs.legsAnimHandle.animIndex), "legs is not a parent node");
    CHECK(bgs.resolvedLegsAnimHandle.animIndex == bgs.legsAnimHandle.animIndex, "resolved legs handle differs");
    for (int i = 0; i < runtime_count; i++) {
        int node = node_of(runtime[i].name);
        CHECK(node >= 0 && runtime[i].anim.animIndex == node && runtime[i].anim.treeIndex == 1,
              "runtime %d '%s' has %u:%u, tree node %d", i, runtime[i].name, runtime[i].anim.treeIndex,
              runtime[i].anim.animIndex, node);
    }

    CHECK(!RAISES(BG_FinalizePlayerAnims()), "finalize raised: %s", error_text);
    CHECK(bgs.animationTable.entryCount == 9, "entryCount %d", bgs.animationTable.entryCount);
    {
        int run = node_of("pl_run");
        bg_static_animation_t *entry = &bgs.animationTable.entries[run];
        uint16_t frames;
        float rate;
        asset_timing("pl_run", &frames, &rate);
        int length = (int)((long double)frames / rate * 1000);
        CHECK(strcmp(entry->name, "pl_run") == 0, "entry %d is '%s'", run, entry->name);
        CHECK(entry->duration == length, "pl_run duration %d, expected %d", entry->duration, length);
        CHECK(entry->moveSpeed == 120 * 1000 / length, "pl_run move speed %d, expected %d", entry->moveSpeed,
              120 * 1000 / length);
        CHECK(entry->flags & 0x80, "pl_run is not marked looped (flags %#x)", entry->flags);
    }

    /* runtime: combat (state 3), idle (move type 1) for client 0 */
    {
        playerState_t ps;
        memset(&ps, 0, sizeof ps);
        volatile int result = -2;
        CHECK(!RAISES(result = BG_ExecuteCommand(&ps, 3, 1, 0)), "BG_ExecuteCommand raised: %s", error_text);
        CHECK(result != -1, "no idle script selected");
        CHECK((ps.legsAnim & ~0x200) == node_of("pl_idle"), "legsAnim %#x, pl_idle is node %d", ps.legsAnim,
              node_of("pl_idle"));
        CHECK((ps.torsoAnim & ~0x200) == node_of("pt_idle"), "torsoAnim %#x", ps.torsoAnim);
        ps.legsTimer = ps.torsoTimer = 0;
        CHECK(!RAISES(result = BG_AnimScriptEvent(&ps, 3, 0, 0)), "jump event raised: %s", error_text);
        CHECK((ps.legsAnim & ~0x200) == node_of("pb_jump"), "jump did not play pb_jump (legsAnim %#x)", ps.legsAnim);
        /* the alias callback kept the pointer it was handed at parse time:
         * it still holds the name when the event plays */
        CHECK(strcmp(last_sound, "jump_sound") == 0, "the jump's sound event got '%s'", last_sound);
        CHECK(aliases_on_stack == 0, "the alias callback was handed %d names in stack memory", aliases_on_stack);
        CHECK(draws == 1, "%d random draws, expected 1", draws);
    }

    /* an engine error leaves both units usable */
    CHECK(RAISES(BG_AnimationForString("no_such_anim")), "unknown animation did not raise");
    CHECK(error_level == 1 && strcmp(error_text, "\x15" "BG_AnimationForString: unknown player animation "
                                                 "'no_such_anim'") == 0,
          "error %d '%s'", error_level, error_text);
    CHECK(BG_AnimationForString("PL_RUN") == &bgs.animationTable.entries[node_of("pl_run")],
          "lookup after the error failed");
    CHECK(XAnimGetNumChildren(the_tree, bgs.legsAnimHandle.animIndex) == 2, "legs has %d children",
          XAnimGetNumChildren(the_tree, bgs.legsAnimHandle.animIndex));

    printf("engine_init_test: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
