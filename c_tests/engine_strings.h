/* engine_strings.h -- the script strings the animation-tree units import,
 * as the stand-in every C test of the project shares (engine_services.h,
 * and the fuzz harness, whose files and assets come from its input):
 * interned strings (ENGINE_MAX_STRINGS of them, 64 by default), canonical
 * file names as the engine makes them (lower case, '\\' read as '/', no
 * leading or repeated '/') and identifiers. Past its strings, or for a name
 * longer than 1023 bytes, it raises the engine's error through Com_Error,
 * which the includer defines. Include it in exactly one file of a program. */
#ifndef UOANIM_C_TESTS_ENGINE_STRINGS_H
#define UOANIM_C_TESTS_ENGINE_STRINGS_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "uoanim_common.h"

#ifndef ENGINE_MAX_STRINGS
#define ENGINE_MAX_STRINGS 64
#endif

void Com_Error(int level, const char *format, ...);

static char *strings[ENGINE_MAX_STRINGS];
static int string_count;

static uint16_t intern(const char *text)
{
    for (int i = 0; i < string_count; i++)
        if (strcmp(strings[i], text) == 0)
            return (uint16_t)(i + 1);
    if (string_count == ENGINE_MAX_STRINGS)
        Com_Error(1, "\x15" "string table full");
    strings[string_count] = strdup(text);
    return (uint16_t)++string_count;
}

const char *SL_ConvertToString(uint16_t handle)
{
    return handle && handle <= string_count ? strings[handle - 1] : "";
}

uint16_t Scr_CreateCanonicalFilename(const char *filename)
{
    char out[1024];
    size_t n = 0;
    if (strlen(filename) >= sizeof out)
        Com_Error(1, "\x15" "Filename '%s' exceeds maximum length of %d", filename, (int)sizeof out);
    for (const char *p = filename; *p; p++) {
        char c = *p;
        if (c == '\\')
            c = '/';
        if (c == '/' && (n == 0 || out[n - 1] == '/'))
            continue;
        out[n++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    out[n] = 0;
    return intern(out);
}

qboolean Scr_IsIdentifier(const char *text)
{
    for (; *text; text++)
        if (!((*text >= 'a' && *text <= 'z') || (*text >= 'A' && *text <= 'Z') || (*text >= '0' && *text <= '9') ||
              *text == '_'))
            return 0;
    return 1;
}

#endif
