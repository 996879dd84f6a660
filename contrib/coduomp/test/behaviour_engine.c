/* behaviour_engine.c -- the contrib test's program for the engine and client
 * units, linked the swapped way (the layout's objects with the unit in the
 * build file's library variable): loads a tree through the engine's own
 * load functions (the stand-in script_compile_load.c), the unit registering
 * it, and reads it back through the engine's readers (the stand-in
 * script_value.c) and the unit's queries. Prints
 * `tree loaded, read back: count=1 index=1 children=2` or what differs. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "uoanim_common.h"
#include "uoanim_animtree.h"

extern int32_t script_animTreeCounts[2];
extern uint8_t script_loadAnimTreesActive;
void Scr_BeginLoadAnimTrees(void);
void Scr_PrecacheAnimTrees(void *(*allocCallback)(size_t));
void Scr_EndLoadAnimTrees(void);
uint32_t Scr_GetAnimsIndex(const void *tree);
void *Scr_GetAnims(uint32_t index);
void *Scr_GetAnimTree(uint32_t treeIndex);

static int tree_allocations;
static void *alloc_tree(size_t size)
{
    tree_allocations++;
    return calloc(1, size);
}

#define EXPECT(cond, ...)                  \
    do {                                   \
        if (!(cond)) {                     \
            printf("behaviour FAILED: ");  \
            printf(__VA_ARGS__);           \
            printf("\n");                  \
            return 1;                      \
        }                                  \
    } while (0)

int main(void)
{
    scr_anim_t pose_a = {0, 0}, pose_b = {0, 0};

    Scr_BeginLoadAnimTrees();
    EXPECT(script_loadAnimTreesActive == 1, "Scr_BeginLoadAnimTrees left the active flag %d",
           script_loadAnimTreesActive);
    Scr_UsingTree("uo_test", 0);
    Scr_FindAnim("uo_test", "uo_pose_a", &pose_a);
    Scr_FindAnim("uo_test", "uo_pose_b", &pose_b);
    EXPECT(script_animTreeCounts[0] == 1, "after Scr_UsingTree the engine's count is %d", script_animTreeCounts[0]);
    Scr_PrecacheAnimTrees(alloc_tree);
    EXPECT(tree_allocations >= 1, "the tree allocator was not called");
    XAnim *tree = Scr_GetAnims(1);
    EXPECT(tree != NULL, "Scr_GetAnims(1) is NULL after precache");
    Scr_EndLoadAnimTrees();
    EXPECT(script_loadAnimTreesActive == 0, "Scr_EndLoadAnimTrees left the active flag %d",
           script_loadAnimTreesActive);

    int32_t count = script_animTreeCounts[0];
    uint32_t index = Scr_GetAnimsIndex(tree);
    EXPECT(count == 1, "count=%d after the load", count);
    EXPECT(Scr_GetAnims(1) == tree, "Scr_GetAnims(1) changed at End");
    EXPECT(index == 1, "Scr_GetAnimsIndex(tree)=%u", index);
    EXPECT(Scr_GetAnimTree(1) == tree && Scr_GetAnimTree(2) == NULL,
           "Scr_GetAnimTree's check: 1 -> %p (tree %p), 2 -> %p", Scr_GetAnimTree(1), (void *)tree,
           Scr_GetAnimTree(2));
    EXPECT(XAnimGetAnimTreeSize(tree) == 3, "the tree has %d nodes, expected 3", XAnimGetAnimTreeSize(tree));
    int32_t children = XAnimGetNumChildren(tree, 0);
    EXPECT(children == 2, "the root has %d children, expected 2", children);
    EXPECT(pose_a.treeIndex == 1 && pose_b.treeIndex == 1 && pose_a.animIndex != pose_b.animIndex &&
               pose_a.animIndex >= 1 && pose_a.animIndex <= 2 && pose_b.animIndex >= 1 && pose_b.animIndex <= 2,
           "the references are %u:%u and %u:%u", pose_a.treeIndex, pose_a.animIndex, pose_b.treeIndex,
           pose_b.animIndex);
    printf("tree loaded, read back: count=%d index=%u children=%d\n", count, index, children);
    return 0;
}
