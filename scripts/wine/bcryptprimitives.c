/* bcryptprimitives.c — a stand-in for the Windows DLL of that name, for
 * running the crate's Rust tests under Wine 8, which lacks it: the Rust
 * standard library of the test programs (not the shipped units, which have
 * no standard library) seeds its hash maps through ProcessPrng. Built by
 * scripts/wine/test-runner.sh; RtlGenRandom (advapi32's SystemFunction036)
 * gives the bytes. */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    return RtlGenRandom(data, (ULONG)length);
}
