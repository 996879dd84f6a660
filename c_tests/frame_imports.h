/* frame_imports.h -- the game unit's imports of its per-frame functions
 * (stance, conditions, lerps, slots) for a test that does not call them: on
 * PE/COFF the unit is one code section, so a program that links it defines
 * every import. None is called: each aborts. Included by game_imports.h and
 * small_engine.h. */
#ifndef UOANIM_C_TESTS_FRAME_IMPORTS_H
#define UOANIM_C_TESTS_FRAME_IMPORTS_H

#include <stdint.h>
#include <stdlib.h>

#include "uoanim_playeranim.h"

struct { int32_t time, levelFrameTime, frameTime; } bg;
struct { int32_t handle, modificationCount; float value; int32_t integer; char string[256]; } bg_debugAnim;
void Com_Printf(const char *format, ...) { (void)format; abort(); }
const weaponInfo_t *BG_GetInfoForWeapon(int32_t weapon) { (void)weapon; abort(); }
float trap_XAnimGetWeight(void *tree, uint32_t anim) { (void)tree; (void)anim; abort(); }
float trap_XAnimGetTime(void *tree, uint32_t anim) { (void)tree; (void)anim; abort(); }
void trap_XAnimClearGoalWeight(void *tree, uint32_t anim, float blendTime) { (void)tree; (void)anim; (void)blendTime; abort(); }
void trap_XAnimSetCompleteGoalWeight(void *tree, uint32_t anim, float weight, float blendTime, float rate, uint16_t notifyName,
                                     qboolean restart)
{
    (void)tree; (void)anim; (void)weight; (void)blendTime; (void)rate; (void)notifyName; (void)restart; abort();
}
void trap_XAnimSetCompleteGoalWeightKnobAll(void *tree, uint32_t anim, uint32_t knob, float weight, float blendTime, float rate,
                                            uint16_t notifyName, qboolean restart)
{
    (void)tree; (void)anim; (void)knob; (void)weight; (void)blendTime; (void)rate; (void)notifyName; (void)restart; abort();
}
void trap_XAnimSetAnimRate(void *tree, uint32_t anim, float rate) { (void)tree; (void)anim; (void)rate; abort(); }
void trap_XAnimSetTime(void *tree, uint32_t anim, float time) { (void)tree; (void)anim; (void)time; abort(); }

#endif
