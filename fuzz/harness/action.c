/* action.c — fuzz harness of the action-animation selector (game, cgame):
 *
 *   uoanim_fuzz_action  input: the action-table text (up to a NUL), then
 *                       table operations and finds: the text is parsed into
 *                       a fresh table (and again, all or nothing), entries
 *                       are added with values from the input (non-finite
 *                       ones included), and finds and name look-ups query
 *                       the result. */
#define FZ_NO_ENGINE_ERRORS /* the selector calls no engine function */
#include "common.h"
#include "uoanim_action.h"

#include <math.h>

static volatile uintptr_t sink;

static float fz_float(fz_input *in)
{
    static const float values[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, 1e-40f, 1e38f, 3.4e38f, INFINITY, -INFINITY, NAN,
                                   0.70710677f, 2.0f, 10.0f, -7.25f};
    uint8_t b = fz_u8(in);
    if (b < 0xf0)
        return values[b % (sizeof values / sizeof values[0])];
    uint32_t bits = fz_u32(in);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

int uoanim_fuzz_action(const uint8_t *data, size_t size)
{
    fz_input in = {data, size, 0};
    char *text = fz_text(&in);
    char error[96];
    struct uoanim_action_table *table = uoanim_action_table_new();
    sink += (uintptr_t)uoanim_action_table_parse(table, text, error, fz_u8(&in) % sizeof error);
    sink += (uintptr_t)uoanim_action_table_parse(table, text, error, sizeof error);
    sink += (uintptr_t)uoanim_action_table_parse(NULL, text, error, sizeof error);
    sink += (uintptr_t)uoanim_action_table_parse(table, NULL, NULL, 0);
    for (int op = 0; op < 300 && fz_more(&in); op++) {
        uint8_t o = fz_u8(&in);
        switch (o % 4) {
        case 0: {
            char name[80];
            size_t n = fz_u8(&in) % sizeof name;
            for (size_t i = 0; i < n; i++)
                name[i] = (char)('a' + fz_u8(&in) % 27);
            name[n] = 0;
            sink += (uintptr_t)uoanim_action_table_add(table, (o & 0x10) ? NULL : name, fz_int(&in), fz_float(&in),
                                                       fz_float(&in), fz_float(&in), fz_float(&in), fz_u8(&in) & 1);
            break;
        }
        case 1:
        case 2: {
            int32_t kind = fz_int(&in);
            float x = fz_float(&in), y = fz_float(&in), z = fz_float(&in), s = fz_float(&in);
            int32_t found = uoanim_action_find((o & 0x20) ? NULL : table, kind, x, y, z, s);
            const char *name = uoanim_action_name(table, found);
            sink += (uintptr_t)found + (name ? strlen(name) : 0);
            break;
        }
        case 3:
            sink += (uintptr_t)uoanim_action_table_count(table) + (uintptr_t)uoanim_action_table_root(table);
            sink += (uintptr_t)uoanim_action_name(table, fz_int(&in));
            break;
        }
    }
    uoanim_action_table_free(table);
    uoanim_action_table_free(NULL);
    free(text);
    return 0;
}
