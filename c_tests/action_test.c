// links: game
/* Test of the action-animation selector through its C API only
 * (uoanim_action.h + the library).  Prints one line per failure and
 * "N passed, M failed"; exits non-zero when something failed.
 *
 *   gcc [-m32] c_tests/action_test.c -I<header dir> libuoanim.a \
 *       -Wl,--gc-sections
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "uoanim_action.h"

static int passed, failed;

static void check(int ok, const char *what, int line)
{
    if (ok) {
        passed++;
    } else {
        failed++;
        printf("FAIL line %d: %s\n", line, what);
    }
}

#define CHECK(cond) check((cond) ? 1 : 0, #cond, __LINE__)
#define CHECK_INT(got, want)                                                        \
    do {                                                                            \
        long long g_ = (long long)(got), w_ = (long long)(want);                    \
        if (g_ != w_)                                                               \
            printf("  %s = %lld, expected %lld\n", #got, g_, w_);                   \
        check(g_ == w_, #got " == " #want, __LINE__);                               \
    } while (0)
#define CHECK_STR(got, want)                                                        \
    do {                                                                            \
        const char *g_ = (got), *w_ = (want);                                       \
        int ok_ = g_ != NULL && strcmp(g_, w_) == 0;                                \
        if (!ok_)                                                                   \
            printf("  %s = \"%s\", expected \"%s\"\n", #got, g_ ? g_ : "(null)", w_); \
        check(ok_, #got " == \"" #want "\"", __LINE__);                             \
    } while (0)

/* Name of the entry find() chooses ("(-1)" for -1). */
static const char *pick(const uoanim_action_table *t, int32_t type, float x, float y, float z, float speed)
{
    int32_t i = uoanim_action_find(t, type, x, y, z, speed);
    const char *name = uoanim_action_name(t, i);
    return i < 0 ? "(-1)" : name ? name : "(bad index)";
}

/* The resource's DefaultAnimation with the side animation split in two. */
static uoanim_action_table *kork(void)
{
    uoanim_action_table *t = uoanim_action_table_new();
    CHECK(t != NULL);
    CHECK_INT(uoanim_action_table_add(t, "root", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1), 0);
    CHECK_INT(uoanim_action_table_add(t, "run", UOANIM_ACTION_MOVE, 0, 1, 0, 0, 1), 1);
    CHECK_INT(uoanim_action_table_add(t, "back", UOANIM_ACTION_MOVE, 0, -1, 0, 0, 1), 2);
    CHECK_INT(uoanim_action_table_add(t, "sidel", UOANIM_ACTION_MOVE, -1, 0, 0, 0, 1), 3);
    CHECK_INT(uoanim_action_table_add(t, "sider", UOANIM_ACTION_MOVE, 1, 0, 0, 0, 1), 4);
    CHECK_INT(uoanim_action_table_add(t, "fall", UOANIM_ACTION_FALL, 0, 0, 0, 0, 1), 5);
    CHECK_INT(uoanim_action_table_add(t, "jump", UOANIM_ACTION_JUMP, 0, 1, 1, 0, 1), 6);
    CHECK_INT(uoanim_action_table_add(t, "land", UOANIM_ACTION_LAND, 0, 0, 0, 0, 1), 7);
    return t;
}

static void test_null_safety(void)
{
    char err[64];
    uoanim_action_table_free(NULL);
    CHECK_INT(uoanim_action_table_add(NULL, "a", UOANIM_ACTION_MOVE, 0, 1, 0, 0, 1), -1);
    CHECK_INT(uoanim_action_table_count(NULL), -1);
    CHECK_INT(uoanim_action_table_root(NULL), -1);
    strcpy(err, "unchanged");
    CHECK_INT(uoanim_action_table_parse(NULL, "a move", err, sizeof err), -1);
    CHECK(strcmp(err, "unchanged") != 0 && strlen(err) > 0);
    CHECK_INT(uoanim_action_table_parse(NULL, NULL, NULL, 0), -1);
    CHECK_INT(uoanim_action_find(NULL, UOANIM_ACTION_MOVE, 0, 1, 0, 1), -1);
    CHECK(uoanim_action_name(NULL, 0) == NULL);

    uoanim_action_table *t = uoanim_action_table_new();
    CHECK(t != NULL);
    CHECK_INT(uoanim_action_table_add(t, NULL, UOANIM_ACTION_MOVE, 0, 1, 0, 0, 1), -1);
    strcpy(err, "unchanged");
    CHECK_INT(uoanim_action_table_parse(t, NULL, err, sizeof err), -1);
    CHECK(strcmp(err, "unchanged") != 0 && strlen(err) > 0);
    CHECK_INT(uoanim_action_table_parse(t, "a move", NULL, 0), 1);
    CHECK_INT(uoanim_action_table_parse(t, "bad", NULL, 99), -1);
    CHECK_INT(uoanim_action_table_count(t), 1);
    uoanim_action_table_free(t);
}

static void test_empty_table(void)
{
    uoanim_action_table *t = uoanim_action_table_new();
    CHECK(t != NULL);
    CHECK_INT(uoanim_action_table_count(t), 0);
    CHECK_INT(uoanim_action_table_root(t), 0);
    /* No root entry: the root action is 0, even in an empty table. */
    CHECK_INT(uoanim_action_find(t, UOANIM_ACTION_MOVE, 0, 1, 0, 1), 0);
    CHECK(uoanim_action_name(t, 0) == NULL);
    CHECK(uoanim_action_name(t, -1) == NULL);
    uoanim_action_table_free(t);
}

static void test_worked_examples(void)
{
    uoanim_action_table *t = kork();
    CHECK_INT(uoanim_action_table_count(t), 8);
    CHECK_INT(uoanim_action_table_root(t), 0);
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0), "run");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, -1, 0, 0), "back");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, -1, 0, 0, 0), "sidel");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 1, 0, 0, 0), "sider");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 9.5f, 0, 0.7f), "run");
    CHECK_STR(pick(t, UOANIM_ACTION_FALL, 0, 1, 0, 0), "fall");
    CHECK_STR(pick(t, UOANIM_ACTION_LAND, 0, 0, 0, 0), "root");
    CHECK_STR(pick(t, UOANIM_ACTION_LAND, 1, 0, 0, 0), "land");

    /* Jumping straight up when not moving. */
    CHECK_INT(uoanim_action_table_add(t, "standjump", UOANIM_ACTION_JUMP, 0, 0, 1, 0, 1), 8);
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 0, 1, 0), "standjump");
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 1, 0, 0), "jump");
    uoanim_action_table_free(t);

    /* Walk at 0.2, run at 0.9, same direction. */
    t = uoanim_action_table_new();
    uoanim_action_table_add(t, "root", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1);
    uoanim_action_table_add(t, "run", UOANIM_ACTION_MOVE, 0, 1, 0, 1.0f, 1);
    uoanim_action_table_add(t, "walk", UOANIM_ACTION_MOVE, 0, 1, 0, 0.1f, 1);
    uoanim_action_table_add(t, "back", UOANIM_ACTION_MOVE, 0, -1, 0, 0, 1);
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.2f), "walk");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.9f), "run");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0), "run");
    uoanim_action_table_free(t);
}

static void test_consequences(void)
{
    uoanim_action_table *t = kork();
    /* Zero direction and zero speed: the root action. */
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 0, 0, 0), "root");
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 0, 0, 0), "root");
    /* Unknown type: no candidate, the root action. */
    CHECK_STR(pick(t, -1, 0, 1, 0, 1), "root");
    CHECK_STR(pick(t, 6, 0, 1, 0, 1), "root");
    /* Non-finite queries are refused. */
    CHECK_INT(uoanim_action_find(t, UOANIM_ACTION_MOVE, NAN, 1, 0, 0), -1);
    CHECK_INT(uoanim_action_find(t, UOANIM_ACTION_MOVE, 0, INFINITY, 0, 0), -1);
    CHECK_INT(uoanim_action_find(t, UOANIM_ACTION_MOVE, 0, 1, 0, -INFINITY), -1);
    CHECK_INT(uoanim_action_find(t, UOANIM_ACTION_MOVE, 0, 1, 0, NAN), -1);
    uoanim_action_table_free(t);

    /* Omnidirectional entries survive the cull and can win on speed. */
    t = uoanim_action_table_new();
    uoanim_action_table_add(t, "root", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1);
    uoanim_action_table_add(t, "run", UOANIM_ACTION_MOVE, 0, 1, 0, 1.0f, 1);
    uoanim_action_table_add(t, "shuffle", UOANIM_ACTION_MOVE, 0, 0, 0, 0.25f, 1);
    uoanim_action_table_add(t, "back", UOANIM_ACTION_MOVE, 0, -1, 0, 1.0f, 1);
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.25f), "shuffle");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.9f), "run");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0), "run");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 1, 0, 0, 0), "shuffle");
    uoanim_action_table_free(t);

    /* Ties keep the earlier candidate (direction and speed). */
    t = uoanim_action_table_new();
    uoanim_action_table_add(t, "root", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1);
    uoanim_action_table_add(t, "first", UOANIM_ACTION_MOVE, 0, 1, 0, 0.5f, 1);
    uoanim_action_table_add(t, "second", UOANIM_ACTION_MOVE, 0, 3, 0, 0.5f, 1);
    uoanim_action_table_add(t, "third", UOANIM_ACTION_MOVE, 0, 1, 0, 1.5f, 1);
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0), "first");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.5f), "first");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 1.0f), "first");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 1.25f), "third");
    uoanim_action_table_free(t);

    /* The last candidate standing is taken, even without a sequence. */
    t = uoanim_action_table_new();
    uoanim_action_table_add(t, "root", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1);
    uoanim_action_table_add(t, "ghost", UOANIM_ACTION_MOVE, 0, 1, 0, 0, 0);
    uoanim_action_table_add(t, "back", UOANIM_ACTION_MOVE, 0, -1, 0, 0, 1);
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0), "ghost");
    /* ... but entries without a sequence never win on speed. */
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 0, 0, 1), "back");
    uoanim_action_table_free(t);
}

static void test_limits(void)
{
    char name[80];
    int i;
    uoanim_action_table *t = uoanim_action_table_new();
    CHECK_INT(uoanim_action_table_add(t, "", UOANIM_ACTION_MOVE, 0, 1, 0, 0, 1), -1);
    memset(name, 'n', sizeof name);
    name[64] = '\0';
    CHECK_INT(uoanim_action_table_add(t, name, UOANIM_ACTION_MOVE, 0, 1, 0, 0, 1), -1);
    name[63] = '\0';
    CHECK_INT(uoanim_action_table_add(t, name, UOANIM_ACTION_MOVE, 0, 1, 0, 0, 1), 0);
    CHECK_STR(uoanim_action_name(t, 0), name);
    CHECK_INT(uoanim_action_table_add(t, "t", -1, 0, 1, 0, 0, 1), -1);
    CHECK_INT(uoanim_action_table_add(t, "t", 6, 0, 1, 0, 0, 1), -1);
    CHECK_INT(uoanim_action_table_add(t, "t", UOANIM_ACTION_OTHER, 0, 1, 0, 0, 1), 1);
    CHECK_INT(uoanim_action_table_add(t, "f", UOANIM_ACTION_MOVE, NAN, 1, 0, 0, 1), -1);
    CHECK_INT(uoanim_action_table_add(t, "f", UOANIM_ACTION_MOVE, 0, 1, INFINITY, 0, 1), -1);
    CHECK_INT(uoanim_action_table_add(t, "f", UOANIM_ACTION_MOVE, 0, 1, 0, NAN, 1), -1);
    CHECK_INT(uoanim_action_table_add(t, "f", UOANIM_ACTION_MOVE, 0, 1, 0, -INFINITY, 1), -1);
    CHECK_INT(uoanim_action_table_count(t), 2);
    CHECK(uoanim_action_name(t, 2) == NULL);

    /* Fill to 128; the 129th is refused and changes nothing. */
    for (i = 2; i < UOANIM_ACTION_MAX_ENTRIES; i++) {
        snprintf(name, sizeof name, "e%d", i);
        if (uoanim_action_table_add(t, name, i == 77 ? UOANIM_ACTION_ROOT : UOANIM_ACTION_JUMP, 0, 1, 0,
                                    (float)i, 1) != i)
            break;
    }
    CHECK_INT(i, 128);
    CHECK_INT(uoanim_action_table_count(t), 128);
    CHECK_INT(uoanim_action_table_add(t, "extra", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1), -1);
    CHECK_INT(uoanim_action_table_parse(t, "extra root", NULL, 0), -1);
    CHECK_INT(uoanim_action_table_count(t), 128);
    CHECK_INT(uoanim_action_table_root(t), 77);
    CHECK_STR(uoanim_action_name(t, 127), "e127");
    CHECK(uoanim_action_name(t, 128) == NULL);
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 1, 0, 100.2f), "e100");
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 0, 0, 0), "e77");
    uoanim_action_table_free(t);
}

static void test_normalisation(void)
{
    uoanim_action_table *t = uoanim_action_table_new();
    uoanim_action_table_add(t, "root", UOANIM_ACTION_ROOT, 0, 0, 0, 0, 1);
    /* Stored directions are unit vectors: (0,0,1) and (0,0,7) tie, so the
     * earlier one is kept, and (0,5,5) loses to both straight up. */
    uoanim_action_table_add(t, "diag", UOANIM_ACTION_JUMP, 0, 5, 5, 0, 1);
    uoanim_action_table_add(t, "up1", UOANIM_ACTION_JUMP, 0, 0, 1, 0, 1);
    uoanim_action_table_add(t, "up7", UOANIM_ACTION_JUMP, 0, 0, 7, 0, 1);
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 0, 0.001f, 0), "up1");
    /* Huge and tiny query directions are normalised too. */
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 1e30f, 1e30f, 0), "diag");
    CHECK_STR(pick(t, UOANIM_ACTION_JUMP, 0, 1e-30f, 0, 0), "diag");
    uoanim_action_table_free(t);
}

static void test_parse(void)
{
    static const char text[] =
        "# DefaultAnimation, with speeds\n"
        "root  Root\n"
        "run   Move dir 0 1 0 speed 1.0\n"
        "walk  move dir 0 1 0 speed 0.1   // the back animation, for now\n"
        "back  MOVE dir 0 -1 0\r\n"
        "\n"
        "sidel Move dir -1 0 0\n"
        "sider Move speed 0 dir 1 0 0\n"
        "fall  Fall\n"
        "jump  Jump dir 0 1 1\n"
        "land  Land\n"
        "look  Other nosequence\n";
    char err[128];
    char small[8];
    uoanim_action_table *t = uoanim_action_table_new();

    strcpy(err, "stale");
    CHECK_INT(uoanim_action_table_parse(t, text, err, sizeof err), 10);
    CHECK_STR(err, "");
    CHECK_INT(uoanim_action_table_count(t), 10);
    CHECK_STR(uoanim_action_name(t, 2), "walk");
    CHECK_STR(uoanim_action_name(t, 9), "look");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.2f), "walk");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 0, 1, 0, 0.9f), "run");
    CHECK_STR(pick(t, UOANIM_ACTION_MOVE, 1, 0, 0, 0.9f), "sider");
    CHECK_STR(pick(t, UOANIM_ACTION_OTHER, 0, 0, 0, 1), "root");
    CHECK_INT(uoanim_action_table_parse(t, "", err, sizeof err), 0);
    CHECK_INT(uoanim_action_table_parse(t, "  # nothing\n\n", err, sizeof err), 0);

    /* A name pointer stays valid (and unchanged) after a failed parse. */
    const char *run = uoanim_action_name(t, 1);

    /* Errors: atomic, "line N: ...". */
    CHECK_INT(uoanim_action_table_parse(t, "a move\nb walk\n", err, sizeof err), -1);
    CHECK_STR(err, "line 2: unknown type 'walk'");
    CHECK_INT(uoanim_action_table_parse(t, "a move\n\n\nb move dir 1 0\n", err, sizeof err), -1);
    CHECK_STR(err, "line 4: 'dir' needs 3 numbers");
    CHECK_INT(uoanim_action_table_parse(t, "x", err, sizeof err), -1);
    CHECK_STR(err, "line 1: missing type (root, move, jump, fall, land or other)");
    CHECK_INT(uoanim_action_table_parse(t, "x move speed inf", err, sizeof err), -1);
    CHECK_STR(err, "line 1: number is not finite: 'inf'");
    CHECK_INT(uoanim_action_table_parse(t, "x move wobble", err, sizeof err), -1);
    CHECK_STR(err, "line 1: unexpected 'wobble'");
    CHECK_INT(uoanim_action_table_count(t), 10);
    CHECK(uoanim_action_name(t, 10) == NULL);
    CHECK(uoanim_action_name(t, 1) == run);
    CHECK_STR(run, "run");

    /* Truncated error text, always NUL-terminated; size 0 writes nothing. */
    memset(small, 'X', sizeof small);
    CHECK_INT(uoanim_action_table_parse(t, "a move\nb walk\n", small, sizeof small), -1);
    CHECK_STR(small, "line 2:");
    memset(small, 'X', sizeof small);
    CHECK_INT(uoanim_action_table_parse(t, "b walk", small, 1), -1);
    CHECK(small[0] == '\0' && small[1] == 'X');
    memset(small, 'X', sizeof small);
    CHECK_INT(uoanim_action_table_parse(t, "b walk", small, 0), -1);
    CHECK(small[0] == 'X');

    /* Appending to a table that would overflow is refused as a whole. */
    {
        static char many[128 * 16];
        int i;
        size_t len = 0;
        for (i = 0; i < 119; i++)
            len += (size_t)snprintf(many + len, sizeof many - len, "p%d other\n", i);
        CHECK_INT(uoanim_action_table_parse(t, many, err, sizeof err), -1);
        CHECK_STR(err, "line 119: too many entries (the table holds 128)");
        CHECK_INT(uoanim_action_table_count(t), 10);
        /* One line fewer fits exactly. */
        many[len - strlen("p118 other\n")] = '\0';
        CHECK_INT(uoanim_action_table_parse(t, many, err, sizeof err), 118);
        CHECK_INT(uoanim_action_table_count(t), 128);
    }
    uoanim_action_table_free(t);
}

int main(void)
{
    test_null_safety();
    test_empty_table();
    test_worked_examples();
    test_consequences();
    test_limits();
    test_normalisation();
    test_parse();
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
