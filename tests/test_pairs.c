/* test_pairs.c - demos/pairs.txt, the catalog's lesson pairs that scripts/gpu-verdicts.sh times
 * on a GPU: every line names two different catalog descriptions, a sizes field that is "-" or
 * NAME=number words naming parameters of one of them, and a lesson; every family with more than
 * one variant has a pair. Runs from the repository root (reads demos/). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../common/desc.h"
#include "../common/files.h"

#define PAIRS "demos/pairs.txt"

static const ws_kernel_desc *find(const ws_catalog *c, const char *name, const ws_desc_file **file)
{
    for (int f = 0; f < c->nfiles; f++) {
        const ws_kernel_desc *d = ws_desc_find(c->files[f], name);
        if (d) {
            *file = c->files[f];
            return d;
        }
    }
    return NULL;
}

static int has_param(const ws_kernel_desc *d, const char *name, size_t len)
{
    for (int i = 0; i < d->nparams; i++)
        if (strlen(d->params[i].name) == len && strncmp(d->params[i].name, name, len) == 0)
            return 1;
    return 0;
}

/* A sizes field: "-", or NAME=digits joined by commas, each NAME a parameter of a or b. */
static int sizes_ok(const char *s, const ws_kernel_desc *a, const ws_kernel_desc *b)
{
    if (strcmp(s, "-") == 0)
        return 1;
    while (*s) {
        const char *name = s;
        if (!isalpha((unsigned char)*s) && *s != '_')
            return 0;
        while (isalnum((unsigned char)*s) || *s == '_') s++;
        size_t len = (size_t)(s - name);
        if (*s++ != '=' || !isdigit((unsigned char)*s))
            return 0;
        while (isdigit((unsigned char)*s)) s++;
        if (!has_param(a, name, len) && !has_param(b, name, len))
            return 0;
        if (*s == ',')
            s++;
        else if (*s)
            return 0;
    }
    return 1;
}

static void test_every_pair_names_two_catalog_descriptions_and_valid_sizes(void **state)
{
    (void)state;
    ws_catalog *c = NULL;
    ws_error err;
    memset(&err, 0, sizeof err);
    assert_int_equal(ws_catalog_load("demos", &c, &err), 0);
    char *text = ws_read_file(PAIRS, 0, NULL, &err);
    assert_non_null(text);

    int pairs = 0, bad = 0, lineno = 0;
    int paired[64] = {0};                  /* per catalog file: pairs drawn from it */
    assert_true(c->nfiles <= 64);
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');         /* not strtok: blank lines must count */
        if (next)
            *next++ = '\0';
        lineno++;
        while (*line == ' ' || *line == '\t') line++;
        if (*line == '#' || *line == '\0')
            continue;
        char a[128], b[128], sizes[256];
        int used = 0;
        if (sscanf(line, "%127s %127s %255s %n", a, b, sizes, &used) != 3 || line[used] == '\0') {
            print_error("%s:%d: want 'A B SIZES LESSON', got '%s'\n", PAIRS, lineno, line);
            bad++;
            continue;
        }
        const ws_desc_file *fa = NULL, *fb = NULL;
        const ws_kernel_desc *da = find(c, a, &fa), *db = find(c, b, &fb);
        if (!da || !db || strcmp(a, b) == 0) {
            print_error("%s:%d: '%s' / '%s': not two different catalog descriptions\n", PAIRS, lineno, a, b);
            bad++;
            continue;
        }
        if (!sizes_ok(sizes, da, db)) {
            print_error("%s:%d: sizes '%s': want '-' or NAME=number,... naming parameters of %s or %s\n",
                        PAIRS, lineno, sizes, a, b);
            bad++;
        }
        for (int f = 0; f < c->nfiles; f++)
            if (c->files[f] == fa || c->files[f] == fb)
                paired[f]++;
        pairs++;
    }
    /* The families whose variants differ in speed: all but divergence.cu, whose kernels teach
     * what code does where a branch exits, not a speed. */
    for (int f = 0; f < c->nfiles; f++)
        if (c->files[f]->nkernels > 1 && !paired[f] && !strstr(c->files[f]->path, "divergence")) {
            print_error("%s: a family with %d variants and no pair in %s\n", c->files[f]->path,
                        c->files[f]->nkernels, PAIRS);
            bad++;
        }
    free(text);
    ws_catalog_free(c);
    assert_true(pairs >= 40);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_pair_names_two_catalog_descriptions_and_valid_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
