/* game_imports.h — the game unit's engine imports for a test that calls
 * only the action API. On ELF the unit keeps each function in its own
 * section and a --gc-sections link drops what the test does not reach; a
 * PE/COFF unit (the Windows targets) is one code section, so a program that
 * links it defines every import, as the game module does. None of these is
 * called: each aborts (a test that expects Com_Error defines
 * GAME_IMPORTS_OWN_COM_ERROR and its own). Include it in exactly one file of
 * a test program. */
#ifndef UOANIM_C_TESTS_GAME_IMPORTS_H
#define UOANIM_C_TESTS_GAME_IMPORTS_H

#include <stdint.h>
#include <stdlib.h>

#include "uoanim_common.h"
#include "uoanim_playeranim.h"

bgs_t bgs;
bg_static_animation_table_t *bgAnimStaticTable;
bg_runtime_animation_t *bgRuntimeAnimations;
int32_t *bgRuntimeAnimationCount;
int32_t bg_numWeapons;
weaponInfo_t **bg_weaponInfos;

#ifndef GAME_IMPORTS_OWN_COM_ERROR /* a test that raises defines its own */
void Com_Error(int level, const char *format, ...) { (void)level; (void)format; abort(); }
#endif
int trap_FS_FOpenFile(const char *path, int *handle, int mode) { (void)path; (void)handle; (void)mode; abort(); }
void trap_FS_Read(void *buffer, int length, int handle) { (void)buffer; (void)length; (void)handle; abort(); }
void trap_FS_FCloseFile(int handle) { (void)handle; abort(); }
void Scr_FindAnim(const char *treeName, const char *animName, scr_anim_t *outAnim)
{
    (void)treeName; (void)animName; (void)outAnim; abort();
}
script_anim_tree_ref_t Scr_FindAnimTree(const char *treeName) { (void)treeName; abort(); }
uint32_t Scr_GetAnimsIndex(XAnim *anims) { (void)anims; abort(); }
int trap_XAnimGetAnimTreeSize(XAnim *anims) { (void)anims; abort(); }
qboolean trap_XAnimIsPrimitive(uint32_t anim) { (void)anim; abort(); }
const char *trap_XAnimGetAnimName(uint32_t anim) { (void)anim; abort(); }
int trap_XAnimGetLength(XAnim *anims, uint16_t animIndex) { (void)anims; (void)animIndex; abort(); }
qboolean trap_XAnimIsLooped(uint32_t anim) { (void)anim; abort(); }
void trap_XAnimGetRelDelta(uint32_t anim, float *rotationDelta, float *moveDelta, float startTime, float endTime)
{
    (void)anim; (void)rotationDelta; (void)moveDelta; (void)startTime; (void)endTime; abort();
}
int32_t coduo_glibc_randrange(int32_t minimum, int32_t maximum) { (void)minimum; (void)maximum; abort(); }

#endif
