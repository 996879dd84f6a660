/* engine_services.c -- the engine services the engine and client units
 * import, as the contrib test's stand-ins (written for this test after the
 * project's c_tests/small_engine.h): errors that print and exit, script
 * strings, one in-memory .atr ("animtrees/uo_test.atr"), synthetic xanim
 * assets and allocators. gen_layout.py puts it under the engine's name of
 * the file that holds these services; every other import of the unit gets an
 * empty stand-in. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uoanim_common.h"
#include "uoanim_animtree.h"

static void fail(const char *what, const char *format, va_list args)
{
    fprintf(stderr, "engine stand-in: %s: ", what);
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    exit(3);
}

void Com_Error(int level, const char *format, ...)
{
    va_list args;
    (void)level;
    va_start(args, format);
    fail("Com_Error", format, args);
}

void CompileError(uint32_t sourcePos, const char *format, ...)
{
    va_list args;
    (void)sourcePos;
    va_start(args, format);
    fail("CompileError", format, args);
}

void CompileError2(uint8_t *codePos, const char *format, ...)
{
    va_list args;
    (void)codePos;
    va_start(args, format);
    fail("CompileError2", format, args);
}

static char *strings[64];
static int string_count;

static uint16_t intern(const char *text)
{
    for (int i = 0; i < string_count; i++)
        if (strcmp(strings[i], text) == 0)
            return (uint16_t)(i + 1);
    if (string_count == 64)
        exit(4);
    strings[string_count] = strdup(text);
    return (uint16_t)++string_count;
}

const char *SL_ConvertToString(uint16_t handle)
{
    return handle && handle <= string_count ? strings[handle - 1] : "";
}

uint16_t Scr_CreateCanonicalFilename(const char *filename)
{
    char lower[256];
    size_t i;
    for (i = 0; filename[i] && i + 1 < sizeof lower; i++)
        lower[i] = (char)(filename[i] >= 'A' && filename[i] <= 'Z' ? filename[i] + 32 : filename[i]);
    lower[i] = 0;
    return intern(lower);
}

qboolean Scr_IsIdentifier(const char *text)
{
    for (; *text; text++)
        if (!((*text >= 'a' && *text <= 'z') || (*text >= 'A' && *text <= 'Z') || (*text >= '0' && *text <= '9') ||
              *text == '_'))
            return 0;
    return 1;
}

/* the tree: a root with two leaves */
static const char tree_text[] = "// the contrib test's tree\nuo_pose_a\nuo_pose_b\n";

char *Scr_AddSourceBuffer(const char *filename, uint8_t *normalCodeStart, uint8_t *relocatedCodeStart)
{
    (void)normalCodeStart;
    (void)relocatedCodeStart;
    return strcasecmp(filename, "animtrees/uo_test.atr") == 0 ? strdup(tree_text) : NULL;
}

static fileData_t atr_record = {"uo_test.atr", {0}, NULL};
static fileData_t asset_records[8];
static char asset_names[8][64];
static int asset_count;

fileData_t *FS_GetDataForFile(const char *base, const char *path, const char *extension)
{
    if (strcmp(base, "animtrees") == 0 && strcasecmp(path, "uo_test") == 0 && strcmp(extension, ".atr") == 0)
        return &atr_record;
    if (strcmp(base, "xanim") != 0 || !*path)
        return NULL;
    for (int i = 0; i < asset_count; i++)
        if (strcmp(asset_names[i], path) == 0)
            return &asset_records[i];
    if (asset_count == 8)
        return NULL;
    snprintf(asset_names[asset_count], sizeof asset_names[0], "%s", path);
    asset_records[asset_count].name = asset_names[asset_count];
    return &asset_records[asset_count++];
}

XAnimParts *XAnimLoadFile(const char *name, void *(*alloc)(size_t size))
{
    fileData_t *record = FS_GetDataForFile("xanim", name, "");
    if (!record)
        return NULL;
    if (!record->data.xanimParts) {
        XAnimParts *parts = alloc(sizeof *parts);
        memset(parts, 0, sizeof *parts);
        parts->frameCountMinusOne = 10;
        parts->frameRate = 20.0f;
        record->data.xanimParts = parts;
    }
    return record->data.xanimParts;
}

qboolean ScriptCode_IsLoadedCodePos(const uint8_t *codePos) { (void)codePos; return 0; }
qboolean Scr_IsInDeveloperOpcodeMemory(const uint8_t *codePos) { (void)codePos; return 0; }
void *Hunk_AllocAlignInternal(size_t size, size_t alignment) { (void)alignment; return calloc(1, size); }
void Hunk_ClearTempMemoryHigh(void) {}
void *Hunk_AllocXAnimCreateTree(size_t size) { return calloc(1, size); }
void *MT_Alloc(size_t size, int32_t tag) { (void)tag; return calloc(1, size); }
void MT_Free(void *data, size_t size) { (void)size; free(data); }
