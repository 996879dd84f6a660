/* engine_services.c -- the engine services the engine and client units
 * import, as the contrib test's stand-ins: errors that print and exit, and
 * the services every C test shares (c_tests/engine_services.h: script
 * strings, one in-memory .atr, here "animtrees/uo_test.atr", synthetic xanim
 * assets and allocators). gen_layout.py puts it, the shared header written
 * in, under the engine's name of the file that holds these services; every
 * other import of the unit gets an empty stand-in. */
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

#define ENGINE_TREE_NAME "uo_test"
#define ENGINE_TREE_TEXT "// the contrib test's tree\nuo_pose_a\nuo_pose_b\n"
#define ENGINE_MAX_ASSETS 8
#include "engine_services.h"

static void engine_asset(const char *name, XAnimParts *parts)
{
    (void)name;
    parts->frameCountMinusOne = 10;
    parts->frameRate = 20.0f;
}

static XAnimParts *engine_missing_xanim(const char *name)
{
    (void)name;
    return NULL;
}
