// links: game engine
/* reliability_test.c — hostile inputs that once crashed, hung or wedged the
 * units, through the C ABI:
 *
 *   * a parent node of zero children (XAnimSetParentNode with childCount 0)
 *     is answered as a leaf without asset by every query;
 *   * XAnimSetupSyncNodes on a 64-node DAG of shared children and on a
 *     64-node tree with a two-node cycle ends at once, and on a dense tree
 *     of many sources and on 8191 parents each listing every later node
 *     in a bounded number of steps;
 *   * after 15 parses abandoned by Com_Error the parser raises "session
 *     overflow" (as the C original does within one module lifetime), and
 *     uoanim_playeranim_reset / uoanim_animtree_reset return the units to
 *     their freshly loaded state.
 *
 * The engine side is c_tests/small_engine.h. */
#include "small_engine.h"
#include <math.h>
#include <time.h>

extern int32_t bgAnimScriptLoaded;
extern char bgAnimScriptFileBuffer[100000];
extern const char *bgPlayerAnimScriptPath;
extern int32_t bgAnimConditionAliasStringUsed;
extern int32_t bgAnimParseCurrentAnimGroup;
extern bg_indexed_string_t animStateStr[5];

/* processor time (ISO C clock(), on every target) since start */
static double seconds_since(clock_t start)
{
    return (double)(clock() - start) / CLOCKS_PER_SEC;
}

/* A time limit, scaled by UOANIM_TEST_TIME_SCALE when a runner slows the
 * program down (scripts/memcheck.sh runs it under valgrind). */
static double time_limit(double seconds)
{
    const char *scale = getenv("UOANIM_TEST_TIME_SCALE");
    return scale && atof(scale) > 0 ? seconds * atof(scale) : seconds;
}

static void zero_child_parent(void)
{
    /* an earlier leaf on node 0: on x86_64 its pointer's upper half stayed
     * in the payload the queries then read as an asset pointer */
    XAnim *t = XAnimAllocTree("hand", 2, alloc_tree);
    CHECK(!RAISES(XAnimSetLeafNode(t, 0, "pl_run")), "XAnimSetLeafNode raised: %s", error_text);
    XAnimSetParentNode(t, 0, "unused", 0x65, 0, 0x63);
    XAnimSetParentNode(t, 1, "unused", 0x65, 0, 0x63);
    for (int i = 0; i < 2; i++) {
        CHECK(XAnimGetNumChildren(t, i) == 0 && XAnimIsPrimitive(t, i) == 1 && XAnimHasTime(t, i) == 1,
              "node %d: children/primitive/time", i);
        CHECK(strcmp(XAnimGetAnimName(t, i), "") == 0, "node %d: name '%s'", i, XAnimGetAnimName(t, i));
        CHECK(XAnimIsLooped(t, i) == 0, "node %d: looped", i);
        CHECK(XAnimNotetrackExists(t, i, 1) == 0, "node %d: note track", i);
        long double length = XAnimGetLength(t, i);
        CHECK(length == 0 && !signbit(length), "node %d: length %Lg", i, length);
        CHECK(XAnimGetChildAt(t, i, 3) == 3, "node %d: child at 3 is %d", i, XAnimGetChildAt(t, i, 3));
    }
    CHECK(!RAISES(XAnimSetupSyncNodes(t)), "sync setup raised: %s", error_text);
    CHECK(!RAISES(XAnimFillInSyncNodes_r(t, 0, 1)), "fill raised: %s", error_text);
    free(t);
}

static void sync_in_bounded_time(void)
{
    clock_t start = clock();
    XAnim *dag = XAnimAllocTree("dag", 64, alloc_tree);
    for (int i = 0; i + 2 < 64; ++i)
        XAnimSetParentNode(dag, (uint16_t)i, "u", (uint16_t)(i + 1), 2, 0);
    CHECK(!RAISES(XAnimSetupSyncNodes(dag)), "DAG sync setup raised: %s", error_text);
    XAnim *cycle = XAnimAllocTree("cycle", 64, alloc_tree);
    XAnimSetParentNode(cycle, 0, "u", 0, 2, 0);
    XAnimSetParentNode(cycle, 1, "u", 0, 2, 0);
    CHECK(!RAISES(XAnimSetupSyncNodes(cycle)), "cycle sync setup raised: %s", error_text);
    /* a shared sync subtree: the second path to it meets its children
     * filled, as the original does */
    XAnim *shared = XAnimAllocTree("shared", 6, alloc_tree);
    XAnimSetParentNode(shared, 0, "u", 1, 2, 0);
    XAnimSetParentNode(shared, 1, "u", 3, 1, 0);
    XAnimSetParentNode(shared, 2, "u", 3, 1, 0);
    XAnimSetParentNode(shared, 3, "u", 4, 1, 1);
    XAnimSetParentNode(shared, 4, "u", 5, 1, 0);
    CHECK(RAISES(XAnimSetupSyncNodes(shared)) &&
              strcmp(error_text, "\x15" "duplicate specification of animation sync in 'shared', 1 nodes above ''") == 0,
          "shared sync subtree: '%s'", error_text);
    /* many sources filling parents that many parents share: the root's
     * children alternate D_i (all listing the parents B_j) and sources X_i
     * (filling Y_i); every B_j lists every Y_j, whose child is an unset
     * leaf. Walked again after each fill, that is 2k^3 visits (250 million
     * for k = 500); past its budget the setup walks no parent twice. */
    enum { K = 500, B0 = 1 + 2 * K, Y0 = B0 + K, LEAF = Y0 + K };
    XAnim *cubic = XAnimAllocTree("cubic", LEAF + 1, alloc_tree);
    XAnimSetParentNode(cubic, 0, "u", 1, 2 * K, 0);
    for (int i = 0; i < K; ++i) {
        XAnimSetParentNode(cubic, (uint16_t)(1 + 2 * i), "u", B0, K, 0);
        XAnimSetParentNode(cubic, (uint16_t)(2 + 2 * i), "u", (uint16_t)(Y0 + i), 1, 1);
        XAnimSetParentNode(cubic, (uint16_t)(B0 + i), "u", Y0, K, 0);
        XAnimSetParentNode(cubic, (uint16_t)(Y0 + i), "u", LEAF, 1, 0);
    }
    CHECK(!RAISES(XAnimSetupSyncNodes(cubic)), "cubic sync setup raised: %s", error_text);
    CHECK(XAnimIsLooped(cubic, LEAF) == 0, "unset leaf");
    volatile double took = seconds_since(start);
    /* every parent lists every later node: 2^25 child slots (building it
     * costs them all, as the original's XAnimSetParentNode writes each
     * child's parent index; the setup visits a few per node) */
    XAnim *dense = XAnimAllocTree("dense", 0x2000, alloc_tree);
    for (int i = 0; i + 1 < 0x2000; ++i)
        XAnimSetParentNode(dense, (uint16_t)i, "u", (uint16_t)(i + 1), 0x2000, 0);
    clock_t dense_start = clock();
    CHECK(!RAISES(XAnimSetupSyncNodes(dense)), "dense sync setup raised: %s", error_text);
    took += seconds_since(dense_start);
    CHECK(took < time_limit(1.0), "sync setups took %.3f s", (double)took);
    free(dag);
    free(cycle);
    free(shared);
    free(cubic);
    free(dense);
}

static const char bad_script[] = "ANIMATIONS\nSTATE COMBAT\n{\n\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tlegs no_such_anim\n";

static int parse(bg_runtime_animation_t *runtime, int32_t *count)
{
    *count = 0;
    return RAISES(BG_AnimParseAnimScript(&bgs.animationTable, runtime, count));
}

static void sessions_and_reset(void)
{
    static bg_runtime_animation_t runtime[512];
    int32_t count = 0;
    CHECK(!RAISES(Scr_BeginLoadAnimTrees()), "Scr_BeginLoadAnimTrees raised: %s", error_text);
    CHECK(!RAISES(BG_FindAnims()), "BG_FindAnims raised: %s", error_text);
    for (int k = 0; k < 15; k++) {
        /* the loaded text, replaced by one that ends in an error mid-parse */
        snprintf(bgAnimScriptFileBuffer, sizeof bgAnimScriptFileBuffer, "%s", bad_script);
        bgAnimScriptLoaded = 1;
        CHECK(parse(runtime, &count), "bad parse %d did not raise", k);
        CHECK(strstr(error_text, "session overflow") == NULL, "bad parse %d: %s", k, error_text);
    }
    bgAnimScriptLoaded = 0;
    bgPlayerAnimScriptPath = "mp/playeranim.script";
    CHECK(parse(runtime, &count) && strstr(error_text, "Com_BeginParseSession: session overflow"),
          "the 16th parse: '%s'", error_text);
    CHECK(RAISES(BG_FinalizePlayerAnims()) && strstr(error_text, "session overflow"), "finalize: '%s'", error_text);

    /* hostile values in exported globals, then the reset */
    animStateStr[0].hash = 12345;
    bgAnimConditionAliasStringUsed = 1 << 30;
    bgAnimParseCurrentAnimGroup = -7;
    script_animTreeChecksum = 0xdeadbeef;
    script_animCheckEnabled = 1;
    uoanim_playeranim_reset();
    uoanim_animtree_reset();
    CHECK(bgAnimScriptLoaded == 0 && bgAnimScriptFileBuffer[0] == 0, "script buffer not reset");
    CHECK(bgPlayerAnimScriptPath && strcmp(bgPlayerAnimScriptPath, "mp/playeranim.script") == 0, "path not reset");
    CHECK(bgAnimConditionAliasStringUsed == 0 && bgAnimParseCurrentAnimGroup != -7, "parser globals not reset");
    CHECK(animStateStr[0].hash != 12345 && strcmp(animStateStr[0].name, "RELAXED") == 0, "name table not reset");
    CHECK(script_animTreeChecksum == 0xdeadbeef && script_animCheckEnabled == 1,
          "the tree reset wrote engine-owned globals");
    script_animTreeChecksum = 0;
    script_animCheckEnabled = 0;

    /* the engine's load sequence works again, as after a module reload */
    memset(&bgs.animationTable, 0, sizeof bgs.animationTable);
    memset(runtime, 0, sizeof runtime);
    CHECK(!RAISES(Scr_BeginLoadAnimTrees()), "Scr_BeginLoadAnimTrees raised: %s", error_text);
    CHECK(!RAISES(BG_FindAnims()), "BG_FindAnims raised: %s", error_text);
    CHECK(!parse(runtime, &count), "pass 1 after the reset raised: %s", error_text);
    CHECK(count == 4, "pass 1 registered %d names, expected 4", count);
    CHECK(!RAISES(Scr_PrecacheAnimTrees(alloc_tree)), "precache raised: %s", error_text);
    the_tree = Scr_FindAnimTree("multiplayer").tree;
    CHECK(the_tree != NULL, "no tree after the reset");
    CHECK(!RAISES(BG_FindAnimTrees()), "BG_FindAnimTrees raised: %s", error_text);
    CHECK(!RAISES(Scr_EndLoadAnimTrees()), "Scr_EndLoadAnimTrees raised: %s", error_text);
    CHECK(!RAISES(BG_FinalizePlayerAnims()), "finalize after the reset raised: %s", error_text);
}

int main(void)
{
    bgs.soundAliasCallback = alias;
    bgs.soundEventCallback = sound_event;
    zero_child_parent();
    sync_in_bounded_time();
    sessions_and_reset();
    printf("reliability_test: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}
