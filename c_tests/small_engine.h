/* small_engine.h — a small in-memory engine for the C tests that link the
 * game unit and the engine unit into one program: everything the two units
 * import that they do not define for each other (errors with setjmp/longjmp,
 * strings, one .atr file, synthetic xanim assets, allocators, the game
 * module's globals and traps, a script file), plus the CHECK and RAISES
 * helpers. The game unit's Scr_FindAnim and Scr_FindAnimTree are the engine
 * unit's; its trap_XAnim* imports are answered from the engine unit's XAnim
 * queries, as the engine's own traps do. Include it in exactly one file of a
 * test program. */
#ifndef UOANIM_C_TESTS_SMALL_ENGINE_H
#define UOANIM_C_TESTS_SMALL_ENGINE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "uoanim_common.h"
#include "uoanim_playeranim.h"
#include "uoanim_animtree.h"
#include "engine_anim_side.h"

static int checks, failures;
#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        checks++;                                                          \
        if (!(cond)) {                                                     \
            failures++;                                                    \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                    \
            printf(__VA_ARGS__);                                           \
            printf("\n");                                                  \
        }                                                                  \
    } while (0)

/* ---- errors ------------------------------------------------------------ */
static jmp_buf *error_jump;
static int error_level;
static char error_text[4096];

static void raise_error(int level, const char *format, va_list args)
{
    error_level = level;
    vsnprintf(error_text, sizeof error_text, format, args);
    if (!error_jump) {
        printf("FAIL unexpected engine error outside a guarded call: %s\n", error_text);
        exit(1);
    }
    longjmp(*error_jump, 1);
}

void Com_Error(int level, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    raise_error(level, format, args);
}

void CompileError(uint32_t sourcePos, const char *format, ...)
{
    va_list args;
    (void)sourcePos;
    va_start(args, format);
    raise_error(1, format, args);
}

void CompileError2(uint8_t *codePos, const char *format, ...)
{
    va_list args;
    (void)codePos;
    va_start(args, format);
    raise_error(1, format, args);
}

/* Runs a statement; returns 1 when it raised an engine error. */
#define RAISES(stmt)                                                       \
    ({                                                                     \
        jmp_buf here;                                                      \
        int raised = 0;                                                    \
        error_jump = &here;                                                \
        error_text[0] = 0;                                                 \
        if (setjmp(here) == 0) {                                           \
            stmt;                                                          \
        } else {                                                           \
            raised = 1;                                                    \
        }                                                                  \
        error_jump = NULL;                                                 \
        raised;                                                            \
    })

/* ---- strings, files, assets, memory (engine unit imports) -------------- */
#define ENGINE_TREE_NAME "multiplayer"
#define ENGINE_TREE_TEXT                                                   \
    "// the test tree\n"                                                   \
    "torso\n{\n\tpt_idle\n}\n"                                            \
    "legs\n{\n\tpl_idle\n\tpl_run\n}\n"                                  \
    "turning\n{\n\tpl_turn\n}\n"                                          \
    "pb_jump\n"                                                            \
    "pb_unused_by_anyone\n"
#include "engine_services.h"

/* frames - 1 and rate of the test assets: length = frames / rate seconds */
static void asset_timing(const char *name, uint16_t *frames, float *rate)
{
    *frames = (uint16_t)(10 + strlen(name));
    *rate = 20.0f;
}

static void engine_asset(const char *name, XAnimParts *parts)
{
    asset_timing(name, &parts->frameCountMinusOne, &parts->frameRate);
    parts->looped = strcmp(name, "pl_run") == 0;
}

static XAnimParts *engine_missing_xanim(const char *name)
{
    Com_Error(1, "no xanim '%s'", name);
    return NULL;
}

static int tree_allocations;
__attribute__((unused)) static void *alloc_tree(size_t size)
{
    tree_allocations++;
    return calloc(1, size);
}

/* ---- the game module's side (game unit imports) ------------------------- */
bgs_t bgs;
bg_static_animation_table_t *bgAnimStaticTable;
bg_runtime_animation_t *bgRuntimeAnimations;
static int32_t runtime_count_zero;
int32_t *bgRuntimeAnimationCount = &runtime_count_zero;
int32_t bg_numWeapons;
weaponInfo_t **bg_weaponInfos;

static const char script_text[] =
    "DEFINES\n"
    "set movetype moving = run AND walk\n"
    "ANIMATIONS\n"
    "STATE COMBAT\n"
    "{\n"
    "\tidle\n\t{\n\t\tdefault\n\t\t{\n\t\t\tlegs pl_idle torso pt_idle\n\t\t}\n\t}\n"
    "\trun\n\t{\n\t\tmovetype moving\n\t\t{\n\t\t\tlegs pl_run\n\t\t}\n\t}\n"
    "}\n"
    "EVENTS\n"
    "jump\n{\n\tdefault\n\t{\n\t\tboth pb_jump sound jump_sound\n\t}\n}\n";
static size_t script_offset;

int trap_FS_FOpenFile(const char *path, int *handle, int mode)
{
    (void)mode;
    if (strcmp(path, "mp/playeranim.script") != 0) {
        *handle = 0;
        return -1;
    }
    *handle = 1;
    script_offset = 0;
    return (int)strlen(script_text);
}

void trap_FS_Read(void *buffer, int length, int handle)
{
    (void)handle;
    memcpy(buffer, script_text + script_offset, (size_t)length);
    script_offset += (size_t)length;
}

void trap_FS_FCloseFile(int handle) { (void)handle; }

static XAnim *the_tree;
uint32_t Scr_GetAnimsIndex(XAnim *anims) { return engine_get_anims_index(anims); }
int trap_XAnimGetAnimTreeSize(XAnim *anims) { return XAnimGetAnimTreeSize(anims); }
qboolean trap_XAnimIsPrimitive(uint32_t anim) { return XAnimIsPrimitive(the_tree, (int32_t)(anim & 0xffff)); }
const char *trap_XAnimGetAnimName(uint32_t anim) { return XAnimGetAnimName(the_tree, (int32_t)(anim & 0xffff)); }
int trap_XAnimGetLength(XAnim *anims, uint16_t animIndex) { return (int)(XAnimGetLength(anims, animIndex) * 1000); }
qboolean trap_XAnimIsLooped(uint32_t anim) { return XAnimIsLooped(the_tree, (int32_t)(anim & 0xffff)); }
void trap_XAnimGetRelDelta(uint32_t anim, float *rotationDelta, float *moveDelta, float startTime, float endTime)
{
    (void)startTime;
    (void)endTime;
    rotationDelta[0] = rotationDelta[1] = 0;
    moveDelta[0] = moveDelta[1] = moveDelta[2] = 0;
    if (strcmp(XAnimGetAnimName(the_tree, (int32_t)(anim & 0xffff)), "pl_run") == 0)
        moveDelta[0] = 120.0f;
}

static int draws;
int32_t coduo_glibc_randrange(int32_t minimum, int32_t maximum)
{
    draws++;
    (void)maximum;
    return minimum;
}

/* The alias callback: the name itself (as a game may return what it is
 * given). It counts the names it is handed on the stack, between its own
 * frame and `stack_top` (an address in main's frame, set by the test):
 * memory that does not outlive the parse the call comes from. */
static uintptr_t stack_top;
static int aliases_on_stack;
__attribute__((unused)) static const char *alias(const char *name)
{
    char here;
    uintptr_t p = (uintptr_t)name;
    if (stack_top && p > (uintptr_t)&here && p < stack_top)
        aliases_on_stack++;
    return name;
}
/* the alias is the name itself (as a game may return what it is given); the
 * event callback keeps the last name it was handed */
static char last_sound[64];
__attribute__((unused)) static void sound_event(int clientNum, const char *name)
{
    (void)clientNum;
    snprintf(last_sound, sizeof last_sound, "%s", name ? name : "(null)");
}


#endif
