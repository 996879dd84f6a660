// links: game engine
/* hostile_test.c — every export of the game and engine units called with
 * the inputs the C original does not survive: NULL pointers, indices outside
 * their arrays, calls before anything was loaded, a hand-built tree queried
 * outside its nodes. Each call must return the defined result that
 * docs/DIVERGENCES.md lists (or raise the original's diagnostic through
 * Com_Error), never crash; after all of it both units still work. The engine
 * side is c_tests/small_engine.h. */
#include "small_engine.h"

static XAnimParts leaf_parts = {.frameCountMinusOne = 29, .looped = 1, .frameRate = 30.0f};
static fileData_t leaf_record = {"leaf", {.xanimParts = &leaf_parts}, NULL};

int main(void)
{
    playerState_t ps;
    memset(&ps, 0, sizeof ps);

    /* ---- player animation, nothing loaded, nothing published ---- */
    CHECK(BG_ExecuteCommand(NULL, 0, 0, 0) == -1, "BG_ExecuteCommand(NULL)");
    CHECK(BG_AnimScriptEvent(NULL, 0, 0, 0) == -1, "BG_AnimScriptEvent(NULL)");
    CHECK(BG_AnimScriptStateChange(NULL, 0, 1) == -1, "BG_AnimScriptStateChange(NULL)");
    CHECK(BG_GetAnimScriptEvent(NULL, 0) == -1, "BG_GetAnimScriptEvent(NULL)");
    CHECK(BG_PlayAnim(NULL, 0, 1, 0, 1, 0, 0) == -1, "BG_PlayAnim(NULL)");
    CHECK(BG_AnimScriptAnimation(NULL, &ps, 1, 0, 0) == -1, "BG_AnimScriptAnimation(NULL command)");
    CHECK(BG_ExecuteCommand(&ps, 1000, -5, 1) == -1, "BG_ExecuteCommand without a table");
    CHECK(BG_AnimScriptEvent(&ps, 99, 1, 1) == -1, "BG_AnimScriptEvent without a table, event 99");
    CHECK(BG_EvaluateConditions(NULL, NULL) == 0, "BG_EvaluateConditions(NULL, NULL)");
    CHECK(BG_GetConditionValue(NULL, 3, 1) == 0, "BG_GetConditionValue(NULL)");
    CHECK(BG_GetConditionValue(&bgs.clientinfo[0], 99, 1) == 0, "BG_GetConditionValue(type 99)");
    CHECK(BG_FirstValidItem(0, NULL) == NULL, "BG_FirstValidItem(NULL list)");
    {
        /* an empty list answers NULL before the client number is checked */
        static bg_anim_script_list_t list;
        CHECK(BG_FirstValidItem(-1, &list) == NULL, "BG_FirstValidItem(-1, empty list)");
        list.count = 1; /* one NULL slot: it never matches */
        CHECK(BG_FirstValidItem(0, &list) == NULL, "BG_FirstValidItem(0, NULL slot)");
        CHECK(RAISES(BG_FirstValidItem(-1, &list)) && strstr(error_text, "invalid client number -1"),
              "BG_FirstValidItem(-1): '%s'", error_text);
    }
    CHECK(RAISES(BG_UpdateConditionValue(64, 0, 0, 1)) && strstr(error_text, "invalid client number 64"),
          "BG_UpdateConditionValue(64): '%s'", error_text);
    BG_UpdateConditionValue(0, 99, 5, 1); /* type outside 0..10: nothing written */
    CHECK(BG_StringHashValue(NULL) == 0, "BG_StringHashValue(NULL)");
    CHECK(BG_IndexForString(NULL, NULL, 1) == -1, "BG_IndexForString(NULL, NULL)");
    CHECK(BG_CopyStringIntoBuffer("x", NULL, 10, NULL) == NULL, "BG_CopyStringIntoBuffer(NULL buffer)");
    /* no table published yet: the look-ups answer NULL */
    CHECK(BG_GetAnimString(7) == NULL, "BG_GetAnimString(7) without a table");
    CHECK(BG_GetAnimationForIndex(0, 7) == NULL, "BG_GetAnimationForIndex(7) without a table");
    CHECK(BG_LoadAnimForAnimIndex(100000) == NULL, "BG_LoadAnimForAnimIndex(100000) without a table");
    CHECK(RAISES(BG_AnimationForString(NULL)), "BG_AnimationForString(NULL) did not raise");
    BG_SetupAnimNoteTypes(NULL);
    BG_FinalizePlayerAnims(); /* no table published: nothing */
    CHECK(ps.legsAnim == 0 && ps.torsoAnim == 0 && ps.legsTimer == 0, "a refused call wrote the player state");

    /* ---- compact XAnim trees: NULL and outside the nodes ---- */
    CHECK(XAnimGetAnimTreeSize(NULL) == 0, "XAnimGetAnimTreeSize(NULL)");
    CHECK(XAnimGetNumChildren(NULL, 0) == 0, "XAnimGetNumChildren(NULL)");
    CHECK(XAnimIsPrimitive(NULL, 0) == 0 && XAnimHasTime(NULL, 0) == 0 && XAnimIsLooped(NULL, 0) == 0,
          "queries on a NULL tree");
    CHECK(strcmp(XAnimGetAnimName(NULL, 0), "") == 0, "XAnimGetAnimName(NULL)");
    CHECK(XAnimGetLength(NULL, 0) == 0, "XAnimGetLength(NULL)");
    CHECK(XAnimNotetrackExists(NULL, 0, 1) == 0, "XAnimNotetrackExists(NULL)");
    CHECK(XAnimRuntimeTreeSourceTree(NULL) == NULL, "XAnimRuntimeTreeSourceTree(NULL)");
    CHECK(XAnimAllocRuntimeTree(NULL, alloc_tree) == NULL, "XAnimAllocRuntimeTree(NULL)");
    XAnimSetupSyncNodes(NULL);

    XAnim *tree = XAnimAllocTree("hand", 3, alloc_tree);
    CHECK(tree != NULL && tree->nodeCount == 3, "XAnimAllocTree");
    XAnimSetParentNode(tree, 0, "unused", 1, 2, 0);
    XAnimSetParentNode(tree, 9, "unused", 1, 40000, 0); /* outside the tree: nothing written */
    CHECK(!RAISES(XAnimSetLeafNode(tree, 1, "a")), "XAnimSetLeafNode(a): %s", error_text);
    CHECK(!RAISES(XAnimSetLeafNode(tree, 2, "b")), "XAnimSetLeafNode(b): %s", error_text);
    tree->entries[2].payload.leafAsset = &leaf_record;
    CHECK(XAnimGetNumChildren(tree, 0) == 2, "root children %d", XAnimGetNumChildren(tree, 0));
    CHECK(XAnimGetNumChildren(tree, 3) == 0 && XAnimGetNumChildren(tree, -1) == 0, "children outside the tree");
    CHECK(XAnimIsPrimitive(tree, 99) == 0 && XAnimHasTime(tree, -7) == 0, "queries outside the tree");
    CHECK(strcmp(XAnimGetAnimName(tree, 0), "<non-leaf anim>") == 0, "parent name");
    CHECK(strcmp(XAnimGetAnimName(tree, 3), "") == 0, "name outside the tree");
    CHECK(XAnimGetLength(tree, 0) == 0, "XAnimGetLength on a parent");
    CHECK(XAnimGetLength(tree, 1) == 0, "XAnimGetLength on a leaf without parts");
    /* 29/30 as the x87 divides it (64-bit significand), on every target
     * (aarch64's binary128 long double holds it exactly) */
    CHECK(XAnimGetLength(tree, 2) == 0xF.777777777777777p-4L, "XAnimGetLength on a leaf");
    CHECK(XAnimIsLooped(tree, 2) == 1, "looped byte of a leaf");
    CHECK(XAnimNotetrackExists(tree, 0, 1) == 0, "XAnimNotetrackExists on a parent");
    XAnimSetupSyncNodes(tree);
    CHECK(RAISES(XAnimSetLeafNode(tree, 1, "")) && strstr(error_text, "Cannot find 'xanim/'"),
          "XAnimSetLeafNode with an unknown asset: '%s'", error_text);

    /* ---- registry outside a load ---- */
    CHECK(Scr_FindAnimTree("multiplayer").tree == NULL, "Scr_FindAnimTree before any load");
    Scr_LoadAnimTreeAtIndex(500, alloc_tree);
    xanim_activePoolPayloadSlot = 7;
    CHECK(!RAISES(Scr_BeginLoadAnimTrees()), "begin with slot 7: %s", error_text);
    xanim_activePoolPayloadSlot = 0;
    CHECK(!RAISES(Scr_EndLoadAnimTrees()), "end: %s", error_text);

    /* ---- and both units still work: the whole init of engine_init_test ---- */
    {
        bg_runtime_animation_t runtime[512];
        int32_t count = 0;
        memset(runtime, 0, sizeof runtime);
        bgs.soundAliasCallback = alias;
        bgs.soundEventCallback = sound_event;
        CHECK(!RAISES(Scr_BeginLoadAnimTrees()), "begin: %s", error_text);
        CHECK(!RAISES(BG_FindAnims()), "BG_FindAnims: %s", error_text);
        CHECK(!RAISES(BG_AnimParseAnimScript(&bgs.animationTable, runtime, &count)), "pass 1: %s", error_text);
        CHECK(!RAISES(Scr_PrecacheAnimTrees(alloc_tree)), "precache: %s", error_text);
        the_tree = Scr_FindAnimTree("multiplayer").tree;
        CHECK(the_tree != NULL, "no tree after the hostile calls");
        CHECK(!RAISES(BG_FindAnimTrees()), "BG_FindAnimTrees: %s", error_text);
        CHECK(!RAISES(Scr_EndLoadAnimTrees()), "end: %s", error_text);
        CHECK(!RAISES(BG_FinalizePlayerAnims()), "finalize: %s", error_text);
        CHECK(bgs.animationTable.entryCount == 9, "entryCount %d", bgs.animationTable.entryCount);
        CHECK(RAISES(BG_GetAnimString(9)) && !RAISES(BG_GetAnimString(8)), "BG_GetAnimString range");
    }

    printf("hostile_test: %d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
