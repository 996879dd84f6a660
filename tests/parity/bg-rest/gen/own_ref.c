/* own_ref.c -- the float values of the own bg-rest cases (gen_own.py), computed
 * from the documented behaviour of the per-frame functions, compiled with each
 * build's flags (gen_own.py's BUILDS) so that the compiler makes the same x87 /
 * SSE steps the C original's build makes:
 *
 *   rate  LINUX|WINDOWS LO0 LO1 LO2 TB0 TB1 TB2 ELAPSED MOVESPEED
 *         the rate BG_RunLerpFrameRate sets from a slot's lastOrigin and an
 *         entity's trBase (VectorDistance, then distance / (elapsed * 0.001)
 *         / moveSpeed, then the caps), as bits
 *   blend BLENDTIME      (float)blendTime * 0.001f, as bits
 *   pass  BITS           a float handed to a function, as the callee sees it
 *   returned BITS        a float returned by a function (the cgame's trap
 *                        veneer), stored by the caller and handed on
 *
 * Written for the cases, not taken from the original's code: VectorDistance's
 * Linux body is the x87 sequence PROTOCOL.md and docs/ABI.md describe (each
 * difference `second - first` with `first` the subtraction's memory operand,
 * squares as register times memory, the sum stored to a double, glibc's sqrt),
 * the Windows body the float differences `first - second` of C, then the x87
 * sum z, y, x and fsqrt. Numbers in and out are hexadecimal bit patterns. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* a bit pattern into a float object (no float value is returned through a
 * register on the way: that can quiet a signalling NaN) */
static void set(float *f, const char *s) { uint32_t b = (uint32_t)strtoul(s, 0, 16); memcpy(f, &b, 4); }
static uint32_t bits_of(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

static float distance_linux(const float *first, const float *second)
{
#if defined(__i386__) || defined(__x86_64__)
    float dx, dy, dz;
    double sum;
    __asm__ __volatile__("flds %[sx]\n\tfsubs %[fx]\n\tfstps %[dx]\n\t"
                         "flds %[sy]\n\tfsubs %[fy]\n\tfstps %[dy]\n\t"
                         "flds %[sz]\n\tfsubs %[fz]\n\tfstps %[dz]\n\t"
                         "flds %[dx]\n\tfmuls %[dx]\n\tflds %[dy]\n\tfmuls %[dy]\n\tfaddp %%st, %%st(1)\n\t"
                         "flds %[dz]\n\tfmuls %[dz]\n\tfaddp %%st, %%st(1)\n\tfstpl %[sum]"
                         : [dx] "=&m"(dx), [dy] "=&m"(dy), [dz] "=&m"(dz), [sum] "=m"(sum)
                         : [fx] "m"(first[0]), [fy] "m"(first[1]), [fz] "m"(first[2]),
                           [sx] "m"(second[0]), [sy] "m"(second[1]), [sz] "m"(second[2])
                         : "st", "st(1)", "memory");
    return (float)sqrt(sum);
#else
#error "x86 only"
#endif
}

static float distance_windows(const float *first, const float *second)
{
    const float dx = first[0] - second[0];
    const float dy = first[1] - second[1];
    const float dz = first[2] - second[2];
    float result;
    __asm__ __volatile__("flds %[z]\n\tfmuls %[z]\n\tflds %[y]\n\tfmuls %[y]\n\tfaddp %%st, %%st(1)\n\t"
                         "flds %[x]\n\tfmuls %[x]\n\tfaddp %%st, %%st(1)\n\tfsqrt\n\tfstps %[r]"
                         : [r] "=m"(result)
                         : [x] "m"(dx), [y] "m"(dy), [z] "m"(dz)
                         : "st", "st(1)", "memory");
    return result;
}

static float rate_of(int windows, float distance, int elapsed, int moveSpeed)
{
    float speed, rate;
    if (windows) {
        speed = (float)((double)distance / ((double)elapsed * (double)0.001f));
        rate = (float)((double)speed / (double)moveSpeed);
    } else {
        speed = (float)((long double)distance / ((long double)elapsed * (long double)0.001f));
        rate = (float)((long double)speed / (long double)moveSpeed);
    }
    /* the caps of a moving, not vertical entry */
    if (rate < 0.1f) {
        rate = 0.1f;
    } else if (rate > 2.0f) {
        if (moveSpeed >= 151) rate = 2.0f;
        else if (moveSpeed < 20) { if (rate > 3.0f) rate = 3.0f; }
        else {
            const float maxRate = 3.0f - (float)(moveSpeed - 20) / 130.0f;
            if (rate > maxRate) rate = maxRate;
        }
    }
    return rate;
}

/* a float argument, as the callee receives it */
__attribute__((noinline)) static uint32_t received(float v) { return bits_of(v); }
/* a float result, as the callee returns it */
__attribute__((noinline)) static float returning(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }

int main(int argc, char **argv)
{
    if (argc == 11 && !strcmp(argv[1], "rate")) {
        const int windows = !strcmp(argv[2], "WINDOWS");
        float lo[3], tb[3];
        for (int i = 0; i < 3; ++i) { set(&lo[i], argv[3 + i]); set(&tb[i], argv[6 + i]); }
        const float d = windows ? distance_windows(lo, tb) : distance_linux(lo, tb);
        const float rate = rate_of(windows, d, atoi(argv[9]), atoi(argv[10]));
        printf("%08x\n", (unsigned)received(rate));
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "blend")) {
        const int blend = (int)strtol(argv[2], 0, 0);
        printf("%08x\n", (unsigned)bits_of((float)blend * 0.001f));
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "pass")) {
        float v;
        set(&v, argv[2]);
        printf("%08x\n", (unsigned)received(v));
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "returned")) {
        float v = 0.0f;
        v = returning((uint32_t)strtoul(argv[2], 0, 16));
        printf("%08x\n", (unsigned)received(v));
        return 0;
    }
    fprintf(stderr, "usage: own_ref rate|blend|pass|returned ...\n");
    return 2;
}
