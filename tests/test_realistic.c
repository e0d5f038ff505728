/* test_realistic.c - the `realistic` description line and --realistic (issue 23 item 5):
 * parsing and its errors (file:line:col), what resolving with ov.realistic does to the launch and
 * to the results key, and the catalog rule: every catalog kernel has a realistic line, and at it
 * its working set (the sum of its buffers' bytes, computed here from each buffer's count and
 * element size) is at least 256 MiB (4x the H200's 60 MiB L2, rounded up) unless the line declares a class: beyond the
 * L2 for `compute-bound`, anything for `l2-resident`. demos/pairs.txt's explicit sizes must be the
 * realistic sizes of both kernels of the pair (one source of truth). Runs from the repository root. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/desc.h"

#define MIB (1024.0 * 1024.0)
#define H200_L2 (60 * MIB)     /* the H200's L2: 60 MiB (62914560 bytes, as results/h200.json records) */
#define BEYOND (256 * MIB)     /* "4x the L2", rounded up to a power of two as scripts/pair-sizes.awk's MINWS */

static ws_desc_file *parse_ok(const char *text)
{
    ws_desc_file *f = NULL;
    ws_error e;
    memset(&e, 0, sizeof e);
    int rc = ws_desc_parse("t.cu", text, &f, &e);
    if (rc) fprintf(stderr, "unexpected error: %s:%d:%d: %s\n", e.file, e.line, e.col, e.msg);
    assert_int_equal(rc, 0);
    return f;
}

static void parse_bad(const char *text, int line, int col, const char *needle)
{
    ws_desc_file *f = NULL;
    ws_error e;
    memset(&e, 0, sizeof e);
    assert_int_not_equal(ws_desc_parse("t.cu", text, &f, &e), 0);
    if (!strstr(e.msg, needle) || e.line != line || e.col != col)
        fprintf(stderr, "got %s:%d:%d: %s (want %d:%d, '%s')\n", e.file, e.line, e.col, e.msg, line, col, needle);
    assert_string_equal(e.file, "t.cu");
    assert_int_equal(e.line, line);
    assert_int_equal(e.col, col);
    assert_non_null(strstr(e.msg, needle));
}

#define HEAD "/*@warpscope\nkernel k\nparam N = 1<<10\nparam M = N / 2\nbuffer a float N\nbuffer b int M\n"
#define TAIL "grid cdiv(N, 256)\nblock 256\nargs a, b, N\n*/\n__global__ void k(float *a, int *b, int n) {}\n"

static void test_parse_assignments(void **state)
{
    (void)state;
    /* the line may come before the params it names; a comma inside min() is not a separator */
    ws_desc_file *f = parse_ok("/*@warpscope\nkernel k\nrealistic N = 1<<20, M = min(N, 4096)\nparam N = 1<<10\n"
                               "param M = N / 2\nbuffer a float N\nbuffer b int M\n" TAIL);
    const ws_kernel_desc *d = &f->kernels[0];
    assert_int_equal(d->realistic_class, WS_REAL_DRAM);
    assert_int_equal(d->realistic_line, 3);
    assert_int_equal(d->nrealistic, 2);
    assert_string_equal(d->params[d->realistic[0].param].name, "N");
    assert_string_equal(d->params[d->realistic[1].param].name, "M");

    /* defaults: N = 1024, M = 512: 4096 + 2048 bytes */
    ws_launch L;
    ws_error e;
    assert_int_equal(ws_desc_resolve(d, NULL, &L, &e), 0);
    assert_int_equal(ws_launch_working_set(&L), 1024 * 4 + 512 * 4);
    /* realistic: N = 2^20, M = min(2^20, 4096) = 4096 */
    static ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ov.realistic = true;
    assert_int_equal(ws_desc_resolve(d, &ov, &L, &e), 0);
    assert_int_equal(L.param_values[0], 1 << 20);
    assert_int_equal(L.param_values[1], 4096);
    assert_int_equal(L.grid[0], (1 << 20) / 256);
    assert_int_equal(ws_launch_working_set(&L), (uint64_t)(1 << 20) * 4 + 4096 * 4);
    /* the results key names the sizes, blanks removed, so it reads back as -D words */
    char key[512];
    ws_overrides_text_for(d, &ov, key, sizeof key);
    assert_string_equal(key, "N=1<<20 M=min(N,4096)");
    /* the command line's -D wins over the realistic size of that name, and replaces it in the key */
    assert_int_equal(ws_overrides_add(&ov, "N=2048", &e), 0);
    assert_int_equal(ws_desc_resolve(d, &ov, &L, &e), 0);
    assert_int_equal(L.param_values[0], 2048);
    assert_int_equal(L.param_values[1], 2048);
    ws_overrides_text_for(d, &ov, key, sizeof key);
    assert_string_equal(key, "M=min(N,4096) N=2048");
    /* without the flag: a copy, the defaults */
    ov.realistic = false;
    ws_overrides_text_for(d, &ov, key, sizeof key);
    assert_string_equal(key, "N=2048");
    ws_desc_free(f);
}

static void test_parse_classes(void **state)
{
    (void)state;
    ws_desc_file *f = parse_ok(HEAD "realistic l2-resident\n" TAIL);
    assert_int_equal(f->kernels[0].realistic_class, WS_REAL_L2_RESIDENT);
    assert_int_equal(f->kernels[0].nrealistic, 0);
    /* l2-resident alone: realistic is the defaults, and the key stays empty */
    static ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ov.realistic = true;
    ws_launch L;
    ws_error e;
    assert_int_equal(ws_desc_resolve(&f->kernels[0], &ov, &L, &e), 0);
    assert_int_equal(L.param_values[0], 1024);
    char key[64];
    ws_overrides_text_for(&f->kernels[0], &ov, key, sizeof key);
    assert_string_equal(key, "");
    ws_desc_free(f);
    f = parse_ok(HEAD "realistic compute-bound N = 4096\n" TAIL);
    assert_int_equal(f->kernels[0].realistic_class, WS_REAL_COMPUTE_BOUND);
    assert_int_equal(f->kernels[0].nrealistic, 1);
    assert_string_equal(ws_realistic_class_name(WS_REAL_COMPUTE_BOUND), "compute-bound");
    ws_desc_free(f);
    /* a description without the line, run with --realistic: an error naming it */
    f = parse_ok(HEAD TAIL);
    assert_int_equal(f->kernels[0].realistic_class, WS_REAL_NONE);
    memset(&e, 0, sizeof e);
    assert_int_not_equal(ws_desc_resolve(&f->kernels[0], &ov, &L, &e), 0);
    assert_string_equal(e.file, "t.cu");
    assert_int_equal(e.line, 1);
    assert_non_null(strstr(e.msg, "'k' has no realistic line"));
    ws_desc_free(f);
}

static void test_parse_errors(void **state)
{
    (void)state;
    /* line 7 is the realistic line; columns count from 1 at 'r' */
    parse_bad(HEAD "realistic\n" TAIL, 7, 10, "realistic needs NAME = EXPR");
    parse_bad(HEAD "realistic W = 4\n" TAIL, 7, 11, "'W' is not a parameter of 'k' (parameters: N, M)");
    parse_bad(HEAD "realistic a = 4\n" TAIL, 7, 11, "'a' is not a parameter");
    parse_bad(HEAD "realistic N = 4, N = 8\n" TAIL, 7, 18, "'N' given twice");
    parse_bad(HEAD "realistic N 4\n" TAIL, 7, 11, "realistic expects NAME = EXPR");
    parse_bad(HEAD "realistic N = 4,\n" TAIL, 7, 17, "nothing after the last ','");
    parse_bad(HEAD "realistic N = M * 2\n" TAIL, 7, 15, "'M' is used before it is declared");
    parse_bad(HEAD "realistic N = N * 2\n" TAIL, 7, 15, "'N' refers to itself");
    parse_bad(HEAD "realistic M = Q\n" TAIL, 7, 15, "unknown parameter 'Q'");
    parse_bad(HEAD "realistic N = 4\nrealistic N = 8\n" TAIL, 8, 1, "'realistic' given twice");
    parse_bad(HEAD "realistic N = \n" TAIL, 7, 14, "realistic needs an expression");
}

/* ---- the catalog ---- */

static const ws_kernel_desc *find(const ws_catalog *c, const char *name)
{
    for (int f = 0; f < c->nfiles; f++) {
        const ws_kernel_desc *d = ws_desc_find(c->files[f], name);
        if (d) return d;
    }
    return NULL;
}

/* The working set computed here from the buffers (count x element bytes), not the launch's sum. */
static double buffers_bytes(const ws_launch *L)
{
    double sum = 0;
    for (int i = 0; i < L->nbuffers; i++) sum += (double)L->buffers[i].count * (double)ws_type_size(L->buffers[i].type);
    return sum;
}

static void test_catalog_rule(void **state)
{
    (void)state;
    ws_catalog *c = NULL;
    ws_error e;
    assert_int_equal(ws_catalog_load("demos", &c, &e), 0);
    static ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ov.realistic = true;
    int n = 0, bad = 0;
    for (int f = 0; f < c->nfiles; f++)
        for (int k = 0; k < c->files[f]->nkernels; k++) {
            const ws_kernel_desc *d = &c->files[f]->kernels[k];
            n++;
            if (d->realistic_class == WS_REAL_NONE) {
                fprintf(stderr, "%s:%d: %s has no realistic line\n", d->file, d->line, d->name);
                bad++;
                continue;
            }
            static ws_launch L;
            if (ws_desc_resolve(d, &ov, &L, &e)) {
                fprintf(stderr, "%s: realistic does not resolve: %s\n", d->name, e.msg);
                bad++;
                continue;
            }
            double ws = buffers_bytes(&L);
            double need = d->realistic_class == WS_REAL_DRAM ? BEYOND
                        : d->realistic_class == WS_REAL_COMPUTE_BOUND ? H200_L2 : 0;
            if (ws < need || (d->realistic_class == WS_REAL_COMPUTE_BOUND && ws == need)) {
                fprintf(stderr, "%s:%d: %s: realistic working set %.1f MiB, needs %s%.0f MiB (%s)\n", d->file,
                        d->realistic_line, d->name, ws / MIB, d->realistic_class == WS_REAL_DRAM ? ">= " : "> ",
                        need / MIB, ws_realistic_class_name(d->realistic_class));
                bad++;
            }
            /* not larger than it needs: any one size halved brings it under 256 MiB (pair-sizes.awk's
             * rule stops at the first doubling that reaches it) */
            for (int i = 0; d->realistic_class == WS_REAL_DRAM && i < d->nrealistic; i++) {
                static ws_overrides half;
                const char *name = d->params[d->realistic[i].param].name;
                int p = d->realistic[i].param;
                memset(&half, 0, sizeof half);
                half.realistic = true;
                char def[128];
                snprintf(def, sizeof def, "%s=%lld", name, (long long)(L.param_values[p] / 2));
                assert_int_equal(ws_overrides_add(&half, def, &e), 0);
                static ws_launch H;
                assert_int_equal(ws_desc_resolve(d, &half, &H, &e), 0);
                if (buffers_bytes(&H) >= BEYOND) {
                    fprintf(stderr, "%s: -D %s still gives %.1f MiB: the realistic size is larger than it needs\n",
                            d->name, def, buffers_bytes(&H) / MIB);
                    bad++;
                }
            }
            /* a 2 GiB cap keeps a realistic run within a GPU's and the simulator's memory */
            if (ws > 2048 * MIB) {
                fprintf(stderr, "%s: realistic working set %.1f MiB is past 2 GiB\n", d->name, ws / MIB);
                bad++;
            }
        }
    assert_true(n >= 100); /* the catalog as of issue 23: 106 descriptions */
    assert_int_equal(bad, 0);
    ws_catalog_free(c);
}

/* pairs.txt's explicit sizes (NAME=VALUE,...) are both kernels' realistic values of NAME. */
static void test_pairs_use_realistic(void **state)
{
    (void)state;
    ws_catalog *c = NULL;
    ws_error e;
    assert_int_equal(ws_catalog_load("demos", &c, &e), 0);
    FILE *fp = fopen("demos/pairs.txt", "r");
    assert_non_null(fp);
    static ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    ov.realistic = true;
    char line[1024];
    int checked = 0, bad = 0;
    while (fgets(line, sizeof line, fp)) {
        char a[128], b[128], sizes[256];
        if (line[0] == '#' || sscanf(line, "%127s %127s %255s", a, b, sizes) != 3 || !strcmp(sizes, "-")) continue;
        const ws_kernel_desc *d[2] = {find(c, a), find(c, b)};
        assert_non_null(d[0]);
        assert_non_null(d[1]);
        for (char *tok = strtok(sizes, ","); tok; tok = strtok(NULL, ",")) {
            char name[64];
            long long want;
            assert_int_equal(sscanf(tok, "%63[^=]=%lld", name, &want), 2);
            for (int i = 0; i < 2; i++) {
                static ws_launch L;
                assert_int_equal(ws_desc_resolve(d[i], &ov, &L, &e), 0);
                for (int p = 0; p < L.nparams; p++)
                    if (!strcmp(L.param_names[p], name) && L.param_values[p] != want) {
                        fprintf(stderr, "pairs.txt: %s %s: %s=%lld but %s's realistic %s is %lld\n", a, b, name, want,
                                d[i]->name, name, (long long)L.param_values[p]);
                        bad++;
                    }
            }
            checked++;
        }
    }
    fclose(fp);
    assert_true(checked >= 20); /* histogram, atomics, matmul and tensorcore pairs name sizes */
    assert_int_equal(bad, 0);
    ws_catalog_free(c);
}

/* ---- the command line: warpscope run as a user runs it ---- */

static const char *ws_bin(void)
{
    const char *b = getenv("WS_BIN");
    if (b && *b) return b;
    if (access("build/asan/warpscope", X_OK) == 0) return "build/asan/warpscope";
    fail_msg("no warpscope binary: set WS_BIN or build build/asan/warpscope");
    return NULL;
}

/* Runs cmd (a fixed test command line), its stdout and stderr into out; returns the exit status. */
static int run(const char *cmd, char *out, size_t cap)
{
    char full[1024];
    snprintf(full, sizeof full, "%s 2>&1", cmd);
    FILE *p = popen(full, "r");
    assert_non_null(p);
    size_t n = fread(out, 1, cap - 1, p);
    out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_command_line(void **state)
{
    (void)state;
    static char out[1 << 20];
    char cmd[512];
    /* list: both working sets; copy_float is 2 float buffers of N: 2^20 -> 8 MiB, 2^25 -> 256 MiB */
    snprintf(cmd, sizeof cmd, "%s list demos/coalescing.cu", ws_bin());
    assert_int_equal(run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "sizes   default 8.0 MiB; realistic N = 1<<25: 256.0 MiB"));
    /* a description without the line: exit 1 (input error), naming it and its file:line */
    char dir[] = "/tmp/ws_realistic_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[128];
    snprintf(path, sizeof path, "%s/k.cu", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(HEAD TAIL, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s sim %s --realistic", ws_bin(), path);
    assert_int_equal(run(cmd, out, sizeof out), 1);
    assert_non_null(strstr(out, "k.cu:1:1: error: --realistic: 'k' has no realistic line"));
    unlink(path);
    rmdir(dir);
    /* -D wins over the realistic size: the run is keyed N=4096 (the CSV's variant), grid 4096/256 */
    snprintf(cmd, sizeof cmd, "%s sim copy_float --realistic -D N=4096 -j 1 --csv", ws_bin());
    assert_int_equal(run(cmd, out, sizeof out), 0);
    assert_non_null(strstr(out, "\ncopy_float,N=4096,kernel,"));
    /* a misspelt option is still refused (the flag takes no value) */
    snprintf(cmd, sizeof cmd, "%s sim copy_float --realistic=1", ws_bin());
    assert_int_equal(run(cmd, out, sizeof out), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse_assignments), cmocka_unit_test(test_parse_classes),
        cmocka_unit_test(test_parse_errors), cmocka_unit_test(test_catalog_rule),
        cmocka_unit_test(test_pairs_use_realistic), cmocka_unit_test(test_command_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
