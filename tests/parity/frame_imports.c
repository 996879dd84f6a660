/* frame_imports.c -- the engine imports of the per-frame functions (stance,
 * conditions, controller lerps, slots: the bg-rest suite's) for the pa
 * instrument, which drives the other functions of the same link unit and
 * does not define them. Each is a contract violation there, as pa's own
 * unexpected imports are: it prints "!! unexpected import NAME" and exits
 * with status 5. scripts/ratchet.sh links this file into the pa driver
 * (PA_LDLIBS); -DPA_FLAVOUR_CGAME selects the cgame unit's imports. */
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>

static void frame_unexpected(const char *name)
{
    printf("!! unexpected import %s\n", name);
    fflush(stdout);
    exit(5);
}
#define FRAME_UNEXPECTED(name) void name(void) { frame_unexpected(#name); }

typedef struct { int32_t handle, modificationCount; float value; int32_t integer; char string[256]; } frame_vm_cvar;

FRAME_UNEXPECTED(BG_GetInfoForWeapon)
#if defined(PA_FLAVOUR_CGAME)
uint32_t cg_effectTime;
int32_t cg_effectAnimTime;
frame_vm_cvar cg_debuganim_vmCvar;
#else
struct { int32_t time, levelFrameTime, frameTime; } bg;
frame_vm_cvar bg_debugAnim;
FRAME_UNEXPECTED(trap_XAnimClearGoalWeight)
FRAME_UNEXPECTED(trap_XAnimGetTime)
FRAME_UNEXPECTED(trap_XAnimGetWeight)
FRAME_UNEXPECTED(trap_XAnimSetAnimRate)
FRAME_UNEXPECTED(trap_XAnimSetCompleteGoalWeight)
FRAME_UNEXPECTED(trap_XAnimSetCompleteGoalWeightKnobAll)
FRAME_UNEXPECTED(trap_XAnimSetTime)
#endif
