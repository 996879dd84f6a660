/* common.h — what every fuzz harness shares: the engine's error functions
 * (they record the text and longjmp, as the engine's Com_Error does), the
 * RAISES wrapper that runs one library call under a setjmp, a reader over
 * the fuzz input, and a per-run arena for engine memory.
 *
 * A harness entry point (`uoanim_fuzz_*`) takes one input, returns the units
 * it uses to their freshly loaded state first (uoanim_*_reset), and keeps
 * calling the library after an error, as the engine does. The error
 * functions are defined in the file that includes this one, so one file per
 * program includes it without FZ_NO_ENGINE_ERRORS. */
#ifndef UOANIM_FUZZ_COMMON_H
#define UOANIM_FUZZ_COMMON_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uoanim_common.h"

/* ---- errors ------------------------------------------------------------- */
#if !defined(FZ_NO_ENGINE_ERRORS)
static jmp_buf *fz_error_jump;
static char fz_error_text[4096];
static unsigned fz_errors;

static void fz_raise(const char *format, va_list args)
{
    vsnprintf(fz_error_text, sizeof fz_error_text, format, args);
    fz_errors++;
    static int verbose = -1;
    if (verbose < 0)
        verbose = getenv("UOANIM_FUZZ_VERBOSE") != NULL;
    if (verbose)
        fprintf(stderr, "error: %s\n", fz_error_text);
    if (!fz_error_jump) {
        fprintf(stderr, "uoanim fuzz harness: engine error outside a guarded call: %s\n", fz_error_text);
        abort();
    }
    longjmp(*fz_error_jump, 1);
}

void Com_Error(int level, const char *format, ...)
{
    va_list args;
    (void)level;
    va_start(args, format);
    fz_raise(format, args);
}

/* Runs a statement; 1 when it raised an engine error. */
#define RAISES(stmt)                                                           \
    ({                                                                         \
        jmp_buf fz_here_;                                                      \
        int fz_raised_ = 0;                                                    \
        fz_error_jump = &fz_here_;                                             \
        if (setjmp(fz_here_) == 0) {                                           \
            stmt;                                                              \
        } else {                                                               \
            fz_raised_ = 1;                                                    \
        }                                                                      \
        fz_error_jump = NULL;                                                  \
        fz_raised_;                                                            \
    })
#endif

/* ---- input -------------------------------------------------------------- */
typedef struct {
    const uint8_t *data;
    size_t size, at;
} fz_input;

__attribute__((unused)) static int fz_more(const fz_input *in) { return in->at < in->size; }

__attribute__((unused)) static uint8_t fz_u8(fz_input *in) { return in->at < in->size ? in->data[in->at++] : 0; }

__attribute__((unused)) static uint16_t fz_u16(fz_input *in)
{
    uint16_t lo = fz_u8(in);
    return (uint16_t)(lo | (uint16_t)(fz_u8(in) << 8));
}

__attribute__((unused)) static uint32_t fz_u32(fz_input *in)
{
    uint32_t lo = fz_u16(in);
    return lo | ((uint32_t)fz_u16(in) << 16);
}

/* An int from a small table of interesting values or the input. */
__attribute__((unused)) static int32_t fz_int(fz_input *in)
{
    static const int32_t values[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 63, 64, 127, 128, 255, 511, 512, 513,
                                     65535, 65536, -1, -2, -128, INT32_MAX, INT32_MIN};
    uint8_t b = fz_u8(in);
    if (b < 0xf0)
        return values[b % (sizeof values / sizeof values[0])];
    return (int32_t)fz_u32(in);
}

/* The bytes up to the next NUL (or the end), as a fresh NUL-terminated copy. */
__attribute__((unused)) static char *fz_text(fz_input *in)
{
    size_t start = in->at;
    while (in->at < in->size && in->data[in->at] != 0)
        in->at++;
    size_t n = in->at - start;
    if (in->at < in->size)
        in->at++;
    char *text = malloc(n + 1);
    memcpy(text, in->data + start, n);
    text[n] = 0;
    return text;
}

/* ---- engine memory: freed at the end of each run ------------------------ */
#define FZ_MAX_BLOCKS 4096
static void *fz_blocks[FZ_MAX_BLOCKS];
static size_t fz_block_count;

__attribute__((unused)) static void *fz_alloc(size_t size)
{
    if (fz_block_count == FZ_MAX_BLOCKS || size > (64u << 20))
        return NULL;
    void *p = calloc(1, size ? size : 1);
    if (p)
        fz_blocks[fz_block_count++] = p;
    return p;
}

__attribute__((unused)) static void fz_free_all(void)
{
    for (size_t i = 0; i < fz_block_count; i++)
        free(fz_blocks[i]);
    fz_block_count = 0;
}

#endif
