/* driver.c -- pa instrument: runs one case file against the player
 * animation-script module through its public C ABI and prints the canonical
 * dump (PROTOCOL.md) on stdout.
 *
 *   pa_driver [--data DIR] CASEFILE
 *
 * DIR holds the shared data files the case may include (run.sh passes the
 * instrument's stock/ directory; the default is ../stock next to the case's
 * directory).  Exit status: 0 when the case ran (also when
 * the module raised Com_Error), 2 for a malformed or excluded case file.
 */
#if defined(_WIN32) && !defined(__USE_MINGW_ANSI_STDIO)
/* mingw-w64: the C99 printf/scanf family (%zu, %lld, %a) instead of msvcrt's */
#define __USE_MINGW_ANSI_STDIO 1
#endif
#include "stubs.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if !defined(_WIN32)
#include <unistd.h>
#endif

/* ======================= small utilities ================================ */
static void die(const char *format, ...)
{
    va_list args;

    fflush(stdout);
    fprintf(stderr, "pa_driver: ");
    va_start(args, format);
    vfprintf(stderr, format, args);
    va_end(args);
    fprintf(stderr, "\n");
    exit(2);
}

static unsigned char *read_file(const char *path, long *lengthOut)
{
    FILE *f = fopen(path, "rb");
    unsigned char *data;
    long length;

    if (f == NULL) {
        die("cannot open %s: %s", path, strerror(errno));
    }
    if (fseek(f, 0, SEEK_END) != 0 || (length = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        die("cannot size %s", path);
    }
    data = (unsigned char *)malloc((size_t)length + 1);
    if (data == NULL || fread(data, 1, (size_t)length, f) != (size_t)length) {
        die("cannot read %s", path);
    }
    data[length] = 0;
    fclose(f);
    *lengthOut = length;
    return data;
}

static size_t decode_word(const char *in, char *out, size_t outSize)
{
    size_t n = pad_decode_word(in, out, outSize);

    if (n == (size_t)-1) {
        die("bad word '%s'", in);
    }
    return n;
}

static int64_t parse_int(const char *text)
{
    char *end;
    long long v;

    const char *digits = text + (text[0] == '-' || text[0] == '+');
    int base = (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) ? 16 : 10;

    errno = 0;
    v = strtoll(text, &end, base); /* decimal, or 0x hex (never octal) */
    if (errno || *end || end == text || v < -2147483648LL || v > 4294967295LL) {
        die("bad integer '%s'", text);
    }
    return v;
}

static int32_t parse_i32(const char *text)
{
    return (int32_t)(uint32_t)parse_int(text);
}

static float parse_float(const char *text)
{
    char *end;
    float v = strtof(text, &end);

    if (*end || end == text) {
        die("bad float '%s'", text);
    }
    return v;
}

/* CRC-32 (IEEE) over a canonical serialisation */
static uint32_t crcTable[256];

static void crc_init(void)
{
    uint32_t i, k, c;

    for (i = 0; i < 256; ++i) {
        c = i;
        for (k = 0; k < 8; ++k) {
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        }
        crcTable[i] = c;
    }
}

static uint32_t crc_bytes(uint32_t crc, const void *data, size_t length)
{
    const unsigned char *p = (const unsigned char *)data;

    crc = ~crc;
    while (length--) {
        crc = crcTable[(crc ^ *p++) & 0xff] ^ (crc >> 8);
    }
    return ~crc;
}

static uint32_t crc_u32(uint32_t crc, uint32_t value)
{
    unsigned char b[4] = {(unsigned char)value, (unsigned char)(value >> 8), (unsigned char)(value >> 16), (unsigned char)(value >> 24)};

    return crc_bytes(crc, b, 4);
}

/* snprintf-append that never runs past the buffer (output is cut at size-1) */
static void appendf(char *buffer, size_t size, size_t *used, const char *format, ...)
{
    va_list args;
    int n;

    if (*used >= size - 1) {
        return;
    }
    va_start(args, format);
    n = vsnprintf(buffer + *used, size - *used, format, args);
    va_end(args);
    if (n > 0) {
        *used += (size_t)n;
        if (*used > size - 1) {
            *used = size - 1;
        }
    }
}

/* ======================= case state ===================================== */
enum { PHASE_PASS1 = 1, PHASE_FULL = 2 };

static const char *dataDir;
static int phase = PHASE_FULL;
static char weaponNames[PAD_MAX_WEAPONS][PAD_NODE_NAME_BYTES];
static int weaponCount;
static unsigned char *script;
static long scriptLength;
static int haveScript;
static unsigned char *dataScript; /* the data file as `script-file` read it */
static long dataScriptLength;
static int fileMissing;

typedef struct query {
    int line;
    char *text;
} query;
static query *queries;
static int queryCount;

static pam_runtime runtimeAnims[PAM_MAX_ENTRIES];
static int32_t runtimeCount;
static pam_player_state ps;
static pam_player_state psShadow;
static uint32_t wordShadow[PAM_MAX_CLIENTS][PAM_COND_COUNT][PAM_COND_WORDS];

#define MAX_WORDS 4096
static int split_words(char *line, char **words)
{
    int n = 0;
    char *p = line;

    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\r') {
            *p++ = 0;
        }
        if (!*p) {
            break;
        }
        if (n == MAX_WORDS) {
            die("too many words on a line");
        }
        words[n++] = p;
        while (*p && *p != ' ' && *p != '\t' && *p != '\r') {
            p++;
        }
    }
    return n;
}

static void set_script_from_data(const char *name)
{
    char path[4096];

    if (dataDir == NULL) {
        die("'%s' needs --data", name);
    }
    snprintf(path, sizeof(path), "%s/%s", dataDir, name);
    free(script);
    script = read_file(path, &scriptLength);
    haveScript = 1;
    free(dataScript);
    dataScript = (unsigned char *)malloc((size_t)scriptLength + 1);
    memcpy(dataScript, script, (size_t)scriptLength + 1);
    dataScriptLength = scriptLength;
}

/* The bytes a `patchx` piece list stands for: `=OFF+LEN` copies LEN bytes of
   the data file named by `script-file` from OFF, `~OFF+LEN` the same from that
   file with every LF turned into CR LF, `+LEN` takes the next LEN bytes of the
   literal blob.  Returns the assembled bytes (length in *lengthOut). */
static unsigned char *assemble_pieces(char **pieces, int count, const unsigned char *literal, long literalLength, long *lengthOut)
{
    unsigned char *crlf = NULL, *out = NULL;
    long crlfLength = 0, length = 0, used = 0;
    int i;

    if (dataScript == NULL) {
        die("patchx needs script-file first");
    }
    for (i = 0; i < count; i++) {
        char kind = pieces[i][0];
        long offset = 0, n;
        const unsigned char *source;
        long sourceLength;

        if (kind == '+') {
            n = (long)parse_int(pieces[i] + 1);
            if (n < 0 || used + n > literalLength) {
                die("patchx literal piece overruns the blob");
            }
            source = literal + used;
            used += n;
        } else if (kind == '=' || kind == '~') {
            char *plus = strchr(pieces[i] + 1, '+');
            if (plus == NULL) {
                die("patchx piece '%s' is not OFF+LEN", pieces[i]);
            }
            *plus = 0;
            offset = (long)parse_int(pieces[i] + 1);
            n = (long)parse_int(plus + 1);
            if (kind == '~' && crlf == NULL) {
                long j;
                crlf = (unsigned char *)malloc((size_t)dataScriptLength * 2 + 1);
                for (j = 0; j < dataScriptLength; j++) {
                    if (dataScript[j] == '\n') {
                        crlf[crlfLength++] = '\r';
                    }
                    crlf[crlfLength++] = dataScript[j];
                }
            }
            sourceLength = kind == '=' ? dataScriptLength : crlfLength;
            if (offset < 0 || n < 0 || offset + n > sourceLength) {
                die("patchx piece outside the data file");
            }
            source = (kind == '=' ? dataScript : crlf) + offset;
        } else {
            die("patchx piece '%s' is not =OFF+LEN, ~OFF+LEN or +LEN", pieces[i]);
        }
        out = (unsigned char *)realloc(out, (size_t)(length + n) + 1);
        memcpy(out + length, source, (size_t)n);
        length += n;
    }
    if (used != literalLength) {
        die("patchx blob has %ld bytes the pieces do not use", literalLength - used);
    }
    free(crlf);
    if (out == NULL) {
        out = (unsigned char *)malloc(1);
    }
    *lengthOut = length;
    return out;
}

static void apply_patch(long offset, long deleteLength, const unsigned char *insert, long insertLength)
{
    unsigned char *next;

    if (!haveScript || offset < 0 || deleteLength < 0 || offset + deleteLength > scriptLength) {
        die("patch outside the script");
    }
    next = (unsigned char *)malloc((size_t)(scriptLength - deleteLength + insertLength) + 1);
    memcpy(next, script, (size_t)offset);
    memcpy(next + offset, insert, (size_t)insertLength);
    memcpy(next + offset + insertLength, script + offset + deleteLength, (size_t)(scriptLength - offset - deleteLength));
    scriptLength = scriptLength - deleteLength + insertLength;
    next[scriptLength] = 0;
    free(script);
    script = next;
}

static void parse_case(unsigned char *data, long length, int allowBlobs, int allowQueries, const char *fileName);

/* One setup directive (PROTOCOL.md "Case file").  Returns 0 if the verb is
 * not a setup directive. */
static int setup_directive(char **w, int n, const char *fileName)
{
    static char name[PAD_NODE_NAME_BYTES * 4];

    if (strcmp(w[0], "weapon") == 0 && n == 2) {
        if (weaponCount >= PAD_MAX_WEAPONS) {
            die("excluded input: more than %d weapons", PAD_MAX_WEAPONS);
        }
        if (decode_word(w[1], name, sizeof(name)) >= PAD_NODE_NAME_BYTES) {
            die("weapon name too long");
        }
        memcpy(weaponNames[weaponCount++], name, PAD_NODE_NAME_BYTES);
    } else if (strcmp(w[0], "node") == 0 && n == 8) {
        int32_t length = parse_i32(w[4]);
        if (pad_tree_count() >= PAD_MAX_NODES) {
            die("excluded input: more than %d tree nodes", PAD_MAX_NODES);
        }
        if (length < 0) {
            die("excluded input: negative animation length");
        }
        if (decode_word(w[1], name, sizeof(name)) >= PAD_NODE_NAME_BYTES) {
            die("node name too long");
        }
        pad_tree_add(name, parse_i32(w[2]) != 0, parse_i32(w[3]) != 0, length, parse_float(w[5]), parse_float(w[6]), parse_float(w[7]));
    } else if (strcmp(w[0], "synth") == 0 && n == 2) {
        if (pad_tree_count() >= PAD_MAX_NODES) {
            die("excluded input: more than %d tree nodes", PAD_MAX_NODES);
        }
        if (decode_word(w[1], name, sizeof(name)) >= PAD_NODE_NAME_BYTES) {
            die("node name too long");
        }
        pad_tree_add_synthetic(name);
    } else if (strcmp(w[0], "tree-index") == 0 && n == 2) {
        pad_tree_index = (uint32_t)parse_int(w[1]);
    } else if (strcmp(w[0], "append") == 0 && n == 2) {
        pad_tree_append = strcmp(w[1], "on") == 0;
    } else if (strcmp(w[0], "tree-missing") == 0 && n == 1) {
        pad_tree_missing = 1;
    } else if (strcmp(w[0], "file-missing") == 0 && n == 1) {
        fileMissing = 1;
    } else if (strcmp(w[0], "alias-null") == 0 && n == 2) {
        decode_word(w[1], name, sizeof(name));
        pad_alias_null_add(name);
    } else if (strcmp(w[0], "phase") == 0 && n == 2) {
        if (strcmp(w[1], "pass1") == 0) {
            phase = PHASE_PASS1;
        } else if (strcmp(w[1], "full") == 0) {
            phase = PHASE_FULL;
        } else {
            die("bad phase");
        }
    } else if (strcmp(w[0], "script-file") == 0 && n == 2) {
        decode_word(w[1], name, sizeof(name));
        if (strstr(name, "..") || name[0] == '/') {
            die("script-file must name a file inside the data directory");
        }
        set_script_from_data(name);
    } else if (strcmp(w[0], "include") == 0 && n == 2) {
        char path[4096];
        long length;
        unsigned char *text;

        decode_word(w[1], name, sizeof(name));
        if (dataDir == NULL || strstr(name, "..") || name[0] == '/') {
            die("bad include '%s'", name);
        }
        snprintf(path, sizeof(path), "%s/%s", dataDir, name);
        text = read_file(path, &length);
        parse_case(text, length, 0, 0, path);
        free(text);
    } else {
        return 0;
    }
    (void)fileName;
    return 1;
}

static void parse_case(unsigned char *data, long length, int allowBlobs, int allowQueries, const char *fileName)
{
    long pos = 0;
    int lineNo = 0;
    static char *w[MAX_WORDS];

    while (pos < length) {
        long end = pos;
        char *line, *copy;
        int n;

        while (end < length && data[end] != '\n') {
            end++;
        }
        lineNo++;
        line = (char *)malloc((size_t)(end - pos) + 1);
        memcpy(line, data + pos, (size_t)(end - pos));
        line[end - pos] = 0;
        copy = (char *)malloc((size_t)(end - pos) + 1);
        strcpy(copy, line);
        pos = end + 1;
        n = split_words(line, w);
        if (n == 0 || w[0][0] == '#') {
            /* blank line or comment */
        } else if (strcmp(w[0], "pa-case") == 0) {
            if (n != 2 || strcmp(w[1], "1") != 0) {
                die("%s:%d: unsupported case version", fileName, lineNo);
            }
        } else if (allowBlobs && (strcmp(w[0], "script") == 0 || strcmp(w[0], "patch") == 0 || strcmp(w[0], "patchx") == 0)) {
            int isScript = strcmp(w[0], "script") == 0;
            int isPieces = strcmp(w[0], "patchx") == 0;
            long blobLength = 0;
            int k;

            if (queryCount) {
                die("%s:%d: setup after the first query", fileName, lineNo);
            }
            if (isPieces ? n < 3 : n != (isScript ? 2 : 4)) {
                die("%s:%d: script <bytes> | patch <offset> <delete> <insert> | patchx <offset> <delete> <piece>...", fileName, lineNo);
            }
            if (isPieces) {
                for (k = 3; k < n; k++) {
                    if (w[k][0] == '+') {
                        blobLength += (long)parse_int(w[k] + 1);
                    }
                }
            } else {
                blobLength = (long)parse_int(w[isScript ? 1 : 3]);
            }
            /* the blob is followed by a newline (or the end of the file) */
            if (blobLength < 0 || pos + blobLength > length || (pos + blobLength < length && data[pos + blobLength] != '\n')) {
                die("%s:%d: blob length does not match", fileName, lineNo);
            }
            if (isScript) {
                free(script);
                script = (unsigned char *)malloc((size_t)blobLength + 1);
                memcpy(script, data + pos, (size_t)blobLength);
                script[blobLength] = 0;
                scriptLength = blobLength;
                haveScript = 1;
            } else if (isPieces) {
                long insertLength;
                unsigned char *insert = assemble_pieces(w + 3, n - 3, data + pos, blobLength, &insertLength);
                apply_patch((long)parse_int(w[1]), (long)parse_int(w[2]), insert, insertLength);
                free(insert);
            } else {
                apply_patch((long)parse_int(w[1]), (long)parse_int(w[2]), data + pos, blobLength);
            }
            pos += blobLength + 1;
            lineNo++; /* the blob counts as one line in messages */
        } else if (setup_directive(w, n, fileName)) {
            if (queryCount) {
                die("%s:%d: setup after the first query", fileName, lineNo);
            }
        } else if (allowQueries) {
            queries = (query *)realloc(queries, (size_t)(queryCount + 1) * sizeof(query));
            queries[queryCount].line = lineNo;
            queries[queryCount].text = copy;
            copy = NULL;
            queryCount++;
        } else {
            die("%s:%d: unknown directive '%s'", fileName, lineNo, w[0]);
        }
        free(copy);
        free(line);
    }
}

/* ======================= protected calls ================================ */
/* Runs fn(ctx) with Com_Error captured; returns 1 if Com_Error was raised. */
static int protected_call(void (*fn)(void *), void *ctx)
{
    jmp_buf env;

    pad_error_jmp = &env;
    if (setjmp(env) == 0) {
        fn(ctx);
        pad_error_jmp = NULL;
        return 0;
    }
    pad_error_jmp = NULL;
    return 1;
}

/* ======================= dump =========================================== */
static const char *name64(const char *buffer)
{
    static char out[4][PAM_NAME_BYTES * 4 + 16];
    static int next;
    char *o = out[next];
    size_t n = 0;

    next = (next + 1) & 3;
    while (n < PAM_NAME_BYTES && buffer[n]) {
        n++;
    }
    pad_escape(o, sizeof(out[0]) - 8, buffer, n);
    if (n == PAM_NAME_BYTES) {
        strcat(o, "!nonul");
    }
    return o;
}

/* rotating buffers: up to 16 results may be used in one output line */
static const char *anim_str(pam_scr_anim a)
{
    static char out[16][32];
    static int next;
    char *o = out[next];

    next = (next + 1) & 15;
    snprintf(o, sizeof(out[0]), "%u:%u", (unsigned)a.treeIndex, (unsigned)a.animIndex);
    return o;
}

static uint32_t anim_u32(pam_scr_anim a)
{
    return (uint32_t)a.animIndex | ((uint32_t)a.treeIndex << 16);
}

static int item_index(const pam_script *p)
{
    const pam_script *base = bgs.animationTable.globalItems;

    if (p == NULL) {
        return -1;
    }
    if (p >= base && p < base + PAM_MAX_ITEMS && ((const char *)p - (const char *)base) % (long)sizeof(pam_script) == 0) {
        return (int)(p - base);
    }
    return -2;
}

static uint32_t norm_script(const pam_script *p)
{
    int i = item_index(p);

    return i == -1 ? 0u : i == -2 ? 0xffffffffu : (uint32_t)i + 1u;
}

static uint32_t norm_alias(const char *p)
{
    int id = pad_alias_id(p);

    return id < 0 ? 0xffffffffu : (uint32_t)id;
}

static uint32_t norm_tree(const pam_xanim *p)
{
    return p == NULL ? 0u : p == pad_fake_tree() ? 1u : 0xffffffffu;
}

static const char *tree_str(const pam_xanim *p)
{
    return p == NULL ? "null" : p == pad_fake_tree() ? "tree" : "other";
}

static uint32_t norm_fn(const void *p, const void *expected)
{
    return p == NULL ? 0u : p == expected ? 1u : 0xffffffffu;
}

static uint32_t crc_entry(uint32_t crc, const pam_entry *e)
{
    crc = crc_bytes(crc, e->name, PAM_NAME_BYTES);
    crc = crc_u32(crc, (uint32_t)e->blendTime);
    crc = crc_u32(crc, (uint32_t)e->moveSpeed);
    crc = crc_u32(crc, (uint32_t)e->duration);
    crc = crc_u32(crc, (uint32_t)e->hash);
    crc = crc_u32(crc, e->flags);
    crc = crc_u32(crc, e->stateFlags);
    return crc_u32(crc, (uint32_t)e->usedByScript);
}

static uint32_t crc_list(uint32_t crc, const pam_list *l)
{
    int i;

    crc = crc_u32(crc, (uint32_t)l->count);
    for (i = 0; i < PAM_MAX_LIST; ++i) {
        crc = crc_u32(crc, norm_script(l->scripts[i]));
    }
    return crc;
}

static uint32_t crc_script(uint32_t crc, const pam_script *s)
{
    int i, k;

    crc = crc_u32(crc, (uint32_t)s->conditionCount);
    for (i = 0; i < PAM_MAX_CONDITIONS; ++i) {
        crc = crc_u32(crc, (uint32_t)s->conditions[i].type);
        crc = crc_u32(crc, (uint32_t)s->conditions[i].value[0]);
        crc = crc_u32(crc, (uint32_t)s->conditions[i].value[1]);
    }
    crc = crc_u32(crc, (uint32_t)s->commandCount);
    for (i = 0; i < PAM_MAX_COMMANDS; ++i) {
        const pam_command *c = &s->commands[i];
        for (k = 0; k < 2; ++k) {
            crc = crc_u32(crc, (uint32_t)(int32_t)c->bodyPart[k]);
            crc = crc_u32(crc, (uint32_t)(int32_t)c->animIndex[k]);
            crc = crc_u32(crc, (uint32_t)(int32_t)c->duration[k]);
        }
        crc = crc_u32(crc, norm_alias(c->soundAliasName));
    }
    return crc;
}

static void for_each_list(void (*fn)(const char *kind, int a, int b, const pam_list *l, void *ctx), void *ctx)
{
    const pam_table *t = &bgs.animationTable;
    int a, b;

    for (a = 0; a < PAM_STATE_COUNT; ++a) {
        for (b = 0; b < PAM_MOVE_COUNT; ++b) {
            fn("a", a, b, &t->animations[a][b], ctx);
        }
    }
    for (a = 0; a < PAM_STATE_COUNT; ++a) {
        for (b = 0; b < PAM_MOVE_COUNT; ++b) {
            fn("c", a, b, &t->canned[a][b], ctx);
        }
    }
    for (a = 0; a < PAM_STATE_COUNT; ++a) {
        for (b = 0; b < PAM_STATE_COUNT; ++b) {
            fn("s", a, b, &t->statechanges[a][b], ctx);
        }
    }
    for (a = 0; a < PAM_EVENT_COUNT; ++a) {
        fn("e", a, -1, a < PAM_EVENT_LIST_SPLIT ? &t->events[a] : &t->scriptLists[a - PAM_EVENT_LIST_SPLIT], ctx);
    }
}

static void list_crc_fn(const char *kind, int a, int b, const pam_list *l, void *ctx)
{
    (void)kind;
    (void)a;
    (void)b;
    *(uint32_t *)ctx = crc_list(*(uint32_t *)ctx, l);
}

static void list_print_fn(const char *kind, int a, int b, const pam_list *l, void *ctx)
{
    static char text[PAM_MAX_LIST * 12 + 64];
    size_t used = 0;
    int i, count = l->count;

    if (count == 0) {
        return;
    }
    ++*(int *)ctx;
    if (b >= 0) {
        appendf(text, sizeof(text), &used, "L %s %d %d %d:", kind, a, b, count);
    } else {
        appendf(text, sizeof(text), &used, "L %s %d %d:", kind, a, count);
    }
    if (count < 0 || count > PAM_MAX_LIST) {
        count = count < 0 ? 0 : PAM_MAX_LIST;
    }
    for (i = 0; i < count; ++i) {
        int idx = item_index(l->scripts[i]);
        if (idx >= 0) {
            appendf(text, sizeof(text), &used, " %d", idx);
        } else {
            appendf(text, sizeof(text), &used, " %s", idx == -1 ? "null" : "?");
        }
    }
    pad_out("%s", text);
}

static void print_script(int index, const pam_script *s)
{
    /* 11 conditions and 8 commands whose escaped alias may reach 4 KiB each */
    static char text[65536];
    size_t used = 0;
    int i, n;

    appendf(text, sizeof(text), &used, "s %d %d", index, s->conditionCount);
    n = s->conditionCount < 0 ? 0 : s->conditionCount > PAM_MAX_CONDITIONS ? PAM_MAX_CONDITIONS : s->conditionCount;
    for (i = 0; i < n; ++i) {
        const pam_condition *c = &s->conditions[i];
        appendf(text, sizeof(text), &used, " %d:%x:%x", c->type, (unsigned)c->value[0], (unsigned)c->value[1]);
    }
    appendf(text, sizeof(text), &used, " | %d", s->commandCount);
    n = s->commandCount < 0 ? 0 : s->commandCount > PAM_MAX_COMMANDS ? PAM_MAX_COMMANDS : s->commandCount;
    for (i = 0; i < n; ++i) {
        const pam_command *c = &s->commands[i];
        int id = pad_alias_id(c->soundAliasName);
        appendf(text, sizeof(text), &used, " [%d,%d %d,%d %d,%d ", c->bodyPart[0], c->bodyPart[1], c->animIndex[0], c->animIndex[1],
                c->duration[0], c->duration[1]);
        if (id == 0) {
            appendf(text, sizeof(text), &used, "-]");
        } else if (id > 0) {
            appendf(text, sizeof(text), &used, "\"%s\"]", pad_esc(c->soundAliasName));
        } else {
            appendf(text, sizeof(text), &used, "!foreign]");
        }
    }
    pad_out("%s", text);
}

typedef struct state_crc {
    uint32_t entries, lists, items, misc, runtime;
} state_crc;

static void compute_crcs(state_crc *c)
{
    const pam_table *t = &bgs.animationTable;
    int i;

    memset(c, 0, sizeof(*c));
    for (i = 0; i < PAM_MAX_ENTRIES; ++i) {
        c->runtime = crc_u32(c->runtime, anim_u32(runtimeAnims[i].anim));
        c->runtime = crc_u32(c->runtime, (uint32_t)runtimeAnims[i].hash);
        c->runtime = crc_bytes(c->runtime, runtimeAnims[i].name, PAM_NAME_BYTES);
    }
    c->runtime = crc_u32(c->runtime, (uint32_t)runtimeCount);
    for (i = 0; i < PAM_MAX_ENTRIES; ++i) {
        c->entries = crc_entry(c->entries, &t->entries[i]);
    }
    for (i = 0; i < PAM_MAX_ITEMS; ++i) {
        c->items = crc_script(c->items, &t->globalItems[i]);
    }
    for_each_list(list_crc_fn, &c->lists);
    c->misc = crc_u32(c->misc, (uint32_t)t->entryCount);
    c->misc = crc_u32(c->misc, (uint32_t)t->globalItemCount);
    c->misc = crc_u32(c->misc, norm_tree(t->animTreeHandle));
    c->misc = crc_u32(c->misc, anim_u32(bgs.resolvedTorsoAnimHandle));
    c->misc = crc_u32(c->misc, anim_u32(bgs.resolvedLegsAnimHandle));
    c->misc = crc_u32(c->misc, anim_u32(bgs.resolvedTurningAnimHandle));
    c->misc = crc_u32(c->misc, norm_fn((const void *)bgs.soundAliasCallback, (const void *)pad_sound_alias));
    c->misc = crc_u32(c->misc, norm_fn((const void *)bgs.soundEventCallback, (const void *)pad_sound_event));
    c->misc = crc_u32(c->misc, norm_tree(bgs.multiplayerAnimTree));
    c->misc = crc_u32(c->misc, anim_u32(bgs.rootAnimHandle));
    c->misc = crc_u32(c->misc, anim_u32(bgs.torsoAnimHandle));
    c->misc = crc_u32(c->misc, anim_u32(bgs.legsAnimHandle));
    c->misc = crc_u32(c->misc, anim_u32(bgs.turningAnimHandle));
    c->misc = crc_u32(c->misc, bgAnimStaticTable == NULL ? 0u : bgAnimStaticTable == t ? 1u : 2u);
    c->misc = crc_u32(c->misc, bgRuntimeAnimations == NULL ? 0u : bgRuntimeAnimations == runtimeAnims ? 1u : 2u);
    c->misc = crc_u32(c->misc, bgRuntimeAnimationCount == NULL ? 0u : bgRuntimeAnimationCount == &runtimeCount ? 1u : 2u);
}

static void dump_state(const char *title)
{
    const pam_table *t = &bgs.animationTable;
    int i, n, nonEmpty = 0;
    state_crc crc;

    pad_out("== %s", title);
    pad_out("glob table=%s runtime=%s count=%s", bgAnimStaticTable == t ? "bgs" : bgAnimStaticTable == NULL ? "null" : "other",
            bgRuntimeAnimations == runtimeAnims ? "array" : bgRuntimeAnimations == NULL ? "null" : "other",
            bgRuntimeAnimationCount == &runtimeCount ? "driver"
            : bgRuntimeAnimationCount == NULL        ? "null"
                                                     : "other");
    pad_out("bgs root=%s torso=%s legs=%s turning=%s resolved=%s,%s,%s tree=%s tablehandle=%s alias=%s event=%s", anim_str(bgs.rootAnimHandle),
            anim_str(bgs.torsoAnimHandle), anim_str(bgs.legsAnimHandle), anim_str(bgs.turningAnimHandle), anim_str(bgs.resolvedTorsoAnimHandle),
            anim_str(bgs.resolvedLegsAnimHandle), anim_str(bgs.resolvedTurningAnimHandle), tree_str(bgs.multiplayerAnimTree),
            tree_str(t->animTreeHandle), norm_fn((const void *)bgs.soundAliasCallback, (const void *)pad_sound_alias) == 1 ? "stub" : "changed",
            norm_fn((const void *)bgs.soundEventCallback, (const void *)pad_sound_event) == 1 ? "stub" : "changed");

    pad_out("runtime %d", (int)runtimeCount);
    n = runtimeCount < 0 ? 0 : runtimeCount > PAM_MAX_ENTRIES ? PAM_MAX_ENTRIES : runtimeCount;
    for (i = 0; i < n; ++i) {
        const pam_runtime *r = &runtimeAnims[i];
        pad_out("r %d %s %x \"%s\"", i, anim_str(r->anim), (unsigned)r->hash, name64(r->name));
    }

    pad_out("entries %d", t->entryCount);
    n = t->entryCount < 0 ? 0 : t->entryCount > PAM_MAX_ENTRIES ? PAM_MAX_ENTRIES : t->entryCount;
    for (i = 0; i < n; ++i) {
        const pam_entry *e = &t->entries[i];
        pad_out("e %d \"%s\" b=%d v=%d d=%d h=%x f=%x s=%x u=%d", i, name64(e->name), e->blendTime, e->moveSpeed, e->duration, (unsigned)e->hash,
                (unsigned)e->flags, (unsigned)e->stateFlags, e->usedByScript);
    }

    pad_out("items %d", t->globalItemCount);
    n = t->globalItemCount < 0 ? 0 : t->globalItemCount > PAM_MAX_ITEMS ? PAM_MAX_ITEMS : t->globalItemCount;
    for (i = 0; i < n; ++i) {
        print_script(i, &t->globalItems[i]);
    }

    for_each_list(list_print_fn, &nonEmpty);
    pad_out("lists %d", nonEmpty);
    compute_crcs(&crc);
    pad_out("crc entries=%08x lists=%08x items=%08x misc=%08x runtime=%08x", (unsigned)crc.entries, (unsigned)crc.lists, (unsigned)crc.items,
            (unsigned)crc.misc, (unsigned)crc.runtime);
}

/* ======================= init =========================================== */
static const char *stage = "none";

static void init_fn(void *ctx)
{
    (void)ctx;
    stage = "findanims";
    pad_out("@ %s", stage);
    BG_FindAnims();
    stage = "pass1";
    pad_out("@ %s", stage);
    BG_AnimParseAnimScript(&bgs.animationTable, runtimeAnims, &runtimeCount);
    pad_out("pass1 ok items=%d runtime=%d entries=%d", bgs.animationTable.globalItemCount, (int)runtimeCount, bgs.animationTable.entryCount);
    if (phase == PHASE_FULL) {
        stage = "findanimtrees";
        pad_out("@ %s", stage);
        BG_FindAnimTrees();
        stage = "finalize";
        pad_out("@ %s", stage);
        BG_FinalizePlayerAnims();
    }
    stage = "done";
}

/* ======================= queries ======================================== */
typedef struct qctx {
    char **w;
    int n;
    int kind; /* what to print on success */
    int32_t ret;
    const void *ptr;
    char text[1024];
} qctx;

enum { R_INT = 1, R_PS, R_VOID, R_ENTRY, R_STR, R_SCRIPT, R_RUNTIME, R_TREE, R_TEXT };

static char wordBuf[8][PAD_NODE_NAME_BYTES * 8];

static const char *word(qctx *q, int i)
{
    if (i >= q->n) {
        die("query '%s' needs %d arguments", q->w[0], i);
    }
    decode_word(q->w[i], wordBuf[i & 7], sizeof(wordBuf[0]));
    return wordBuf[i & 7];
}

static int32_t arg(qctx *q, int i)
{
    if (i >= q->n) {
        die("query '%s' needs %d arguments", q->w[0], i);
    }
    return parse_i32(q->w[i]);
}

static int reject(qctx *q, const char *why)
{
    pad_out("= rejected %s", why);
    (void)q;
    return 1;
}

static const pam_list *list_for(qctx *q, int first)
{
    const char *kind = q->w[first];
    int32_t a = arg(q, first + 1), b;

    if (strcmp(kind, "a") == 0 || strcmp(kind, "c") == 0) {
        b = arg(q, first + 2);
        if (a < 0 || a >= PAM_STATE_COUNT || b < 0 || b >= PAM_MOVE_COUNT) {
            return NULL;
        }
        return kind[0] == 'a' ? &bgs.animationTable.animations[a][b] : &bgs.animationTable.canned[a][b];
    }
    if (strcmp(kind, "s") == 0) {
        b = arg(q, first + 2);
        if (a < 0 || a >= PAM_STATE_COUNT || b < 0 || b >= PAM_STATE_COUNT) {
            return NULL;
        }
        return &bgs.animationTable.statechanges[a][b];
    }
    if (strcmp(kind, "e") == 0) {
        if (a < 0 || a >= PAM_EVENT_COUNT) {
            return NULL;
        }
        return a < PAM_EVENT_LIST_SPLIT ? &bgs.animationTable.events[a] : &bgs.animationTable.scriptLists[a - PAM_EVENT_LIST_SPLIT];
    }
    return NULL;
}

static pam_indexed_string idxTable[65];
static char idxNames[64][PAD_NODE_NAME_BYTES];
static char copyBuffer[65536];
static int32_t copyUsed;
static uint32_t copySize;

/* Validates a query and returns nonzero if it was answered without a call. */
static int validate(qctx *q)
{
    const char *v = q->w[0];

    if (strcmp(v, "exec") == 0) {
        int32_t state = arg(q, 1), mt = arg(q, 2);
        if (state >= PAM_STATE_COUNT || mt < 0 || mt >= PAM_MOVE_COUNT) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "event") == 0 || strcmp(v, "getevent") == 0) {
        int32_t e = arg(q, 1);
        if (e < 0 || e >= PAM_EVENT_COUNT) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "statechange") == 0) {
        int32_t from = arg(q, 1), to = arg(q, 2);
        if (from < 0 || from >= PAM_STATE_COUNT || to < 0 || to >= PAM_STATE_COUNT) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "get") == 0) {
        int32_t client = arg(q, 1), cond = arg(q, 2);
        if (client < 0 || client >= PAM_MAX_CLIENTS || cond < 0 || cond >= PAM_COND_COUNT) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "upd") == 0) {
        int32_t cond = arg(q, 2);
        if (cond < 0 || cond >= PAM_COND_COUNT) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "play") == 0) {
        if ((uint32_t)arg(q, 1) >= PAM_MAX_ENTRIES) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "runcmd") == 0) {
        int32_t item = arg(q, 1), cmd = arg(q, 2);
        if (item < 0 || item >= PAM_MAX_ITEMS || cmd < 0 || cmd >= PAM_MAX_COMMANDS) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "eval") == 0) {
        int32_t client = arg(q, 1), item = arg(q, 2);
        if (client < 0 || client >= PAM_MAX_CLIENTS || item < 0 || item >= PAM_MAX_ITEMS) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "firstvalid") == 0) {
        if (list_for(q, 2) == NULL) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "loadanim") == 0) {
        if (bgRuntimeAnimationCount == NULL || bgRuntimeAnimations == NULL) {
            return reject(q, "no-runtime-array");
        }
    } else if (strcmp(v, "copystr") == 0) {
        int32_t size = arg(q, 1), used = arg(q, 2);
        if (size < 1 || size > (int32_t)sizeof(copyBuffer) || used < 0 || used > size) {
            return reject(q, "range");
        }
    } else if (strcmp(v, "idxstr") == 0) {
        if (q->n - 3 > 64) {
            return reject(q, "range");
        }
    }
    return 0;
}

static void query_fn(void *ctx)
{
    qctx *q = (qctx *)ctx;
    const char *v = q->w[0];

    if (strcmp(v, "cond") == 0) {
        int32_t client = arg(q, 1);
        int c;
        q->kind = R_VOID;
        for (c = 0; c < PAM_COND_COUNT; ++c) {
            BG_UpdateConditionValue(client, c, arg(q, 2 + c), 1);
        }
    } else if (strcmp(v, "upd") == 0) {
        q->kind = R_VOID;
        BG_UpdateConditionValue(arg(q, 1), arg(q, 2), arg(q, 3), arg(q, 4));
    } else if (strcmp(v, "get") == 0) {
        q->kind = R_INT;
        q->ret = BG_GetConditionValue(&bgs.clientinfo[arg(q, 1)], arg(q, 2), arg(q, 3));
    } else if (strcmp(v, "exec") == 0) {
        q->kind = R_PS;
        q->ret = BG_ExecuteCommand(&ps, arg(q, 1), arg(q, 2), arg(q, 3));
    } else if (strcmp(v, "event") == 0) {
        q->kind = R_PS;
        q->ret = BG_AnimScriptEvent(&ps, arg(q, 1), arg(q, 2), arg(q, 3));
    } else if (strcmp(v, "getevent") == 0) {
        q->kind = R_PS;
        q->ret = BG_GetAnimScriptEvent(&ps, arg(q, 1));
    } else if (strcmp(v, "statechange") == 0) {
        q->kind = R_PS;
        q->ret = BG_AnimScriptStateChange(&ps, arg(q, 1), arg(q, 2));
    } else if (strcmp(v, "index") == 0) {
        q->kind = R_INT;
        q->ret = BG_AnimationIndexForString(word(q, 1));
    } else if (strcmp(v, "animfor") == 0) {
        q->kind = R_ENTRY;
        q->ptr = BG_AnimationForString(word(q, 1));
    } else if (strcmp(v, "animstr") == 0) {
        q->kind = R_STR;
        q->ptr = BG_GetAnimString((uint32_t)arg(q, 1));
    } else if (strcmp(v, "animidx") == 0) {
        q->kind = R_ENTRY;
        q->ptr = BG_GetAnimationForIndex(arg(q, 1), (uint32_t)arg(q, 2));
    } else if (strcmp(v, "playname") == 0) {
        q->kind = R_PS;
        q->ret = BG_PlayAnimName(&ps, word(q, 1), (uint32_t)arg(q, 2), arg(q, 3), arg(q, 4), arg(q, 5));
    } else if (strcmp(v, "play") == 0) {
        q->kind = R_PS;
        q->ret = BG_PlayAnim(&ps, (uint32_t)arg(q, 1), (uint32_t)arg(q, 2), arg(q, 3), arg(q, 4), arg(q, 5), arg(q, 6));
    } else if (strcmp(v, "runcmd") == 0) {
        q->kind = R_PS;
        q->ret = BG_AnimScriptAnimation(&bgs.animationTable.globalItems[arg(q, 1)].commands[arg(q, 2)], &ps, arg(q, 3), arg(q, 4), arg(q, 5));
    } else if (strcmp(v, "firstvalid") == 0) {
        q->kind = R_SCRIPT;
        q->ptr = BG_FirstValidItem(arg(q, 1), list_for(q, 2));
    } else if (strcmp(v, "eval") == 0) {
        q->kind = R_INT;
        q->ret = BG_EvaluateConditions(&bgs.clientinfo[arg(q, 1)], &bgs.animationTable.globalItems[arg(q, 2)]);
    } else if (strcmp(v, "hash") == 0) {
        q->kind = R_INT;
        q->ret = BG_StringHashValue(word(q, 1));
    } else if (strcmp(v, "idxstr") == 0) {
        int i, n = q->n - 3;
        size_t used;
        for (i = 0; i < n; ++i) {
            char *at;
            strncpy(idxNames[i], word(q, 3 + i), sizeof(idxNames[i]) - 1);
            idxNames[i][sizeof(idxNames[i]) - 1] = 0;
            at = strrchr(idxNames[i], '@');
            idxTable[i].name = idxNames[i];
            idxTable[i].hash = -1;
            if (at != NULL) {
                *at = 0;
                idxTable[i].hash = parse_i32(at + 1);
            }
        }
        idxTable[n].name = NULL;
        idxTable[n].hash = 0;
        q->kind = R_TEXT;
        q->ret = BG_IndexForString(word(q, 2), idxTable, arg(q, 1));
        used = 0;
        appendf(q->text, sizeof(q->text), &used, "%d hashes", (int)q->ret);
        for (i = 0; i < n; ++i) {
            appendf(q->text, sizeof(q->text), &used, " %x", (unsigned)idxTable[i].hash);
        }
    } else if (strcmp(v, "copystr") == 0) {
        char *r;
        copySize = (uint32_t)arg(q, 1);
        copyUsed = arg(q, 2);
        memset(copyBuffer, 0xaa, sizeof(copyBuffer));
        r = BG_CopyStringIntoBuffer(word(q, 3), copyBuffer, copySize, &copyUsed);
        q->kind = R_TEXT;
        snprintf(q->text, sizeof(q->text), "off %ld used %d", r ? (long)(r - copyBuffer) : -1L, (int)copyUsed);
    } else if (strcmp(v, "findtree") == 0) {
        q->kind = R_TREE;
#if defined(PA_TREE_BY_POINTER)
        q->ptr = BG_FindAnimTree(word(q, 1), arg(q, 2));
#else
        q->ptr = BG_FindAnimTree(word(q, 1), arg(q, 2)).tree;
#endif
    } else if (strcmp(v, "loadanim") == 0) {
        q->kind = R_RUNTIME;
        q->ptr = BG_LoadAnimForAnimIndex((uint32_t)arg(q, 1));
    } else if (strcmp(v, "setupnotes") == 0) {
        q->kind = R_VOID;
        BG_SetupAnimNoteTypes(&bgs.animationTable);
    } else {
        die("unknown query '%s'", v);
    }
}

static void print_ps_fields(char *out, size_t size)
{
    snprintf(out, size, "la=%x lt=%d ta=%x tt=%d", (unsigned)ps.legsAnim, ps.legsTimer, (unsigned)ps.torsoAnim, ps.torsoTimer);
}

static void print_result(qctx *q)
{
    char psText[128];
    const pam_table *t = &bgs.animationTable;

    print_ps_fields(psText, sizeof(psText));
    switch (q->kind) {
    case R_INT:
        pad_out("= %d", (int)q->ret);
        break;
    case R_PS:
        pad_out("= %d %s", (int)q->ret, psText);
        break;
    case R_VOID:
        pad_out("= void");
        break;
    case R_ENTRY: {
        const pam_entry *e = (const pam_entry *)q->ptr;
        if (e == NULL) {
            pad_out("= null");
        } else if (e >= t->entries && e < t->entries + PAM_MAX_ENTRIES) {
            pad_out("= e%d", (int)(e - t->entries));
        } else {
            pad_out("= other");
        }
        break;
    }
    case R_STR: {
        const char *s = (const char *)q->ptr;
        const char *base = (const char *)t->entries;
        if (s >= base && s < (const char *)(t->entries + PAM_MAX_ENTRIES)) {
            long off = (long)(s - base);
            pad_out("= e%ld+%ld \"%s\"", off / (long)sizeof(pam_entry), off % (long)sizeof(pam_entry), pad_esc(s));
        } else {
            pad_out("= %s", s == NULL ? "null" : "other");
        }
        break;
    }
    case R_SCRIPT: {
        int i = item_index((const pam_script *)q->ptr);
        if (i >= 0) {
            pad_out("= s%d", i);
        } else {
            pad_out("= %s", i == -1 ? "null" : "other");
        }
        break;
    }
    case R_RUNTIME: {
        const pam_runtime *r = (const pam_runtime *)q->ptr;
        if (r == NULL) {
            pad_out("= null");
        } else if (r >= runtimeAnims && r < runtimeAnims + PAM_MAX_ENTRIES) {
            pad_out("= r%d", (int)(r - runtimeAnims));
        } else {
            pad_out("= other");
        }
        break;
    }
    case R_TREE:
        pad_out("= %s", tree_str((const pam_xanim *)q->ptr));
        break;
    case R_TEXT:
        pad_out("= %s", q->text);
        break;
    default:
        pad_out("= ?");
        break;
    }
    if (strcmp(q->w[0], "copystr") == 0) {
        static char esc[sizeof(copyBuffer) * 4 + 16];
        size_t show = (size_t)copySize;
        if (show > 256) {
            show = 256;
        }
        pad_escape(esc, sizeof(esc), copyBuffer, show);
        pad_out("buf \"%s\"", esc);
    }
}

static void snapshot_words(void)
{
    int c;

    for (c = 0; c < PAM_MAX_CLIENTS; ++c) {
        memcpy(wordShadow[c], bgs.clientinfo[c].conditionWords, sizeof(wordShadow[c]));
    }
}

static void report_word_changes(void)
{
    int c, k;

    for (c = 0; c < PAM_MAX_CLIENTS; ++c) {
        if (memcmp(wordShadow[c], bgs.clientinfo[c].conditionWords, sizeof(wordShadow[c])) == 0) {
            continue;
        }
        for (k = 0; k < PAM_COND_COUNT; ++k) {
            const uint32_t *now = bgs.clientinfo[c].conditionWords[k];
            if (now[0] != wordShadow[c][k][0] || now[1] != wordShadow[c][k][1]) {
                pad_out("cw %d %d %x:%x", c, k, (unsigned)now[0], (unsigned)now[1]);
            }
        }
        memcpy(wordShadow[c], bgs.clientinfo[c].conditionWords, sizeof(wordShadow[c]));
    }
}

static void check_ps(void)
{
    pam_player_state expect = psShadow;

    expect.legsTimer = ps.legsTimer;
    expect.legsAnim = ps.legsAnim;
    expect.torsoTimer = ps.torsoTimer;
    expect.torsoAnim = ps.torsoAnim;
    if (memcmp(&expect, &ps, sizeof(ps)) != 0) {
        const unsigned char *a = (const unsigned char *)&expect, *b = (const unsigned char *)&ps;
        size_t i;
        for (i = 0; i < sizeof(ps); ++i) {
            if (a[i] != b[i]) {
                pad_out("!ps byte +0x%zx %02x -> %02x", i, a[i], b[i]);
            }
        }
    }
    psShadow = ps;
}

static void run_ps(qctx *q)
{
    int i;

    for (i = 1; i < q->n; ++i) {
        char key[32];
        const char *eq = strchr(q->w[i], '=');
        int32_t value;
        if (eq == NULL || (size_t)(eq - q->w[i]) >= sizeof(key)) {
            die("ps: bad field '%s'", q->w[i]);
        }
        memcpy(key, q->w[i], (size_t)(eq - q->w[i]));
        key[eq - q->w[i]] = 0;
        value = parse_i32(eq + 1);
        if (strcmp(key, "client") == 0) {
            ps.psClientNum = value;
        } else if (strcmp(key, "pm") == 0) {
            ps.pmType = value;
        } else if (strcmp(key, "lt") == 0) {
            ps.legsTimer = value;
        } else if (strcmp(key, "la") == 0) {
            ps.legsAnim = value;
        } else if (strcmp(key, "tt") == 0) {
            ps.torsoTimer = value;
        } else if (strcmp(key, "ta") == 0) {
            ps.torsoAnim = value;
        } else {
            die("ps: unknown field '%s'", key);
        }
    }
    psShadow = ps;
    pad_out("= ok");
}

static void run_queries(void)
{
    static char *w[MAX_WORDS];
    int i;

    pad_out("== queries %d", queryCount);
    snapshot_words();
    for (i = 0; i < queryCount; ++i) {
        char *line = (char *)malloc(strlen(queries[i].text) + 1);
        qctx q;

        strcpy(line, queries[i].text);
        memset(&q, 0, sizeof(q));
        q.w = w;
        q.n = split_words(line, w);
        pad_out("> %s", queries[i].text);
        if (strcmp(w[0], "ps") == 0) {
            run_ps(&q);
        } else if (strcmp(w[0], "rng") == 0) {
            static uint32_t samples[4096];
            int k;
            if (q.n - 1 > 4096) {
                die("rng: too many samples");
            }
            for (k = 1; k < q.n; ++k) {
                samples[k - 1] = (uint32_t)parse_int(w[k]);
            }
            pad_rng_set_queue(samples, q.n - 1);
            pad_out("= ok");
        } else if (strcmp(w[0], "setcount") == 0) {
            /* the runtime count is the caller's (engine) variable */
            if (q.n != 2) {
                die("setcount N");
            }
            runtimeCount = parse_i32(w[1]);
            pad_out("= ok");
        } else if (!validate(&q)) {
            if (protected_call(query_fn, &q)) {
                char psText[128];
                print_ps_fields(psText, sizeof(psText));
                pad_out("= err %s \"%s\" %s", pad_error_level_text(), pad_esc(pad_error_text), psText);
            } else {
                print_result(&q);
            }
        }
        check_ps();
        report_word_changes();
        free(line);
    }
}

/* ======================= main =========================================== */
static void check_client_opaque(void)
{
    static const pam_client_info zero;
    int c;

    for (c = 0; c < PAM_MAX_CLIENTS; ++c) {
        pam_client_info copy = bgs.clientinfo[c];
        memset(copy.conditionWords, 0, sizeof(copy.conditionWords));
        if (memcmp(&copy, &zero, sizeof(copy)) != 0) {
            pad_out("!clientinfo %d: bytes outside conditionWords changed", c);
        }
    }
}

static void on_crash(int sig)
{
    pad_flush_traps();
    fflush(stdout);
    fprintf(stdout, "!! crashed: signal %d\n", sig);
    fflush(stdout);
    _exit(4);
}

#if defined(_WIN32)
/* Windows (mingw-w64, also under Wine): the CRT's signal() sees only part of
 * the hardware exceptions, so a crash of the library is caught by the
 * top-level exception filter instead; it prints the line the Linux build
 * prints, with the Linux signal number (SIGILL 4, SIGABRT 6, SIGBUS 7,
 * SIGFPE 8, SIGSEGV 11).  The dump is written in binary mode (no CRLF). */
#define WIN32_LEAN_AND_MEAN
#include <fcntl.h>
#include <io.h>
#include <windows.h>

static LONG WINAPI on_exception(EXCEPTION_POINTERS *info)
{
    DWORD code = info->ExceptionRecord->ExceptionCode;
    int sig;

    switch (code) {
    case EXCEPTION_ACCESS_VIOLATION:
    case EXCEPTION_STACK_OVERFLOW:
    case EXCEPTION_ARRAY_BOUNDS_EXCEEDED:
    case EXCEPTION_GUARD_PAGE:
        sig = 11;
        break;
    case EXCEPTION_DATATYPE_MISALIGNMENT:
    case EXCEPTION_IN_PAGE_ERROR:
        sig = 7;
        break;
    case EXCEPTION_ILLEGAL_INSTRUCTION:
    case EXCEPTION_PRIV_INSTRUCTION:
        sig = 4;
        break;
    case EXCEPTION_INT_DIVIDE_BY_ZERO:
    case EXCEPTION_INT_OVERFLOW:
    case EXCEPTION_FLT_DENORMAL_OPERAND:
    case EXCEPTION_FLT_DIVIDE_BY_ZERO:
    case EXCEPTION_FLT_INEXACT_RESULT:
    case EXCEPTION_FLT_INVALID_OPERATION:
    case EXCEPTION_FLT_OVERFLOW:
    case EXCEPTION_FLT_STACK_CHECK:
    case EXCEPTION_FLT_UNDERFLOW:
        sig = 8;
        break;
    default:
        sig = 6;
        break;
    }
    fprintf(stderr, "pa_driver: unhandled exception 0x%08lx\n", (unsigned long)code);
    on_crash(sig);
    return EXCEPTION_CONTINUE_SEARCH;
}

static void on_abort(int sig)
{
    (void)sig;
    on_crash(6); /* SIGABRT is 22 in the Windows CRT, 6 on Linux */
}

static void install_crash_handlers(void)
{
    _setmode(_fileno(stdout), _O_BINARY);
    _setmode(_fileno(stderr), _O_BINARY);
    SetErrorMode(SEM_FAILCRITICALERRORS | SEM_NOGPFAULTERRORBOX);
    SetUnhandledExceptionFilter(on_exception);
    signal(SIGABRT, on_abort);
}
#else
static void install_crash_handlers(void)
{
    signal(SIGSEGV, on_crash);
    signal(SIGBUS, on_crash);
    signal(SIGFPE, on_crash);
    signal(SIGILL, on_crash);
    signal(SIGABRT, on_crash);
}
#endif

/* PA_X87_PC=53|64 (PROTOCOL.md "x87 precision control"): the x87 precision
 * control the process runs at, set once before anything else is done, like
 * coduomp_restore_retail_x87_precision() at the top of the Windows client's
 * WinMain (i686: _controlfp(_PC_53, _MCW_PC); x86_64: fnstcw/fldcw of the PC
 * field).  Unset: the start-up default is kept (0x37f, PC=64).  The resulting
 * control word is reported on stderr, never in the dump. */
#if defined(_WIN32) && defined(__i386__)
#include <float.h>
#endif
#if defined(__i386__) || defined(__x86_64__)
static void report_x87_at_exit(void)
{
    unsigned short cw;

    __asm__ volatile("fnstcw %0" : "=m"(cw));
    fprintf(stderr, "pa_driver: x87 control word at exit 0x%04x\n", (unsigned)cw);
}

#endif

static void apply_x87_precision(void)
{
    const char *pc = getenv("PA_X87_PC");
    unsigned short cw;

    if (pc == NULL || pc[0] == '\0') {
        return;
    }
    if (strcmp(pc, "53") != 0 && strcmp(pc, "64") != 0) {
        die("PA_X87_PC must be 53 or 64 (got '%s')", pc);
    }
#if !defined(__i386__) && !defined(__x86_64__)
    /* aarch64 (macOS arm64): no x87 unit; an emulated-x87 module fixes its
     * own precision at compile time (coduo_x87emu.h), native float code runs
     * in IEEE binary32/64 */
    (void)cw;
    fprintf(stderr, "pa_driver: no x87 control word on this target (PA_X87_PC=%s ignored)\n", pc);
    return;
#elif defined(_WIN32) && defined(__i386__)
    (void)_controlfp(strcmp(pc, "53") == 0 ? _PC_53 : _PC_64, _MCW_PC);
#else
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    cw = (unsigned short)((cw & ~0x0300u) | (strcmp(pc, "53") == 0 ? 0x0200u : 0x0300u));
    __asm__ volatile("fldcw %0" : : "m"(cw));
#endif
#if defined(__i386__) || defined(__x86_64__)
    __asm__ volatile("fnstcw %0" : "=m"(cw));
    fprintf(stderr, "pa_driver: x87 control word 0x%04x (PA_X87_PC=%s)\n", (unsigned)cw, pc);
    atexit(report_x87_at_exit);
#endif
}

int main(int argc, char **argv)
{
    const char *casePath = NULL;
    unsigned char *caseData;
    long caseLength;
    int i, failed;
    state_crc afterInit, atEnd;

    for (i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--data") == 0 && i + 1 < argc) {
            dataDir = argv[++i];
        } else if (casePath == NULL) {
            casePath = argv[i];
        } else {
            die("usage: pa_driver [--data DIR] CASEFILE");
        }
    }
    if (casePath == NULL) {
        die("usage: pa_driver [--data DIR] CASEFILE");
    }
    if (dataDir == NULL) {
        /* default: the stock/ directory next to the case's directory */
        static char defaultData[4096];
        const char *slash = strrchr(casePath, '/');
        if (slash == NULL) {
            snprintf(defaultData, sizeof(defaultData), "../stock");
        } else {
            snprintf(defaultData, sizeof(defaultData), "%.*s/../stock", (int)(slash - casePath), casePath);
        }
        dataDir = defaultData;
    }
    install_crash_handlers();
    apply_x87_precision();
    crc_init();
    pad_tree_reset();
    caseData = read_file(casePath, &caseLength);
    if (caseLength < 10 || memcmp(caseData, "pa-case 1\n", 10) != 0) {
        die("%s: not a pa-case 1 file", casePath);
    }
    parse_case(caseData, caseLength, 1, 1, casePath);
    if (!haveScript && !fileMissing) {
        die("case has no script");
    }

    /* engine start: bgs cleared (static storage), callbacks installed */
    bgs.soundAliasCallback = pad_sound_alias;
    bgs.soundEventCallback = pad_sound_event;
    pad_weapons_set(weaponCount, weaponNames);
    if (!fileMissing) {
        pad_fs_set(script, (int)scriptLength);
    }
    pad_out("pa-dump 1");
    pad_out("setup weapons=%d nodes=%d script=%ld phase=%s", weaponCount, pad_tree_count(), fileMissing ? -1L : scriptLength,
            phase == PHASE_FULL ? "full" : "pass1");

    failed = protected_call(init_fn, NULL);
    if (failed) {
        pad_out("init error %s %s \"%s\"", stage, pad_error_level_text(), pad_esc(pad_error_text));
        pad_out("queries skipped %d", queryCount);
        fflush(stdout);
        return 0;
    }
    pad_out("init ok");
    dump_state("state");
    compute_crcs(&afterInit);

    run_queries();

    pad_out("== end");
    pad_out("sound-events %d rng-draws %d com-errors %d", pad_sound_events, pad_rng_draws, pad_error_count);
    compute_crcs(&atEnd);
    if (memcmp(&afterInit, &atEnd, sizeof(atEnd)) != 0) {
        dump_state("state after queries");
    } else {
        pad_out("state unchanged");
    }
    check_client_opaque();
    fflush(stdout);
    return 0;
}
