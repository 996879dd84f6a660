/* BG_AnimParseError's entry under Apple's arm64 convention, on aarch64
 * Linux: the game unit built with the `apple-variadic` feature (Apple's
 * entry, which takes every variadic argument from the stack) is called by
 * an assembly caller that does what an Apple compiler does for a variadic
 * call: the format in x0, each variadic argument in an 8-byte stack slot
 * from sp on, integers, pointers and doubles alike, no register. The
 * checks are those of ../varargs_test.c: the library formats with the C
 * library's vsnprintf and raises Com_Error, which longjmps back here. Run
 * by run.sh (make test-darwin) under qemu-aarch64. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define GAME_IMPORTS_OWN_COM_ERROR
#include "game_imports.h"

/* apple_call(format, words, count): BG_AnimParseError(format, ...) with the
 * count words as its variadic arguments, on the stack as Apple passes them */
void apple_call(const char *format, const uint64_t *words, uint64_t count);
__asm__(
    ".text\n"
    ".globl apple_call\n"
    ".type apple_call, %function\n"
    "apple_call:\n"
    "    stp x29, x30, [sp, #-16]!\n"
    "    mov x29, sp\n"
    "    add x9, x2, #1\n"          /* slots, rounded up to 16 bytes */
    "    and x9, x9, #~1\n"
    "    sub sp, sp, x9, lsl #3\n"
    "    mov x10, #0\n"
    "1:  cmp x10, x2\n"
    "    b.hs 2f\n"
    "    ldr x11, [x1, x10, lsl #3]\n"
    "    str x11, [sp, x10, lsl #3]\n"
    "    add x10, x10, #1\n"
    "    b 1b\n"
    "2:  mov x1, #0x5a5a\n"          /* garbage in the registers Apple leaves unused */
    "    mov x2, #0x5a5a\n"
    "    mov x3, #0x5a5a\n"
    "    fmov d0, x1\n"
    "    bl BG_AnimParseError\n"
    "    mov sp, x29\n"
    "    ldp x29, x30, [sp], #16\n"
    "    ret\n"
    ".size apple_call, .-apple_call\n");

static jmp_buf error_jump;
static int error_level;
static char error_text[4096];

void Com_Error(int level, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    error_level = level;
    vsnprintf(error_text, sizeof error_text, format, args);
    va_end(args);
    longjmp(error_jump, 1);
}

static int passed, failed;

static uint64_t I(int64_t v) { return (uint64_t)v; }
static uint64_t P(const void *p) { return (uint64_t)(uintptr_t)p; }
static uint64_t D(double d) { uint64_t w; memcpy(&w, &d, sizeof w); return w; }

static void check(const char *format, const uint64_t *words, uint64_t count, const char *message)
{
    char want[4096];
    snprintf(want, sizeof want, "\x15%s: (mp/playeranim.script, line 2)", message);
    error_text[0] = 0;
    if (setjmp(error_jump) == 0) {
        apple_call(format, words, count);
        failed++;
        printf("FAIL \"%s\": returned\n", format);
        return;
    }
    if (strcmp(error_text, want) == 0) {
        passed++;
    } else {
        failed++;
        printf("FAIL \"%s\":\n  got  \"%s\"\n  want \"%s\"\n", format, error_text, want);
    }
}

#define CHECK(format, want, ...)                                                        \
    do {                                                                                \
        const uint64_t words[] = {0, __VA_ARGS__};                                      \
        check(format, words + 1, sizeof words / sizeof words[0] - 1, want);             \
    } while (0)

int main(void)
{
    check("plain", NULL, 0, "plain");
    CHECK("%d %s %c %x %u", "1 two 3 44 5", I(1), P("two"), I('3'), I(0x44), I(5));
    CHECK("%d %d %d %d %d %d %d %d %d %d %d %d", "1 2 3 4 5 6 7 8 9 10 11 -12", I(1), I(2), I(3), I(4), I(5), I(6),
          I(7), I(8), I(9), I(10), I(11), I(-12));
    CHECK("%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f", "0.5 1.5 2.5 3.5 4.5 5.5 6.5 7.5 8.2 9.8", D(0.5),
          D(1.5), D(2.5), D(3.5), D(4.5), D(5.5), D(6.5), D(7.5), D(8.25), D(9.75));
    CHECK("%d %.2f %s %.3f %d %.1f %c %.2f %d %.1f %s %.2f %d %.1f %d %.2f %d %.1f %d",
          "1 2.25 three 4.125 5 6.5 7 8.75 9 10.5 eleven 12.25 13 14.5 15 16.75 17 18.5 19", I(1), D(2.25),
          P("three"), D(4.125), I(5), D(6.5), I('7'), D(8.75), I(9), D(10.5), P("eleven"), D(12.25), I(13),
          D(14.5), I(15), D(16.75), I(17), D(18.5), I(19));
    printf("varargs_apple: %d passed, %d failed\n", passed, failed);
    return failed != 0 || passed != 5;
}
