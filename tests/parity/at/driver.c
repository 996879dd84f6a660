/* driver.c -- differential driver for the animation-tree library (protocol v2:
 * the engine side of the load is in stubs.c; the dump adds the engine view).
 *
 *   at_driver [-R ROOTDIR] CASEFILE      canonical dump on stdout (PROTOCOL.md)
 *
 * Talks to the library only through abi.h; reads XAnim nodes through the
 * private layout mirror in layout.h.  Built once per flavour: server (default)
 * or client (-DAT_FLAVOUR_CLIENT); see PROTOCOL.md, "Flavours".
 * Exit status 0 also when the library raised Com_Error / CompileError (the
 * dump then ends with the error block); 2 for a malformed case file.
 */
#if defined(_WIN32) && !defined(__USE_MINGW_ANSI_STDIO)
/* mingw-w64: the C99 printf family (%zu, %La, ...) instead of msvcrt's */
#define __USE_MINGW_ANSI_STDIO 1
#endif
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "ext80fmt.h"
#include "stubs.h"

static const char *g_root = ".";
static const char *g_caseName = "";
static int g_line;

static void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "at_driver: %s:%d: ", g_caseName, g_line);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

/* ---------------------------------------------------------------- output */
static void put_escaped(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
        if (*p == '\n') fputs("\\n", stdout);
        else if (*p == '\\') fputs("\\\\", stdout);
        else if (*p == '"') fputs("\\\"", stdout);
        else if (*p < 0x20 || *p >= 0x7f) printf("\\x%02x", *p);
        else putchar(*p);
    }
}

/* " len=nan nan" / " len=-nan -nan", as glibc prints a NaN in both formats
 * (the mingw-w64 printf drops the sign of a NaN) */
static void put_nan2(int negative)
{
    const char *t = negative ? "-nan" : "nan";
    printf(" len=%s %s", t, t);
}

static void put_q(const char *s)
{
    putchar('"');
    put_escaped(s ? s : "(null)");
    putchar('"');
}

/* ---------------------------------------------------------------- files */
static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (n > 0 && fread(buf, 1, (size_t)n, f) != (size_t)n) { fclose(f); free(buf); return NULL; }
    buf[n] = '\0';
    fclose(f);
    *size = (size_t)n;
    return buf;
}

static char *root_path(const char *rel)
{
    static char buf[4096];
    snprintf(buf, sizeof(buf), "%s/%s", g_root, rel);
    return buf;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* ---------------------------------------------------------------- state */
enum { MAX_REG = 256, MAX_XTREES = 64 };
static char *g_reg[MAX_REG];       /* canonical tree names, first-registration order */
static int g_regCount;
static int g_haveNoteTracks;
static char **g_ntNames;           /* every notetrack name of the case, + "end" */
static int g_ntCount;

typedef struct { char *tree; char *name; int region; char *cell; } cellrec_t;
static cellrec_t *g_cells;
static size_t g_cellCount, g_cellCap, g_cellLoadStart;
static char g_usingTree[1024];     /* instrument's view of the current #using_animtree */

static XAnim *g_xtrees[MAX_XTREES];

static void reg_note(const char *treeName)
{
    char canon[1024];
    at_canonical(treeName, canon, sizeof(canon));
    for (int i = 0; i < g_regCount; ++i)
        if (strcmp(g_reg[i], canon) == 0) return;
    if (g_regCount < MAX_REG) g_reg[g_regCount++] = strdup(canon);
}

static void cell_add(const char *tree, const char *name, int region, char *cell)
{
    if (g_cellCount == g_cellCap) {
        g_cellCap = g_cellCap ? g_cellCap * 2 : 1024;
        g_cells = realloc(g_cells, g_cellCap * sizeof(*g_cells));
    }
    g_cells[g_cellCount].tree = strdup(tree);
    g_cells[g_cellCount].name = strdup(name);
    g_cells[g_cellCount].region = region;
    g_cells[g_cellCount].cell = cell;
    g_cellCount++;
}

/* ---------------------------------------------------------------- alloc callbacks */
/* every tree_alloc block of the case, for the engine view's labels: aK is the
 * K-th tree_alloc call of the case (the K-th "alloc" line) */
typedef struct { const unsigned char *p; size_t size; } allocrec_t;
static allocrec_t *g_allocs;
static size_t g_allocCount, g_allocCap;

static void *tree_alloc(size_t size)
{
    if (size >= sizeof(XAnim) && (size - sizeof(XAnim)) % sizeof(XAnimEntry) == 0)
        printf("alloc nodes=%zu\n", (size - sizeof(XAnim)) / sizeof(XAnimEntry));
    else
        printf("alloc bytes=%zu\n", size);
    void *p = Hunk_AllocAlignInternal(size, 16);
    if (g_allocCount == g_allocCap) {
        g_allocCap = g_allocCap ? g_allocCap * 2 : 64;
        g_allocs = realloc(g_allocs, g_allocCap * sizeof(*g_allocs));
    }
    g_allocs[g_allocCount].p = p;
    g_allocs[g_allocCount].size = size;
    g_allocCount++;
    return p;
}

/* 0: not a tree_alloc block; K: the block starts at p; -K: p is inside block K */
static long alloc_block_of(const void *p, size_t *offset)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < g_allocCount; ++i) {
        if (b == g_allocs[i].p) { *offset = 0; return (long)i + 1; }
        if (b > g_allocs[i].p && b < g_allocs[i].p + g_allocs[i].size) {
            *offset = (size_t)(b - g_allocs[i].p);
            return -((long)i + 1);
        }
    }
    return 0;
}

/* a stable label of a tree pointer: NULL, aK, aK+OFF, foreign */
static void put_tree_label(const XAnim *t)
{
    size_t off = 0;
    long k = t ? alloc_block_of(t, &off) : 0;
    if (t == NULL) printf("NULL");
    else if (k > 0) printf("a%ld", k);
    else if (k < 0) printf("a%ld+%zu", -k, off);
    else printf("foreign");
}

static int tree_is_block(const XAnim *t)
{
    size_t off = 0;
    return t != NULL && alloc_block_of(t, &off) > 0;
}

static void *quiet_alloc(size_t size) { return Hunk_AllocAlignInternal(size, 16); }

static size_t g_rtAllocSize;
static void *rt_alloc(size_t size)
{
    g_rtAllocSize = size;
    return at_alloc_poisoned(size);
}

static void *g_copyPtr;
static size_t g_copySize;
static void rt_copy(void *data, size_t size)
{
    g_copyPtr = data;
    g_copySize = size;
}

/* ---------------------------------------------------------------- dumping */
static const char *region_name(int r) { return r == AT_REGION_CODE ? "code" : r == AT_REGION_DEV ? "dev" : "c"; }

static void put_cell_value(const char *cell)
{
    uint32_t v;
    memcpy(&v, cell, 4);
    if (sizeof(void *) == 4 && v >= 0x00800000u) {
        const char *lab = at_cell_label((const void *)(uintptr_t)v);
        if (lab) { printf("->%s", lab); return; }
    }
    printf("0x%08x", v);
}

static void dump_cells(void)
{
    /* group cells of the current load by (tree, name, region), first-use order */
    size_t n = g_cellCount - g_cellLoadStart;
    char *done = calloc(n ? n : 1, 1);
    for (size_t i = 0; i < n; ++i) {
        if (done[i]) continue;
        cellrec_t *a = &g_cells[g_cellLoadStart + i];
        size_t count = 0;
        int same = 1;
        for (size_t j = i; j < n; ++j) {
            cellrec_t *b = &g_cells[g_cellLoadStart + j];
            if (done[j] || b->region != a->region || strcmp(b->tree, a->tree) || strcmp(b->name, a->name)) continue;
            if (memcmp(b->cell, a->cell, 4) != 0) same = 0;
            count++;
        }
        printf("ref ");
        put_escaped(a->tree);
        printf(" %%");
        put_escaped(a->name);
        printf(" %s x%zu =", region_name(a->region), count);
        for (size_t j = i; j < n; ++j) {
            cellrec_t *b = &g_cells[g_cellLoadStart + j];
            if (done[j] || b->region != a->region || strcmp(b->tree, a->tree) || strcmp(b->name, a->name)) continue;
            done[j] = 1;
            if (!same || j == i) {
                putchar(' ');
                put_cell_value(b->cell);
            }
        }
        putchar('\n');
    }
    free(done);
}

static void dump_xanim(XAnim *tree)
{
    printf(" xanim=");
    put_q(tree->name);
    printf(" nodes=%u size=%d\n", tree->nodeCount, XAnimGetAnimTreeSize(tree));
    if (tree->nodeCount > 70000) { printf("  (node count out of range)\n"); return; }
    for (uint32_t i = 0; i < tree->nodeCount; ++i) {
        XAnimEntry *e = &tree->entries[i];
        int idx = (int)i;
        int prim = XAnimIsPrimitive(tree, idx);
        if (e->childCount != 0) {
            int num = XAnimGetNumChildren(tree, idx);
            printf("  %u P n=%u par=%u fl=0x%04x first=%u num=%d at=", i, e->childCount, e->parentIndex,
                   e->payload.parent.flags, e->payload.parent.firstChildIndex, num);
            int a0 = num > 0 ? XAnimGetChildAt(tree, idx, 0) : -1;
            int contiguous = 1;
            for (int k = 1; k < num; ++k)
                if (XAnimGetChildAt(tree, idx, k) != a0 + k) contiguous = 0;
            if (num <= 0) printf("-");
            else if (contiguous) printf("%d..%d", a0, a0 + num - 1);
            else
                for (int k = 0; k < num; ++k) printf("%s%d", k ? "," : "", XAnimGetChildAt(tree, idx, k));
            printf(" pr=%d ti=%d lo=%d nm=", prim, XAnimHasTime(tree, idx), XAnimIsLooped(tree, idx));
            put_q(XAnimGetAnimName(tree, idx));
            putchar('\n');
        } else {
            printf("  %u L par=%u rec=%s nm=", i, e->parentIndex,
                   at_xanim_is_record(e->payload.leafAsset) ? "ok" : "foreign");
            put_q(XAnimGetAnimName(tree, idx));
            printf(" pr=%d ti=%d lo=%d num=%d", prim, XAnimHasTime(tree, idx), XAnimIsLooped(tree, idx),
                   XAnimGetNumChildren(tree, idx));
#if defined(AT_FLAVOUR_CLIENT)
            volatile double len = XAnimGetLength(tree, idx); /* binary64 */
            if (isnan(len)) put_nan2(signbit(len));
            else printf(" len=%a %.17g", len, len);
#elif defined(AT_LENGTH_X87F)
            /* emulated x87 register (SoftFloat extFloat80_t): printed from its
             * bits exactly as glibc's x86 printf prints the hardware long
             * double ("%La %.20Lg"), so the lines compare with the x86 dump */
            at_length_t len = XAnimGetLength(tree, idx);
            if ((len.signExp & 0x7fff) == 0x7fff && (len.signif & 0x7fffffffffffffffull) != 0)
                put_nan2((len.signExp & 0x8000u) != 0);
            else {
                char la[64], lg[20000];
                ext80_fmt_La(la, sizeof la, len.signif, len.signExp);
                ext80_fmt_Lg(lg, sizeof lg, len.signif, len.signExp, 20);
                printf(" len=%s %s", la, lg);
            }
#else
            long double len = XAnimGetLength(tree, idx);     /* x87 extended */
            if (isnan(len)) put_nan2(signbit(len));
            else printf(" len=%La %.20Lg", len, len);
#endif
            if (g_haveNoteTracks) {
                printf(" nt=");
                for (int k = 0; k < g_ntCount; ++k)
                    printf("%s%d", k ? "," : "",
                           XAnimNotetrackExists(tree, idx, SL_GetString_(g_ntNames[k], 0, 0)));
            }
            putchar('\n');
        }
    }
}

/* strtol with the range of a pointer-sized integer: on Linux (LP64 / ILP32)
 * that is long itself; on Windows long is 32-bit also on x86_64 (LLP64), so
 * the value is parsed as long long and saturated to intptr_t like strtol,
 * which keeps every number the same as on the Linux target of that width */
#if defined(_WIN32)
typedef intptr_t at_long;
#define AT_LD "lld" /* printf length modifier of at_long */
#define AT_LONG_ARG(v) ((long long)(v))
static at_long at_strtol(const char *text, char **end)
{
    long long v = strtoll(text, end, 0);
    if (v > INTPTR_MAX) { errno = ERANGE; return INTPTR_MAX; }
    if (v < INTPTR_MIN) { errno = ERANGE; return INTPTR_MIN; }
    return (at_long)v;
}
#else
typedef long at_long;
#define AT_LD "ld"
#define AT_LONG_ARG(v) (v)
static at_long at_strtol(const char *text, char **end) { return strtol(text, end, 0); }
#endif

static at_long rt_extra(size_t size, XAnim *tree)
{
    return (at_long)size - (at_long)sizeof(XAnimTree) - 8L * (at_long)tree->nodeCount;
}

static const char *rt_zero_ok(const void *rtv, size_t size, XAnim *tree)
{
    const unsigned char *p = rtv;
    XAnim *src;
    memcpy(&src, p, sizeof(src));
    if (src != tree) return "badsrc";
    for (size_t i = sizeof(XAnim *); i < size; ++i)
        if (p[i] != 0) return "notzero";
    for (size_t i = size; i < size + AT_POISON_TAIL; ++i)
        if (p[i] != AT_POISON_FILL) return "overrun";
    return "ok";
}

/* "tagT" (server: MT_Alloc's tag argument) or "notag" (client: MT_Alloc has none) */
static const char *mt_tag(void)
{
#if defined(AT_FLAVOUR_CLIENT)
    return at_lastMtAllocTag == -1 ? "notag" : "tag?";
#else
    static char buf[32];
    snprintf(buf, sizeof(buf), "tag%d", at_lastMtAllocTag);
    return buf;
#endif
}

static void dump_runtime(XAnim *tree)
{
    XAnimTree *rt = XAnimAllocRuntimeTree(tree, rt_alloc);
    printf("  rt alloc=%+" AT_LD "/%s src=%s", AT_LONG_ARG(rt_extra(g_rtAllocSize, tree)), rt_zero_ok(rt, g_rtAllocSize, tree),
           XAnimRuntimeTreeSourceTree(rt) == tree ? "ok" : "bad");
    g_copyPtr = NULL;
    XAnimCopyRuntimeTree(rt, rt_copy);
    printf(" copy=%+" AT_LD "/%s", AT_LONG_ARG(rt_extra(g_copySize, tree)), g_copyPtr == rt ? "same" : "other");
    XAnimTree *h = Com_XAnimCreateTree(tree);
    printf(" hunk=%+" AT_LD "/%s/%s", AT_LONG_ARG(rt_extra(at_lastHunkCreateSize, tree)),
           h == at_lastHunkCreatePtr ? "same" : "other", rt_zero_ok(h, at_lastHunkCreateSize, tree));
    XAnimTree *s = Com_XAnimCreateSmallTree(tree);
    printf(" small=%+" AT_LD "/%s/%s/%s", AT_LONG_ARG(rt_extra(at_lastMtAllocSize, tree)), mt_tag(),
           s == at_lastMtAllocPtr ? "same" : "other", rt_zero_ok(s, at_lastMtAllocSize, tree));
    at_lastMtFreePtr = NULL;
    Com_XAnimFreeSmallTree(s);
    printf(" free=%+" AT_LD "/%s", AT_LONG_ARG(rt_extra(at_lastMtFreeSize, tree)), at_lastMtFreePtr == s ? "same" : "other");
    void *m = MT_AllocAnimTree(40);
    printf(" mt=%zu/%s/%s\n", at_lastMtAllocSize, mt_tag(), m == at_lastMtAllocPtr ? "same" : "other");
}

static XAnim *find_tree(const char *name) { return at_find_anim_tree(name); }

static void dump_trees(int runtime)
{
    for (int i = 0; i < g_regCount; ++i) {
        XAnim *t = find_tree(g_reg[i]);
        printf("tree %d ", i + 1);
        put_escaped(g_reg[i]);
        if (t == NULL) { printf(" NULL\n"); continue; }
        if (runtime) { putchar('\n'); dump_runtime(t); continue; }
        dump_xanim(t);
    }
}

/* ---------------------------------------------------------------- engine view (v2) */
static void put_engine_log(void)
{
    const char *log = at_engine_take_log();
    if (log[0]) fputs(log, stdout);
}

/* what the engine's kept code sees of the load: script_animTreeCounts[s] and
 * script_animTrees[s][0..count] through Scr_GetAnimsIndex / Scr_GetAnims /
 * Scr_GetAnimTree, for the current slot and any slot with a nonzero count */
static void engine_view(const char *when)
{
    int32_t cur = xanim_activePoolPayloadSlot;
    printf("engine at=%s slot=%d active=%u counts=%d,%d\n", when, cur, (unsigned)script_loadAnimTreesActive,
           script_animTreeCounts[0], script_animTreeCounts[1]);
    for (int32_t s = 0; s < AT_ANIM_SLOT_COUNT; ++s) {
        if (s != cur && script_animTreeCounts[s] == 0) continue;
        int32_t n = script_animTreeCounts[s];
        if (n < 0) n = -1;
        if (n >= AT_ANIM_TREE_SLOT_COUNT) n = AT_ANIM_TREE_SLOT_COUNT - 1;
        for (int32_t i = 0; i <= n; ++i) {
            XAnim *t = script_animTrees[s][i];
            printf("engine s%d %d ", s, i);
            put_tree_label(t);
            if (tree_is_block(t)) {
                printf(" xanim=");
                put_q(t->name);
                printf(" nodes=%u", t->nodeCount);
            }
            printf(" index=%u anims=", at_engine_anims_index(s, t));
            put_tree_label(at_engine_anims(s, (uint32_t)i));
            printf(" animtree=");
            XAnim *at = at_engine_anim_tree(s, (uint32_t)i);
            if (at) put_tree_label(at);
            else printf("bad");
            putchar('\n');
        }
    }
    put_engine_log();
}

/* the engine's run-time reads of the current load's reference cells: the cell
 * as scr_anim_t {animIndex, treeIndex}, Scr_GetAnims(treeIndex) and the name
 * Scr_GetDebugString prints for it (XAnimGetAnimName of that tree) */
static void engine_get_anims(void)
{
    int32_t slot = xanim_activePoolPayloadSlot;
    for (size_t i = g_cellLoadStart; i < g_cellCount; ++i) {
        cellrec_t *c = &g_cells[i];
        scr_anim_t a;
        memcpy(&a, c->cell, sizeof(a));
        const char *lab = at_cell_label(c->cell);
        printf("getanims %s ", lab ? lab : "?");
        put_escaped(c->tree);
        printf(" %%");
        put_escaped(c->name);
        printf(" -> %u/%u ", (unsigned)a.treeIndex, (unsigned)a.animIndex);
        if (a.treeIndex >= AT_ANIM_TREE_SLOT_COUNT) { printf("out of range\n"); continue; }
        XAnim *t = at_engine_anims(slot, a.treeIndex);
        put_tree_label(t);
        if (tree_is_block(t)) {
            if (a.animIndex >= t->nodeCount) printf(" badindex");
            else { printf(" nm="); put_q(XAnimGetAnimName(t, a.animIndex)); }
        }
        putchar('\n');
    }
}

static int g_dropRecover; /* setup line "droprecover 1" */

/* ---------------------------------------------------------------- tokens */
enum { MAX_TOK = 64 };
static char *g_tok[MAX_TOK];
static int g_ntok;

static int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* splits on spaces/tabs; "\xHH" in a token is a byte; a lone "\e" token is the empty string */
static void tokenize(char *line)
{
    g_ntok = 0;
    char *p = line;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
        if (!*p) break;
        char *start = p, *o = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r') {
            if (p[0] == '\\' && p[1] == 'x' && hexval(p[2]) >= 0 && hexval(p[3]) >= 0) {
                *o++ = (char)(hexval(p[2]) * 16 + hexval(p[3]));
                p += 4;
            } else if (p[0] == '\\' && p[1] == 'e' && (p[2] == '\0' || p[2] == ' ' || p[2] == '\t')) {
                p += 2;
            } else {
                *o++ = *p++;
            }
        }
        if (*p) ++p;
        *o = '\0';
        if (g_ntok < MAX_TOK) g_tok[g_ntok++] = start;
    }
}

static at_long tok_long(int i)
{
    if (i >= g_ntok) fatal("missing argument %d", i);
    char *end;
    at_long v = at_strtol(g_tok[i], &end);
    if (*end) fatal("bad number '%s'", g_tok[i]);
    return v;
}

static const char *tok_str(int i)
{
    if (i >= g_ntok) fatal("missing argument %d", i);
    return g_tok[i];
}

static int tok_region(int i, int def)
{
    if (i >= g_ntok) return def;
    if (!strcmp(g_tok[i], "code")) return AT_REGION_CODE;
    if (!strcmp(g_tok[i], "dev")) return AT_REGION_DEV;
    if (!strcmp(g_tok[i], "c")) return AT_REGION_C;
    fatal("bad region '%s'", g_tok[i]);
    return def;
}

static XAnim *xtree(int i)
{
    at_long id = tok_long(i);
    if (id < 0 || id >= MAX_XTREES || !g_xtrees[id]) fatal("bad xtree id");
    return g_xtrees[id];
}

/* ---------------------------------------------------------------- ops */
static void op_dispatch(const char *op)
{
    if (!strcmp(op, "animcheck")) {
        SetAnimCheck((int32_t)tok_long(1));
    } else if (!strcmp(op, "slot")) {
        xanim_activePoolPayloadSlot = (int32_t)tok_long(1);
    } else if (!strcmp(op, "begin")) {
        g_regCount = 0;
        g_cellLoadStart = g_cellCount;
        g_usingTree[0] = '\0';
        Scr_BeginLoadAnimTrees();
    } else if (!strcmp(op, "file")) {
        /* Scr_LoadScript / ScriptCompile: per-file compiler state */
        script_animCurrentUsingTree = 0;
        script_activeAnimTreeHandle = 0;
        g_usingTree[0] = '\0';
    } else if (!strcmp(op, "using")) {
        const char *name = tok_str(1);
        if (Scr_IsIdentifier(name)) reg_note(name);
        Scr_UsingTree(name, (uint32_t)tok_long(2));
        at_canonical(name, g_usingTree, sizeof(g_usingTree));
        printf("using ");
        put_escaped(name);
        printf(" active=%d\n", script_activeAnimTreeHandle);
    } else if (!strcmp(op, "anim") || !strcmp(op, "animraw")) {
        const char *name = tok_str(1);
        uint32_t pos = (uint32_t)tok_long(2);
        int region = tok_region(3, AT_REGION_CODE);
        uint16_t h = !strcmp(op, "anim") ? SL_GetLowercaseString_(name, 0, 0) : SL_GetString_(name, 0, 0);
        char *cell = at_cell_new(region, 0xFFFFFFFFu); /* compiler's placeholder operand */
        cell_add(g_usingTree[0] ? g_usingTree : "-", SL_ConvertToString(h), region, cell);
        Scr_EmitAnimation(cell, h, pos);
    } else if (!strcmp(op, "animtree")) {
        printf("animtree -> %d\n", script_activeAnimTreeHandle);
        if (script_activeAnimTreeHandle == 0) /* what the compiler's EmitAnimTree does */
            CompileError((uint32_t)tok_long(1), "#using_animtree was not specified");
    } else if (!strcmp(op, "dev")) {
        script_animCommentDepth = (int32_t)tok_long(1);
    } else if (!strcmp(op, "findanim")) {
        const char *tree = tok_str(1);
        const char *name = tok_str(2);
        char canon[1024];
        reg_note(tree);
        at_canonical(tree, canon, sizeof(canon));
        char *cell = at_cell_new(AT_REGION_C, 0xEEEEEEEEu);
        cell_add(canon, name, AT_REGION_C, cell);
        Scr_FindAnim(tree, name, (scr_anim_t *)(void *)cell);
    } else if (!strcmp(op, "precache")) {
        Scr_PrecacheAnimTrees(tree_alloc); /* the engine's loop over Scr_LoadAnimTreeAtIndex */
        engine_view("precache");
    } else if (!strcmp(op, "loadindex")) {
        Scr_LoadAnimTreeAtIndex((int32_t)tok_long(1), tree_alloc);
    } else if (!strcmp(op, "findtree")) {
        const char *name = tok_str(1);
        XAnim *t = find_tree(name);
        printf("findtree ");
        put_escaped(name);
        if (t == NULL) printf(" -> NULL\n");
        else {
            int k = 0;
            for (int i = 0; i < g_regCount && !k; ++i)
                if (find_tree(g_reg[i]) == t) k = i + 1;
            if (k) printf(" -> tree %d\n", k);
            else printf(" -> unregistered\n");
        }
    } else if (!strcmp(op, "dump")) {
        dump_trees(0);
        dump_cells();
        printf("checksum 0x%08x\n", script_animTreeChecksum);
    } else if (!strcmp(op, "runtime")) {
        dump_trees(1);
    } else if (!strcmp(op, "cells")) {
        dump_cells();
    } else if (!strcmp(op, "checksum")) {
        printf("checksum 0x%08x\n", script_animTreeChecksum);
    } else if (!strcmp(op, "end")) {
        engine_view("end");
        Scr_EndLoadAnimTrees();
        printf("end zone=%ld\n", at_zoneOutstanding);
        put_engine_log();
    } else if (!strcmp(op, "engine")) {
        engine_view("op");
    } else if (!strcmp(op, "getanims")) {
        engine_get_anims();
    } else if (!strcmp(op, "getanimtree")) {
        /* run time of the int #animtree compiled to (default: the current one) */
        at_long h = g_ntok > 1 ? tok_long(1) : script_activeAnimTreeHandle;
        XAnim *t = at_engine_anim_tree(xanim_activePoolPayloadSlot, (uint32_t)h);
        printf("getanimtree %" AT_LD " -> ", AT_LONG_ARG(h));
        if (t) put_tree_label(t);
        else printf("bad anim tree");
        putchar('\n');
    } else if (!strcmp(op, "xalloc")) {
        at_long id = tok_long(1);
        if (id < 0 || id >= MAX_XTREES) fatal("bad xtree id");
        g_xtrees[id] = XAnimAllocTree(strdup(tok_str(2)), (uint32_t)tok_long(3), tree_alloc);
    } else if (!strcmp(op, "xleaf")) {
        XAnim *t = xtree(1);
        const char *name = tok_str(3);
        XAnimSetLeafNode(t, (uint16_t)tok_long(2), name);
        XAnimLoadFile(name, quiet_alloc); /* what precache would do for this leaf */
    } else if (!strcmp(op, "xparent")) {
        XAnimSetParentNode(xtree(1), (uint16_t)tok_long(2), "unused", (uint16_t)tok_long(3), (uint16_t)tok_long(4),
                           (uint16_t)tok_long(5));
    } else if (!strcmp(op, "xsync")) {
        XAnimSetupSyncNodes(xtree(1));
    } else if (!strcmp(op, "xsyncr")) {
        XAnimSetupSyncNodes_r(xtree(1), (uint32_t)tok_long(2));
    } else if (!strcmp(op, "xfill")) {
        XAnimFillInSyncNodes_r(xtree(1), (uint32_t)tok_long(2), (uint8_t)tok_long(3));
    } else if (!strcmp(op, "xdump")) {
        printf("xtree %" AT_LD, AT_LONG_ARG(tok_long(1)));
        dump_xanim(xtree(1));
    } else if (!strcmp(op, "xruntime")) {
        printf("xtree %" AT_LD "\n", AT_LONG_ARG(tok_long(1)));
        dump_runtime(xtree(1));
    } else {
        fatal("unknown op '%s'", op);
    }
}

static void put_error(const char *op)
{
    printf("error line=%d op=%s level=%d text=", g_line, op, at_error.level);
    put_q(at_error.text);
    putchar('\n');
    if (at_error.compileKind == 1) {
        printf("compile1 pos=%u text=", at_error.compilePos);
        put_q(at_error.compileText);
        putchar('\n');
    } else if (at_error.compileKind == 2) {
        char where[64];
        at_region_of(at_error.compileCodePos, where, sizeof(where));
        const char *lab = at_cell_label(at_error.compileCodePos);
        printf("compile2 at=%s cell=%s text=", where, lab ? lab : "-");
        put_q(at_error.compileText);
        putchar('\n');
    }
}

/* returns 0 normally, 1 when the op raised Com_Error */
static int run_op(char *opname)
{
    jmp_buf jb;
    at_error_clear();
    at_errJmp = &jb;
    if (setjmp(jb) != 0) {
        at_errJmp = NULL;
        fflush(stdout);
        put_error(opname);
        return 1;
    }
    op_dispatch(opname);
    at_errJmp = NULL;
    return 0;
}

/* droprecover 1: after a Com_Error the engine drops the level and frees the
 * scripts (Scr_FreeScripts: Scr_EndLoadAnimTrees when a load is active), then
 * the case goes on.  Returns 0 when the recovery itself raised Com_Error. */
static int drop_recover(void)
{
    jmp_buf jb;
    at_error_clear();
    at_errJmp = &jb;
    if (setjmp(jb) != 0) {
        at_errJmp = NULL;
        fflush(stdout);
        put_error("freescripts");
        return 0;
    }
    engine_view("drop");
    int ran = at_engine_free_scripts();
    printf("freescripts end=%d zone=%ld\n", ran, at_zoneOutstanding);
    put_engine_log();
    at_errJmp = NULL;
    return 1;
}

/* ---------------------------------------------------------------- setup ops */
static void add_atr_dir(const char *rel)
{
    DIR *d = opendir(root_path(rel));
    if (!d) fatal("cannot open %s", rel);
    char **names = NULL;
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 4 && !strcmp(e->d_name + l - 4, ".atr")) {
            names = realloc(names, (n + 1) * sizeof(*names));
            names[n++] = strdup(e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof(*names), cmp_str);
    for (size_t i = 0; i < n; ++i) {
        char rp[2048], vp[2048];
        size_t size;
        snprintf(rp, sizeof(rp), "%s/%s", rel, names[i]);
        char *data = read_file(root_path(rp), &size);
        if (!data) fatal("cannot read %s", rp);
        snprintf(vp, sizeof(vp), "animtrees/%s", names[i]);
        at_fs_add(vp, data, size);
        free(data);
        free(names[i]);
    }
    free(names);
}

static void load_looped_list(const char *rel)
{
    size_t size;
    char *data = read_file(root_path(rel), &size);
    if (!data) fatal("cannot read %s", rel);
    for (char *l = strtok(data, "\n"); l; l = strtok(NULL, "\n"))
        if (l[0] && l[0] != '#') at_xanim_auto_looped_add(l);
    free(data);
}

static void note_nt(const char *name)
{
    for (int i = 0; i < g_ntCount; ++i)
        if (!strcmp(g_ntNames[i], name)) return;
    g_ntNames = realloc(g_ntNames, (size_t)(g_ntCount + 1) * sizeof(char *));
    g_ntNames[g_ntCount++] = strdup(name);
}

/* `atrx NAME RELPATH PIECE...` + literal blob + newline: the file animtrees/NAME
   assembled from pieces of the file RELPATH: `=OFF+LEN` copies LEN bytes of it
   from OFF, `~OFF+LEN` the same from it with every LF turned into CR LF, `+LEN`
   takes the next LEN bytes of the blob.  `line` is the untokenized line; *pp
   points at the blob and is moved past it and its newline.  The block counts
   the case lines the equivalent `atr NAME LEN` block would. */
static void add_atr_pieces(const char *line, char **pp, char *endp)
{
    char name[1024], rel[2048];
    int used = 0;
    if (sscanf(line, "atrx %1023s %2047s %n", name, rel, &used) != 2 || !used) fatal("atrx NAME RELPATH PIECE...");
    size_t srcSize;
    char *src = read_file(root_path(rel), &srcSize);
    if (!src) fatal("cannot read %s", rel);
    char *crlf = NULL;
    size_t crlfSize = 0;
    const char *q = line + used;
    at_long literal = 0;
    for (const char *t = q; *t;) {
        while (*t == ' ' || *t == '\t' || *t == '\r') ++t;
        if (*t == '+') literal += strtol(t + 1, NULL, 10);
        while (*t && *t != ' ' && *t != '\t' && *t != '\r') ++t;
    }
    char *blob = *pp;
    if (literal < 0 || blob + literal > endp) fatal("atrx blob overruns the case file");
    char *out = malloc(1);
    size_t size = 0;
    at_long lit = 0;
    while (*q) {
        while (*q == ' ' || *q == '\t' || *q == '\r') ++q;
        if (!*q) break;
        char kind = *q;
        char *end;
        const char *from;
        long n;
        if (kind == '+') {
            n = strtol(q + 1, &end, 10);
            from = blob + lit;
            lit += n;
        } else if (kind == '=' || kind == '~') {
            long off = strtol(q + 1, &end, 10);
            if (*end != '+') fatal("atrx piece is not OFF+LEN");
            n = strtol(end + 1, &end, 10);
            if (kind == '~' && !crlf) {
                crlf = malloc(srcSize * 2 + 1);
                for (size_t j = 0; j < srcSize; ++j) {
                    if (src[j] == '\n') crlf[crlfSize++] = '\r';
                    crlf[crlfSize++] = src[j];
                }
            }
            size_t limit = kind == '=' ? srcSize : crlfSize;
            if (off < 0 || n < 0 || (size_t)off + (size_t)n > limit) fatal("atrx piece outside %s", rel);
            from = (kind == '=' ? src : crlf) + off;
        } else {
            fatal("atrx piece is not =OFF+LEN, ~OFF+LEN or +LEN");
        }
        if (n < 0 || (*end && *end != ' ' && *end != '\t' && *end != '\r')) fatal("bad atrx piece");
        out = realloc(out, size + (size_t)n + 1);
        memcpy(out + size, from, (size_t)n);
        size += (size_t)n;
        q = end;
    }
    char vp[2048];
    snprintf(vp, sizeof(vp), "animtrees/%s", name);
    at_fs_add(vp, out, size);
    for (size_t i = 0; i < size; ++i) if (out[i] == '\n') g_line++;
    *pp = blob + literal;
    if (*pp < endp && **pp == '\n') ++*pp;
    g_line++;
    free(out);
    free(crlf);
    free(src);
}

#if defined(_WIN32)
/* Windows (mingw-w64, also under Wine): the dump is written in binary mode (no
 * CRLF); a crash of the library ends the process with 128 + the Linux signal
 * number (SIGILL 4, SIGBUS 7, SIGFPE 8, SIGSEGV 11, else SIGABRT 6), the exit
 * status a shell reports for the Linux build, instead of the exception code or
 * Wine's crash dialog / debugger. */
#define WIN32_LEAN_AND_MEAN
#include <fcntl.h>
#include <io.h>
#include <windows.h>

static LONG WINAPI on_exception(EXCEPTION_POINTERS *info)
{
    DWORD code = info->ExceptionRecord->ExceptionCode;
    int sig = 6;
    switch (code) {
    case EXCEPTION_ACCESS_VIOLATION: case EXCEPTION_STACK_OVERFLOW: case EXCEPTION_ARRAY_BOUNDS_EXCEEDED:
    case EXCEPTION_GUARD_PAGE:
        sig = 11; break;
    case EXCEPTION_DATATYPE_MISALIGNMENT: case EXCEPTION_IN_PAGE_ERROR:
        sig = 7; break;
    case EXCEPTION_ILLEGAL_INSTRUCTION: case EXCEPTION_PRIV_INSTRUCTION:
        sig = 4; break;
    case EXCEPTION_INT_DIVIDE_BY_ZERO: case EXCEPTION_INT_OVERFLOW: case EXCEPTION_FLT_DENORMAL_OPERAND:
    case EXCEPTION_FLT_DIVIDE_BY_ZERO: case EXCEPTION_FLT_INEXACT_RESULT: case EXCEPTION_FLT_INVALID_OPERATION:
    case EXCEPTION_FLT_OVERFLOW: case EXCEPTION_FLT_STACK_CHECK: case EXCEPTION_FLT_UNDERFLOW:
        sig = 8; break;
    default: break;
    }
    fprintf(stderr, "at_driver: crashed: exception 0x%08lx (signal %d)\n", (unsigned long)code, sig);
    _exit(128 + sig);
    return EXCEPTION_CONTINUE_SEARCH;
}

static void on_abort(int sig)
{
    (void)sig;
    fprintf(stderr, "at_driver: crashed: abort (signal 6)\n");
    _exit(128 + 6);
}

static void platform_init(void)
{
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    SetUnhandledExceptionFilter(on_exception);
    signal(SIGABRT, on_abort);
}
#else
static void platform_init(void) {}
#endif

int main(int argc, char **argv)
{
    int ai = 1;
    platform_init();
    if (argc >= 3 && !strcmp(argv[1], "-R")) { g_root = argv[2]; ai = 3; }
    if (ai >= argc) { fprintf(stderr, "usage: at_driver [-R ROOTDIR] CASEFILE\n"); return 2; }
    at_engine_fp_init(); /* client flavour: x87 PC=53, as the client engine at start-up */
    g_caseName = argv[ai];
    setvbuf(stdout, NULL, _IOFBF, 1 << 16);
    size_t size;
    char *text = read_file(argv[ai], &size);
    if (!text) { fprintf(stderr, "at_driver: cannot read %s\n", argv[ai]); return 2; }

    char *p = text, *endp = text + size;
    while (p < endp) {
        g_line++;
        char *nl = memchr(p, '\n', (size_t)(endp - p));
        char *lineEnd = nl ? nl : endp;
        size_t len = (size_t)(lineEnd - p);
        char *line = malloc(len + 1);
        memcpy(line, p, len);
        line[len] = '\0';
        p = nl ? nl + 1 : endp;
        if (!strncmp(line, "atrx ", 5)) { add_atr_pieces(line, &p, endp); free(line); continue; }
        tokenize(line);
        if (g_ntok == 0 || g_tok[0][0] == '#') { free(line); continue; }
        const char *op = g_tok[0];
        if (!strcmp(op, "atr")) {
            /* atr NAME LEN, then LEN raw bytes, then a newline */
            at_long n = tok_long(2);
            if (n < 0 || p + n > endp) fatal("atr block overruns the case file");
            char vp[2048];
            snprintf(vp, sizeof(vp), "animtrees/%s", tok_str(1));
            at_fs_add(vp, p, (size_t)n);
            for (at_long i = 0; i < n; ++i) if (p[i] == '\n') g_line++;
            p += n;
            if (p < endp && *p == '\n') p++;
            g_line++;
        } else if (!strcmp(op, "atrfile")) {
            char vp[2048];
            char *data = read_file(root_path(tok_str(2)), &size);
            if (!data) fatal("cannot read %s", tok_str(2));
            snprintf(vp, sizeof(vp), "animtrees/%s", tok_str(1));
            at_fs_add(vp, data, size);
            free(data);
        } else if (!strcmp(op, "atrdir")) {
            add_atr_dir(tok_str(1));
        } else if (!strcmp(op, "droprecover")) {
            g_dropRecover = (int)tok_long(1);
        } else if (!strcmp(op, "atrrecords")) {
            at_fs_set_atr_records((int)tok_long(1));
        } else if (!strcmp(op, "xanim")) {
            const char *nts[MAX_TOK];
            int nnt = 0;
            for (int i = 5; i < g_ntok; ++i) { nts[nnt++] = g_tok[i]; note_nt(g_tok[i]); }
            if (nnt) { g_haveNoteTracks = 1; note_nt("end"); }
            at_xanim_add(tok_str(1), (uint8_t)tok_long(2), (uint16_t)tok_long(3), strtof(tok_str(4), NULL), nts, nnt);
        } else if (!strcmp(op, "xanimauto")) {
            at_xanim_set_auto(1);
            if (strcmp(tok_str(1), "-") != 0) load_looped_list(tok_str(1));
        } else {
            char opname[64];
            snprintf(opname, sizeof(opname), "%s", op);
            if (run_op(opname)) {
                if (g_dropRecover && drop_recover()) { free(line); continue; }
                if (at_console()[0]) { printf("console "); put_q(at_console()); putchar('\n'); }
                fflush(stdout);
                return 0;
            }
        }
        free(line);
    }
    if (at_console()[0]) { printf("console "); put_q(at_console()); putchar('\n'); }
    printf("done\n");
    fflush(stdout);
    return 0;
}
