/* playeranim.c — fuzz harness of the player-animation units (game, cgame;
 * define UOANIM_FLAVOUR_GAME or UOANIM_FLAVOUR_CGAME):
 *
 *   uoanim_fuzz_playeranim  input: a flags byte, the weapon names, the
 *                           script text (each up to a NUL), then the calls.
 *                           The script goes through the engine's
 *                           load sequence — BG_FindAnims, pass 1 of
 *                           BG_AnimParseAnimScript, BG_FindAnimTrees,
 *                           BG_FinalizePlayerAnims (pass 2) — then runtime
 *                           calls and the standalone parse helpers chosen
 *                           by the rest of the input, twice over (a second
 *                           load after the first, as on a map change).
 *
 * The engine side is defined here: the script file, a synthetic animation
 * tree whose nodes are the names the script finds (Scr_FindAnim raises for
 * names starting with "missing", as the engine does for unknown ones),
 * weapons, sound callbacks, the random draw — through the game module's
 * trap functions or the client-game module's syscall and import table. */
#include "common.h"
#include "uoanim_playeranim.h"

#include <limits.h>

/* ---- the game module's globals (imported by the units) ------------------ */
bgs_t bgs;
bg_static_animation_table_t *bgAnimStaticTable;
bg_runtime_animation_t *bgRuntimeAnimations;
int32_t *bgRuntimeAnimationCount;
int32_t bg_numWeapons;
weaponInfo_t **bg_weaponInfos;

/* ---- the script file ------------------------------------------------------ */
static const char *script_text;
static size_t script_length, script_offset;
static int script_missing;

static int fs_open(const char *path, int *handle)
{
    if (script_missing || !path || strcmp(path, "mp/playeranim.script") != 0) {
        if (handle)
            *handle = 0;
        return -1;
    }
    if (handle)
        *handle = 1;
    script_offset = 0;
    return (int)script_length;
}

static void fs_read(void *buffer, int length, int handle)
{
    (void)handle;
    size_t n = length < 0 ? 0 : (size_t)length;
    if (n > script_length - script_offset)
        n = script_length - script_offset;
    memcpy(buffer, script_text + script_offset, n);
    script_offset += n;
}

/* ---- the animation tree: node 0 is the root, then each name found --------- */
#define MAX_NODES 600
/* the tree the traps answer for (opaque to the game side) */
static uint64_t fake_tree_storage[4];
#define fake_tree (*(XAnim *)fake_tree_storage)
static char node_names[MAX_NODES][64];
static int node_count = 1;
static int tree_size_override = -1;

static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 16777619u;
    return h;
}

static void find_anim(const char *tree, const char *name, scr_anim_t *out)
{
    if (!tree || strcmp(tree, "multiplayer") != 0)
        Com_Error(1, "\x15" "Could not find animation tree '%s'", tree ? tree : "(null)");
    if (!name || strncmp(name, "missing", 7) == 0)
        Com_Error(1, "\x15" "animation '%s' not defined in anim tree '%s'", name ? name : "(null)", tree);
    int index = 0;
    if (strcmp(name, "root") != 0) {
        for (index = 1; index < node_count; index++)
            if (strcmp(node_names[index], name) == 0)
                break;
        if (index == node_count) {
            if (node_count == MAX_NODES)
                Com_Error(1, "\x15" "too many animations");
            snprintf(node_names[node_count], sizeof node_names[0], "%s", name);
            index = node_count++;
        }
    }
    if (out) {
        out->animIndex = (uint16_t)index;
        out->treeIndex = 1;
    }
}

static XAnim *find_anim_tree(const char *name)
{
    return name && strcmp(name, "multiplayer") == 0 ? &fake_tree : NULL;
}

static int tree_size(XAnim *tree)
{
    if (tree != &fake_tree)
        return 0;
    return tree_size_override >= 0 ? tree_size_override : node_count;
}

static int node_valid(uint32_t tree_index, uint32_t anim)
{
    return tree_index == 1 && anim < (uint32_t)node_count;
}

static int is_primitive(uint32_t tree_index, uint32_t anim)
{
    /* the root and every name starting with "p_" are parents */
    return node_valid(tree_index, anim) && anim != 0 && strncmp(node_names[anim], "p_", 2) != 0;
}

static const char *anim_name(uint32_t tree_index, uint32_t anim)
{
    if (!node_valid(tree_index, anim))
        return NULL;
    return anim == 0 ? "root" : node_names[anim];
}

static int anim_length(uint32_t anim)
{
    static const int lengths[] = {1000, 0, 1, 33, 500, 2000, 7, INT_MAX, -1, 250};
    if (anim >= (uint32_t)node_count)
        return 0;
    return lengths[name_hash(anim == 0 ? "root" : node_names[anim]) % 10];
}

static int is_looped(uint32_t tree_index, uint32_t anim)
{
    return node_valid(tree_index, anim) && anim != 0 && (name_hash(node_names[anim]) & 16) != 0;
}

static void rel_delta(uint32_t tree_index, uint32_t anim, float *rotation, float *move)
{
    static const float speeds[] = {0.0f, 120.0f, 1e-20f, 1e30f, -50.0f, 3.5f, 0.0f, 260.0f};
    rotation[0] = rotation[1] = 0;
    move[0] = move[1] = move[2] = 0;
    if (node_valid(tree_index, anim) && anim != 0) {
        uint32_t h = name_hash(node_names[anim]);
        move[0] = speeds[h & 7];
        move[1] = speeds[(h >> 3) & 7] / 4;
    }
}

static uint32_t draw_counter;
static int32_t draw(int32_t minimum, int32_t maximum)
{
    int64_t span = (int64_t)maximum - minimum + 1;
    draw_counter = draw_counter * 1103515245u + 12345u;
    if (span <= 0)
        return minimum;
    return (int32_t)(minimum + (int64_t)(draw_counter >> 8) % span);
}

#if defined(UOANIM_FLAVOUR_CGAME)
/* ---- client-game module: the syscall and the script-import table --------- */
static intptr_t cg_dispatch(intptr_t *w)
{
    switch (w[0]) {
    case 15: /* FS_FOPEN_FILE */
        return fs_open((const char *)w[1], (int *)w[2]);
    case 16: /* FS_READ */
        fs_read((void *)w[1], (int)w[2], (int)w[3]);
        return 0;
    case 18: /* FS_FCLOSE_FILE */
        return 0;
    case 187:
        return tree_size((XAnim *)w[1]);
    case 182:
        return is_primitive((uint32_t)w[1], (uint32_t)w[2]);
    case 164:
        return (intptr_t)anim_name((uint32_t)w[1], (uint32_t)w[2]);
    case 183:
        return (XAnim *)w[1] == &fake_tree ? anim_length((uint32_t)w[2]) : 0;
    case 158:
        rel_delta((uint32_t)w[1], (uint32_t)w[2], (float *)w[3], (float *)w[4]);
        return 0;
    case 146:
        return is_looped((uint32_t)w[1], (uint32_t)w[2]);
    }
    fprintf(stderr, "uoanim fuzz harness: unexpected cgame syscall %ld\n", (long)w[0]);
    abort();
}

#if UINTPTR_MAX == 0xffffffffu
static intptr_t cg_syscall(intptr_t command, ...)
{
    intptr_t w[7] = {command};
    va_list args;
    va_start(args, command);
    for (int i = 1; i < 7; i++)
        w[i] = va_arg(args, intptr_t);
    va_end(args);
    return cg_dispatch(w);
}
intptr_t (*cgame_syscall)(intptr_t command, ...) = cg_syscall;
#else
static intptr_t cg_syscall_vector(intptr_t *words) { return cg_dispatch(words); }
intptr_t (*cgame_syscall_vector)(intptr_t *words) = cg_syscall_vector;
#endif

static XAnim *cg_find_anim_tree(const char *name) { return find_anim_tree(name); }
static void cg_find_anim(const char *tree, const char *name, scr_anim_t *out) { find_anim(tree, name, out); }
static uint32_t cg_anims_index(XAnim *tree) { return tree == &fake_tree ? 1 : 0; }
void (*cg_scriptImports[102])(void) = {
    [80] = (void (*)(void))cg_find_anim_tree,
    [81] = (void (*)(void))cg_find_anim,
    [98] = (void (*)(void))cg_anims_index,
};

int32_t coduo_crt_randrange(int32_t minimum, int32_t maximum) { return draw(minimum, maximum); }
#else
/* ---- server game module: the trap functions ------------------------------ */
int trap_FS_FOpenFile(const char *path, int *handle, int mode) { (void)mode; return fs_open(path, handle); }
void trap_FS_Read(void *buffer, int length, int handle) { fs_read(buffer, length, handle); }
void trap_FS_FCloseFile(int handle) { (void)handle; }
void Scr_FindAnim(const char *treeName, const char *animName, scr_anim_t *outAnim) { find_anim(treeName, animName, outAnim); }
script_anim_tree_ref_t Scr_FindAnimTree(const char *treeName) { return (script_anim_tree_ref_t){find_anim_tree(treeName)}; }
uint32_t Scr_GetAnimsIndex(XAnim *anims) { return anims == &fake_tree ? 1 : 0; }
int trap_XAnimGetAnimTreeSize(XAnim *anims) { return tree_size(anims); }
qboolean trap_XAnimIsPrimitive(uint32_t anim) { return is_primitive(anim >> 16, anim & 0xffff); }
const char *trap_XAnimGetAnimName(uint32_t anim) { return anim_name(anim >> 16, anim & 0xffff); }
int trap_XAnimGetLength(XAnim *anims, uint16_t animIndex) { return anims == &fake_tree ? anim_length(animIndex) : 0; }
void trap_XAnimGetRelDelta(uint32_t anim, float *rotationDelta, float *moveDelta, float startTime, float endTime)
{
    (void)startTime;
    (void)endTime;
    rel_delta(anim >> 16, anim & 0xffff, rotationDelta, moveDelta);
}
qboolean trap_XAnimIsLooped(uint32_t anim) { return is_looped(anim >> 16, anim & 0xffff); }
int32_t coduo_glibc_randrange(int32_t minimum, int32_t maximum) { return draw(minimum, maximum); }
#endif

/* ---- callbacks and weapons ------------------------------------------------ */
static volatile uintptr_t sink;
static const char *sound_alias(const char *name) { return name && name[0] == 'n' ? NULL : name; }
static void sound_event(int clientNum, const char *name) { sink += (uintptr_t)clientNum + (name ? strlen(name) : 0); }

/* weapons: the names of the input's first text (whitespace-separated, up to
 * 127), or ten default names when it is empty */
static const char *const default_weapons[] = {"colt_mp", "luger_mp", "mp40_mp", "thompson_mp", "kar98k_mp",
                                              "m1garand_mp", "bar_mp", "fraggrenade_mp", "panzerfaust_mp",
                                              "mg42_turret_mp"};
#define MAX_WEAPON_RECORDS 130
static weaponInfo_t weapons[MAX_WEAPON_RECORDS];
static weaponInfo_t *weapon_table[MAX_WEAPON_RECORDS];
static char *weapon_text;

static int setup_weapons(char *list)
{
    int n = 0;
    for (char *p = strtok(list, " \t\r\n"); p && n < 127; p = strtok(NULL, " \t\r\n"))
        weapons[n++].pickupName = p;
    if (n == 0)
        for (; n < 10; n++)
            weapons[n].pickupName = default_weapons[n];
    return n;
}

static void setup_engine(uint8_t flags)
{
    memset(&bgs, 0, sizeof bgs);
    bgAnimStaticTable = NULL;
    bgRuntimeAnimations = NULL;
    static int32_t zero_count;
    bgRuntimeAnimationCount = (flags & 0x40) ? NULL : &zero_count;
    bgs.soundAliasCallback = (flags & 0x20) ? NULL : sound_alias;
    bgs.soundEventCallback = (flags & 0x20) ? NULL : sound_event;
    int n = setup_weapons(weapon_text);
    for (int i = 0; i < MAX_WEAPON_RECORDS; i++) {
        weapons[i].weaponIndex = i;
        if (i >= n)
            weapons[i].pickupName = i == n + 1 ? NULL : "w_extra";
        weapon_table[i] = (i == n + 2) ? NULL : &weapons[i];
    }
    bg_weaponInfos = (flags & 0x10) ? NULL : weapon_table;
    bg_numWeapons = (flags & 0x08) ? n + 3 : n;
    node_count = 1;
    tree_size_override = -1;
    draw_counter = 1;
}

/* ---- runtime calls ---------------------------------------------------------- */
static void runtime_calls(fz_input *in, playerState_t *ps)
{
    for (int op = 0; op < 64 && fz_more(in); op++) {
        uint8_t o = fz_u8(in);
        if (o == 0xff)
            break;
        switch (o % 16) {
        case 0:
            RAISES(sink += BG_ExecuteCommand(ps, fz_int(in), fz_int(in), fz_u8(in) & 1));
            break;
        case 1:
            RAISES(sink += BG_AnimScriptEvent(ps, fz_int(in), fz_u8(in) & 1, fz_u8(in) & 1));
            break;
        case 2:
            RAISES(sink += BG_AnimScriptStateChange(ps, fz_int(in), fz_int(in)));
            break;
        case 3: {
            int k = fz_u8(in);
            const char *name = k < node_count ? node_names[k] : "nosuch";
            RAISES(sink += BG_PlayAnimName(ps, name, fz_u8(in) & 3, fz_u8(in) & 1, fz_u8(in) & 1, fz_u8(in) & 1));
            break;
        }
        case 4:
            RAISES(sink += BG_PlayAnim(ps, (uint32_t)fz_int(in), (uint32_t)fz_int(in), fz_int(in), fz_u8(in) & 1,
                                       fz_u8(in) & 1, fz_u8(in) & 1));
            break;
        case 5:
            RAISES(BG_UpdateConditionValue(fz_int(in), fz_int(in), fz_int(in), fz_u8(in) & 1));
            break;
        case 6:
            RAISES(sink += BG_GetConditionValue(&bgs.clientinfo[fz_u8(in) % BGS_CLIENTINFO_COUNT], fz_int(in),
                                                fz_u8(in) & 1));
            break;
        case 7:
            RAISES(sink += (uintptr_t)BG_GetAnimString((uint32_t)fz_int(in)));
            break;
        case 8:
            RAISES(sink += (uintptr_t)BG_GetAnimationForIndex(fz_int(in), (uint32_t)fz_int(in)));
            break;
        case 9:
            RAISES(sink += (uintptr_t)BG_LoadAnimForAnimIndex((uint32_t)fz_int(in)));
            break;
        case 10:
            RAISES(sink += BG_GetAnimScriptEvent(ps, fz_int(in)));
            break;
        case 11: {
            int32_t n = bgs.animationTable.globalItemCount;
            int k = fz_u8(in);
            if (n > 0)
                RAISES(sink += BG_EvaluateConditions(&bgs.clientinfo[k % BGS_CLIENTINFO_COUNT],
                                                     &bgs.animationTable.globalItems[k % (n < 128 ? n : 128)]));
            break;
        }
        case 12:
            ps->psClientNum = fz_int(in);
            ps->pmType = fz_int(in);
            break;
        case 13:
            ps->legsAnim = fz_int(in);
            ps->torsoAnim = fz_int(in);
            ps->legsTimer = fz_int(in);
            ps->torsoTimer = fz_int(in);
            break;
        case 14: {
            /* The module's parse session may keep a pointer into this text
             * (a pushed-back token, as the C original's does): it stays
             * readable until the run ends (docs/ABI.md). */
            char *text = fz_text(in);
            char *kept = fz_alloc(strlen(text) + 1);
            if (!kept) {
                free(text);
                break;
            }
            strcpy(kept, text);
            free(text);
            char *p = kept;
            int which = fz_u8(in) % 3;
            bg_anim_script_t *script = &bgs.animationTable.globalItems[fz_u8(in) % 128];
            bg_condition_bits_t bits;
            if (which == 0)
                RAISES(sink += BG_ParseConditions(&p, script));
            else if (which == 1)
                RAISES(BG_ParseCommands(&p, script, bgs.animationTable.entries));
            else
                RAISES(BG_ParseConditionBits(&p, weaponStrings, fz_u8(in) % 11, &bits));
            break;
        }
        case 15: {
            char buffer[32];
            int32_t used = fz_int(in);
            char *text = fz_text(in);
            RAISES(sink += (uintptr_t)BG_CopyStringIntoBuffer(text, buffer, sizeof buffer, &used));
            RAISES(sink += BG_IndexForString(text, animStateStr, 1));
            RAISES(sink += (uintptr_t)BG_AnimationForString(text));
            RAISES(sink += BG_StringHashValue(text));
            free(text);
            break;
        }
        }
    }
}

int uoanim_fuzz_playeranim(const uint8_t *data, size_t size)
{
    static fz_input in;
    static bg_runtime_animation_t runtime[512];
    static playerState_t ps;
    static int32_t runtime_count;
    in = (fz_input){data, size, 0};
    uoanim_playeranim_reset();
    uint8_t flags = fz_u8(&in);
    weapon_text = fz_text(&in);
    setup_engine(flags);
    char *text = fz_text(&in);
    script_text = text;
    script_length = strlen(text);
    script_missing = (flags & 0x80) != 0 && size % 7 == 0;
    memset(&ps, 0, sizeof ps);
    for (int load = 0; load < 2; load++) {
        memset(runtime, 0, sizeof runtime);
        runtime_count = 0;
        if (flags & 1)
            RAISES(BG_FindAnims());
        RAISES(BG_AnimParseAnimScript(&bgs.animationTable, (flags & 2) ? NULL : runtime, &runtime_count));
        if (flags & 4)
            tree_size_override = fz_int(&in) & 0x3ff;
        RAISES(BG_FindAnimTrees());
        RAISES(BG_FinalizePlayerAnims());
        RAISES(BG_SetupAnimNoteTypes(&bgs.animationTable));
        runtime_calls(&in, &ps);
        if (!fz_more(&in))
            break;
    }
    free(text);
    free(weapon_text);
    script_text = NULL;
    weapon_text = NULL;
    fz_free_all();
    return 0;
}
