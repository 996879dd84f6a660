/* replay.c — runs fuzz inputs through the harness functions without the
 * fuzzer: `replay TARGET PATH...`, every PATH a file or a directory of
 * files. Used by `make test` (the committed regression corpus, on the
 * stable toolchain, against the packaged units) and by `make memcheck`.
 * Built with the harness files of one flavour (UOANIM_FUZZ_PLAYERANIM or
 * UOANIM_FUZZ_ANIMTREE). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef int (*entry_fn)(const uint8_t *data, size_t size);
#if defined(UOANIM_FUZZ_PLAYERANIM)
int uoanim_fuzz_playeranim(const uint8_t *data, size_t size);
int uoanim_fuzz_action(const uint8_t *data, size_t size);
static const struct { const char *name; entry_fn fn; } targets[] = {
    {"playeranim", uoanim_fuzz_playeranim},
    {"action", uoanim_fuzz_action},
};
#else
int uoanim_fuzz_atr(const uint8_t *data, size_t size);
int uoanim_fuzz_xanim(const uint8_t *data, size_t size);
static const struct { const char *name; entry_fn fn; } targets[] = {
    {"atr", uoanim_fuzz_atr},
    {"xanim", uoanim_fuzz_xanim},
};
#endif

static int replay_file(entry_fn fn, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(2);
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *data = malloc(cap);
    size_t got;
    while ((got = fread(data + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap)
            data = realloc(data, cap *= 2);
    }
    fclose(f);
    fn(data, n);
    free(data);
    return 1;
}

static int compare(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int replay_path(entry_fn fn, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(fn, path);
    DIR *dir = opendir(path);
    char **names = NULL;
    size_t count = 0;
    for (struct dirent *e; dir && (e = readdir(dir));) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (count + 1) * sizeof *names);
        names[count] = malloc(strlen(path) + strlen(e->d_name) + 2);
        sprintf(names[count++], "%s/%s", path, e->d_name);
    }
    if (dir)
        closedir(dir);
    qsort(names, count, sizeof *names, compare);
    int done = 0;
    for (size_t i = 0; i < count; i++) {
        done += replay_path(fn, names[i]);
        free(names[i]);
    }
    free(names);
    return done;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: replay TARGET PATH...\n");
        return 2;
    }
    for (size_t t = 0; t < sizeof targets / sizeof targets[0]; t++) {
        if (strcmp(targets[t].name, argv[1]) != 0)
            continue;
        int done = 0;
        for (int i = 2; i < argc; i++)
            done += replay_path(targets[t].fn, argv[i]);
        printf("replay %s: %d inputs ran to completion\n", argv[1], done);
        return 0;
    }
    fprintf(stderr, "replay: unknown target %s\n", argv[1]);
    return 2;
}
