/* animtree.c — fuzz harnesses of the animation-tree units (engine, client;
 * UOANIM_FLAVOUR_CLIENT selects the client's signatures):
 *
 *   uoanim_fuzz_atr    an .atr file (and a second one) through the tree load
 *                      — begin, using, references, find, precache, load at
 *                      index, end — in up to three loads, then every XAnim
 *                      query and the runtime-tree functions on what was built;
 *   uoanim_fuzz_xanim  hand-built trees: XAnimAllocTree, XAnimSetParentNode,
 *                      XAnimSetLeafNode (+ XAnimLoadFile, as precache does),
 *                      the sync setup and every query, in any order.
 *
 * The engine imports of the units are defined here: strings, an in-memory
 * file system holding the input's .atr files, synthetic xanim assets (looped
 * byte, frame rate and note tracks from the name), allocators that hand out
 * zero-filled engine memory freed at the end of each run. The engine's side
 * of the load (storage, Begin/Precache/End) is the C tests' one. */
#include "common.h"
#include "uoanim_animtree.h"
#include "../../c_tests/engine_anim_side.h"

#include <math.h>
#include <strings.h>

void CompileError(uint32_t sourcePos, const char *format, ...)
{
    va_list args;
    (void)sourcePos;
    va_start(args, format);
    fz_raise(format, args);
}

void CompileError2(uint8_t *codePos, const char *format, ...)
{
    va_list args;
    (void)codePos;
    va_start(args, format);
    fz_raise(format, args);
}

/* ---- strings: the stand-in every C test shares ------------------------ */
#define ENGINE_MAX_STRINGS 2048
#include "../../c_tests/engine_strings.h"

/* ---- files: the input's trees "a" and "b" -------------------------------- */
static char *atr_text[2];
static fileData_t atr_records[2] = {{"a.atr", {0}, NULL}, {"b.atr", {0}, NULL}};
static int atr_records_missing;

static int atr_index(const char *name)
{
    if (strcasecmp(name, "a") == 0)
        return 0;
    if (strcasecmp(name, "b") == 0)
        return 1;
    return -1;
}

char *Scr_AddSourceBuffer(const char *filename, uint8_t *normalCodeStart, uint8_t *relocatedCodeStart)
{
    (void)normalCodeStart;
    (void)relocatedCodeStart;
    const char *base = filename;
    if (strncasecmp(base, "animtrees/", 10) == 0 || strncasecmp(base, "animtrees\\", 10) == 0)
        base += 10;
    char name[64];
    size_t n = strlen(base);
    if (n < 4 || n - 4 >= sizeof name || strcasecmp(base + n - 4, ".atr") != 0)
        return NULL;
    memcpy(name, base, n - 4);
    name[n - 4] = 0;
    int i = atr_index(name);
    if (i < 0 || !atr_text[i])
        return NULL;
    char *copy = fz_alloc(strlen(atr_text[i]) + 1);
    if (copy)
        strcpy(copy, atr_text[i]);
    return copy;
}

/* ---- assets -------------------------------------------------------------- */
#define MAX_ASSETS 512
static fileData_t asset_records[MAX_ASSETS];
static char asset_names[MAX_ASSETS][64];
static int asset_count;

static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 16777619u;
    return h;
}

fileData_t *FS_GetDataForFile(const char *base, const char *path, const char *extension)
{
    if (strcmp(base, "animtrees") == 0 && strcmp(extension, ".atr") == 0) {
        int i = atr_index(path);
        return i >= 0 && atr_text[i] && !atr_records_missing ? &atr_records[i] : NULL;
    }
    if (strcmp(base, "xanim") != 0 || !*path || strncmp(path, "missing", 7) == 0 || strlen(path) >= 64)
        return NULL;
    for (int i = 0; i < asset_count; i++)
        if (strcmp(asset_names[i], path) == 0)
            return &asset_records[i];
    if (asset_count == MAX_ASSETS)
        return NULL;
    strcpy(asset_names[asset_count], path);
    asset_records[asset_count].name = asset_names[asset_count];
    asset_records[asset_count].data.xanimParts = NULL;
    return &asset_records[asset_count++];
}

XAnimParts *XAnimLoadFile(const char *name, void *(*alloc)(size_t size))
{
    fileData_t *record = FS_GetDataForFile("xanim", name, "");
    if (!record)
        Com_Error(1, "\x15" "Couldn't load xanim '%s'", name);
    if (!record->data.xanimParts) {
        static const float rates[] = {30.0f, 20.0f, 0.0f, 1e-30f, INFINITY, -15.0f, 3.0f, NAN};
        uint32_t h = name_hash(name);
        XAnimParts *parts = alloc(sizeof *parts);
        if (!parts)
            Com_Error(1, "\x15" "out of memory");
        memset(parts, 0, sizeof *parts);
        parts->frameCountMinusOne = (uint16_t)(h >> 8);
        /* loop / void_loop: looped; otherwise from the name (0, 1, or a raw 2) */
        parts->looped = strstr(name, "loop") ? 1 : (uint8_t)((h >> 3) % 5 == 4 ? 2 : (h >> 3) & 1);
        parts->frameRate = rates[(h >> 24) & 7];
        if (h & 4) {
            xanim_notetrack_t *tracks = alloc(4 * sizeof *tracks);
            if (tracks) {
                for (int i = 0; i < 3; i++)
                    tracks[i].nameHandle = (uint16_t)(1 + ((h >> (i * 4)) & 7));
                tracks[3].nameHandle = 0;
                parts->noteTracks = tracks;
            }
        }
        record->data.xanimParts = parts;
    }
    return record->data.xanimParts;
}

qboolean ScriptCode_IsLoadedCodePos(const uint8_t *codePos) { (void)codePos; return 0; }
qboolean Scr_IsInDeveloperOpcodeMemory(const uint8_t *codePos) { (void)codePos; return 0; }

void *Hunk_AllocAlignInternal(size_t size, size_t alignment)
{
    (void)alignment; /* calloc's alignment covers every request of the units */
    void *p = fz_alloc(size);
    if (!p)
        Com_Error(1, "\x15" "Hunk_AllocAlignInternal failed on %zu bytes", size);
    return p;
}

void Hunk_ClearTempMemoryHigh(void) {}
void *Hunk_AllocXAnimCreateTree(size_t size) { return fz_alloc(size); }
void *MT_Alloc(size_t size, int32_t tag) { (void)tag; return fz_alloc(size); }
void MT_Free(void *data, size_t size) { (void)data; (void)size; /* freed with the run */ }

static void *tree_alloc(size_t size) { return fz_alloc(size); }
static void *null_alloc(size_t size) { (void)size; return NULL; }
static void copy_cb(void *data, size_t size) { (void)data; (void)size; }

static void reset_engine(void)
{
    uoanim_animtree_reset();
    for (int i = 0; i < string_count; i++)
        free(strings[i]);
    string_count = 0;
    asset_count = 0;
    atr_records_missing = 0;
    memset(asset_records, 0, sizeof asset_records);
}

/* ---- queries ------------------------------------------------------------- */
static volatile uintptr_t sink;

static void query_node(XAnim *t, int32_t i)
{
    int32_t n = XAnimGetNumChildren(t, i);
    sink += (uintptr_t)n;
    sink += (uintptr_t)XAnimGetChildAt(t, i, 0);
    if (n > 1)
        sink += (uintptr_t)XAnimGetChildAt(t, i, n - 1);
    const char *name = XAnimGetAnimName(t, i);
    sink += name ? (uintptr_t)strlen(name) : 1;
    sink += (uintptr_t)XAnimHasTime(t, i) + (uintptr_t)XAnimIsPrimitive(t, i) + (uintptr_t)XAnimIsLooped(t, i);
    for (uint16_t h = 0; h < 5; h++)
        sink += (uintptr_t)XAnimNotetrackExists(t, i, h);
    sink += (uintptr_t)XAnimNotetrackExists(t, i, 0xffff);
    uoanim_xanim_length_t length = XAnimGetLength(t, i);
    sink += (uintptr_t)(length == length);
}

static void query_tree(XAnim *t)
{
    int32_t n = XAnimGetAnimTreeSize(t);
    int32_t limit = n < 0 || n > 2048 ? 2048 : n;
    for (int32_t i = -1; i <= limit; i++)
        query_node(t, i);
    query_node(t, INT32_MIN);
    query_node(t, 65535);
    XAnimTree *rt = XAnimAllocRuntimeTree(t, tree_alloc);
    sink += (uintptr_t)XAnimRuntimeTreeSourceTree(rt);
    XAnimCopyRuntimeTree(rt, copy_cb);
    sink += (uintptr_t)XAnimAllocRuntimeTree(t, null_alloc);
    if (n <= 4096) {
        sink += (uintptr_t)Com_XAnimCreateTree(t);
        XAnimTree *small = Com_XAnimCreateSmallTree(t);
        Com_XAnimFreeSmallTree(small);
    }
}

static XAnim *find_tree(const char *name)
{
#if defined(UOANIM_FLAVOUR_CLIENT)
    return Scr_FindAnimTree(name);
#else
    return Scr_FindAnimTree(name).tree;
#endif
}

static const char *const tree_names[] = {"a", "b", "A", "missing", "", "a/b", "animtrees/a"};
#define TREE_NAME(in) tree_names[fz_u8(in) % (sizeof tree_names / sizeof tree_names[0])]

/* identifiers of the .atr texts: the names references are made to */
#define MAX_NAMES 128
static char names[MAX_NAMES][64];
static int name_count;

static void collect_names(const char *text)
{
    while (*text && name_count < MAX_NAMES) {
        size_t n = 0;
        while (text[n] && Scr_IsIdentifier((char[]){text[n], 0}))
            n++;
        if (n > 0 && n < 64) {
            memcpy(names[name_count], text, n);
            names[name_count][n] = 0;
            name_count++;
        }
        text += n ? n : 1;
    }
}

static const char *pick_name(fz_input *in)
{
    uint8_t k = fz_u8(in);
    if (k >= 0xf8 || name_count == 0)
        return (const char *[]){"root", "nosuch", "", "void", "Root", "ROOT", "a", "x"}[k & 7];
    return names[k % name_count];
}

int uoanim_fuzz_atr(const uint8_t *data, size_t size)
{
    static fz_input in;
    in = (fz_input){data, size, 0};
    reset_engine();
    uint8_t flags = fz_u8(&in);
    atr_text[0] = fz_text(&in);
    atr_text[1] = (flags & 0x10) ? fz_text(&in) : NULL;
    name_count = 0;
    collect_names(atr_text[0]);
    if (atr_text[1])
        collect_names(atr_text[1]);
    for (int load = 0; load < 3; load++) {
        SetAnimCheck(flags & 1);
        xanim_activePoolPayloadSlot = (flags >> 1) & 1;
        atr_records_missing = (flags >> 5) & 1 && load == 1;
        RAISES(Scr_BeginLoadAnimTrees());
        script_activeAnimTreeHandle = 0;
        script_animCurrentUsingTree = 0;
        for (int op = 0; op < 256 && fz_more(&in); op++) {
            uint8_t o = fz_u8(&in);
            if (o % 10 == 9)
                break;
            switch (o % 10) {
            case 0:
                RAISES(Scr_UsingTree(TREE_NAME(&in), fz_u8(&in)));
                break;
            case 1:
            case 2: {
                char *cell = fz_alloc(8);
                if (!cell)
                    break;
                const char *name = pick_name(&in);
                uint16_t handle = intern(name);
                RAISES(Scr_EmitAnimation(cell, handle, fz_u8(&in)));
                break;
            }
            case 3: {
                scr_anim_t *anim = fz_alloc(sizeof *anim);
                if (!anim)
                    break;
                const char *tree = TREE_NAME(&in);
                const char *name = pick_name(&in);
                RAISES(Scr_FindAnim(tree, name, anim));
                break;
            }
            case 4:
                script_animCommentDepth = fz_u8(&in) & 1;
                break;
            case 5:
                RAISES(sink += (uintptr_t)find_tree(TREE_NAME(&in)));
                break;
            case 6: {
                int32_t index = 0;
                RAISES(sink += Scr_UsingTreeInternal(TREE_NAME(&in), &index));
                break;
            }
            case 7:
                if (flags & 0x40)
                    script_animCurrentUsingTree = fz_u16(&in);
                break;
            case 8:
                RAISES(Scr_LoadAnimTreeAtIndex(fz_int(&in), (flags & 0x80) ? null_alloc : tree_alloc));
                break;
            }
        }
        RAISES(Scr_PrecacheAnimTrees((flags & 0x08) && load == 2 ? null_alloc : tree_alloc));
        for (volatile int k = 0; k < 2; k++) {
            XAnim *volatile t = NULL;
            RAISES(t = find_tree(tree_names[k]));
            if (t) {
                RAISES(query_tree(t));
                RAISES(XAnimSetupSyncNodes(t));
            }
        }
        RAISES(Scr_EndLoadAnimTrees());
        if (!fz_more(&in))
            break;
    }
    free(atr_text[0]);
    free(atr_text[1]);
    atr_text[0] = atr_text[1] = NULL;
    fz_free_all();
    return 0;
}

/* ---- hand-built trees ----------------------------------------------------- */
static const char *const leaf_names[] = {"loop_a", "once_b", "twice", "run", "walk", "missing_x", "", "idle"};

int uoanim_fuzz_xanim(const uint8_t *data, size_t size)
{
    static fz_input in;
    in = (fz_input){data, size, 0};
    reset_engine();
    uint8_t shape = fz_u8(&in);
    uint32_t count = fz_u16(&in) % 300;
    if (shape & 1)
        count = (uint32_t[]){0, 1, 2, 65535, 65536, 70000, 0x7fffffff, 0xffffffffu}[(shape >> 1) & 7];
    XAnim *t = XAnimAllocTree("hand", count, tree_alloc);
    for (int op = 0; op < 512 && fz_more(&in); op++) {
        uint8_t o = fz_u8(&in);
        volatile uint16_t index = (o & 0x80) ? fz_u16(&in) : (uint16_t)(count ? fz_u8(&in) % (count + 2) : fz_u8(&in));
        switch (o % 8) {
        case 0:
        case 1: {
            uint16_t first = (o & 0x40) ? fz_u16(&in) : fz_u8(&in);
            uint16_t children = (o & 0x20) ? fz_u16(&in) : fz_u8(&in) % 5;
            uint16_t flags = fz_u16(&in);
            XAnimSetParentNode(t, index, "unused", first, children, flags);
            break;
        }
        case 2: {
            const char *name = leaf_names[fz_u8(&in) % 8];
            if (!RAISES(XAnimSetLeafNode(t, index, name)) && *name)
                RAISES(XAnimLoadFile(name, tree_alloc));
            break;
        }
        case 3:
            RAISES(XAnimSetupSyncNodes(t));
            break;
        case 4:
            RAISES(XAnimSetupSyncNodes_r(t, (uint32_t)fz_int(&in)));
            break;
        case 5:
            RAISES(XAnimFillInSyncNodes_r(t, (uint32_t)fz_int(&in), fz_u8(&in)));
            break;
        case 6:
            query_node(t, fz_int(&in));
            query_node(t, index);
            break;
        case 7:
            query_tree(t);
            break;
        }
    }
    query_tree(t);
    RAISES(XAnimSetupSyncNodes(t));
    query_node(NULL, 0);
    RAISES(XAnimSetupSyncNodes(NULL));
    fz_free_all();
    return 0;
}
