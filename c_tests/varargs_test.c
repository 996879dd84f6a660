// links: game
/* BG_AnimParseError, the one variadic export: its assembly entry builds the
 * target's va_list (System V x86_64: register save area; i386 and i686
 * Windows: the stack; Microsoft x64: the home area), the library formats
 * with the C library's vsnprintf and raises Com_Error, which longjmps back
 * here through the entry. The calls pass more arguments than any convention
 * has registers for, integers and doubles interleaved, so that every
 * argument class is read from registers and from the stack. The text is the
 * message between the "\x15" prefix of a parser error and the script path
 * and line (the module's, as freshly loaded). The C library formats: glibc
 * on Linux, mingw-w64's C99 vsnprintf on Windows, as the C original; the
 * %.1f of 8.25 (a tie, rounded to even) tells it from msvcrt's ("8.3"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GAME_IMPORTS_OWN_COM_ERROR
#include "game_imports.h"

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

static void expect(const char *what, const char *message)
{
    char want[4096];
    snprintf(want, sizeof want, "\x15%s: (mp/playeranim.script, line 2)", message);
    if (strcmp(error_text, want) == 0) {
        passed++;
    } else {
        failed++;
        printf("FAIL %s:\n  got  \"%s\"\n  want \"%s\"\n", what, error_text, want);
    }
}

#define RAISES(call, want)                                                   \
    do {                                                                     \
        error_text[0] = 0;                                                   \
        if (setjmp(error_jump) == 0) {                                       \
            call;                                                            \
            failed++;                                                        \
            printf("FAIL %s: returned\n", #call);                           \
        } else {                                                             \
            expect(#call, want);                                             \
        }                                                                    \
    } while (0)

int main(void)
{
    RAISES(BG_AnimParseError("plain"), "plain");
    RAISES(BG_AnimParseError("%d %s %c %x %u", 1, "two", '3', 0x44u, 5u), "1 two 3 44 5");
    RAISES(BG_AnimParseError("%d %d %d %d %d %d %d %d %d %d %d %d", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, -12),
           "1 2 3 4 5 6 7 8 9 10 11 -12");
    RAISES(BG_AnimParseError("%.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f %.1f", 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5,
                             8.25, 9.75),
           "0.5 1.5 2.5 3.5 4.5 5.5 6.5 7.5 8.2 9.8");
    RAISES(BG_AnimParseError("%d %.2f %s %.3f %d %.1f %c %.2f %d %.1f %s %.2f %d %.1f %d %.2f %d %.1f %d", 1, 2.25, "three",
                             4.125, 5, 6.5, '7', 8.75, 9, 10.5, "eleven", 12.25, 13, 14.5, 15, 16.75, 17, 18.5, 19),
           "1 2.25 three 4.125 5 6.5 7 8.75 9 10.5 eleven 12.25 13 14.5 15 16.75 17 18.5 19");
    printf("varargs_test: %d passed, %d failed\n", passed, failed);
    return failed != 0;
}
