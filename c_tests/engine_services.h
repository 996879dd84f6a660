/* engine_services.h -- the engine services the animation-tree units import,
 * as the stand-ins every C test of the project shares (c_tests/small_engine.h
 * and the contrib test's engine_services.c): script strings, canonical file
 * names, identifiers, one in-memory .atr, synthetic xanim assets and the
 * allocators.
 *
 * The includer says, before including it:
 *   ENGINE_TREE_NAME   the tree's name ("multiplayer": animtrees/multiplayer.atr)
 *   ENGINE_TREE_TEXT   the tree's text
 *   ENGINE_MAX_ASSETS  how many xanim assets it serves (16 by default)
 * and defines after it (the functions are declared here):
 *   engine_asset(name, parts)        the frames, rate and looped byte of an asset
 *   engine_missing_xanim(name)       what XAnimLoadFile does without the asset
 * and the engine's error function, Com_Error (engine_strings.h raises
 * through it). Include it in exactly one file of a program. */
#ifndef UOANIM_C_TESTS_ENGINE_SERVICES_H
#define UOANIM_C_TESTS_ENGINE_SERVICES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uoanim_common.h"
#include "uoanim_animtree.h"

#ifndef ENGINE_MAX_ASSETS
#define ENGINE_MAX_ASSETS 16
#endif

static void engine_asset(const char *name, XAnimParts *parts);
static XAnimParts *engine_missing_xanim(const char *name);

#include "engine_strings.h"

/* ---- the tree ----------------------------------------------------------- */
static const char tree_text[] = ENGINE_TREE_TEXT;

char *Scr_AddSourceBuffer(const char *filename, uint8_t *normalCodeStart, uint8_t *relocatedCodeStart)
{
    (void)normalCodeStart;
    (void)relocatedCodeStart;
    if (strcasecmp(filename, "animtrees/" ENGINE_TREE_NAME ".atr") != 0)
        return NULL;
    return strdup(tree_text);
}

/* ---- assets ------------------------------------------------------------- */
static fileData_t atr_record = {ENGINE_TREE_NAME ".atr", {0}, NULL};
static fileData_t asset_records[ENGINE_MAX_ASSETS];
static char asset_names[ENGINE_MAX_ASSETS][64];
static int asset_count;

fileData_t *FS_GetDataForFile(const char *base, const char *path, const char *extension)
{
    if (strcmp(base, "animtrees") == 0 && strcasecmp(path, ENGINE_TREE_NAME) == 0 && strcmp(extension, ".atr") == 0)
        return &atr_record;
    if (strcmp(base, "xanim") != 0 || !*path)
        return NULL;
    for (int i = 0; i < asset_count; i++)
        if (strcmp(asset_names[i], path) == 0)
            return &asset_records[i];
    if (asset_count == ENGINE_MAX_ASSETS)
        return NULL;
    snprintf(asset_names[asset_count], sizeof asset_names[0], "%s", path);
    asset_records[asset_count].name = asset_names[asset_count];
    return &asset_records[asset_count++];
}

XAnimParts *XAnimLoadFile(const char *name, void *(*alloc)(size_t size))
{
    fileData_t *record = FS_GetDataForFile("xanim", name, "");
    if (!record)
        return engine_missing_xanim(name);
    if (!record->data.xanimParts) {
        XAnimParts *parts = alloc(sizeof *parts);
        memset(parts, 0, sizeof *parts);
        engine_asset(name, parts);
        record->data.xanimParts = parts;
    }
    return record->data.xanimParts;
}

/* ---- code positions and memory ----------------------------------------- */
qboolean ScriptCode_IsLoadedCodePos(const uint8_t *codePos) { (void)codePos; return 0; }
qboolean Scr_IsInDeveloperOpcodeMemory(const uint8_t *codePos) { (void)codePos; return 0; }
void *Hunk_AllocAlignInternal(size_t size, size_t alignment) { (void)alignment; return calloc(1, size); }
void Hunk_ClearTempMemoryHigh(void) {}
void *Hunk_AllocXAnimCreateTree(size_t size) { return calloc(1, size); }
void *MT_Alloc(size_t size, int32_t tag) { (void)tag; return calloc(1, size); }
void MT_Free(void *data, size_t size) { (void)size; free(data); }

#endif
