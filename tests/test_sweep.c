/* test_sweep.c - `warpscope sweep` (common/sweep_spec.h, sim/report/sweep.h): the spec's cross
 * product and its numbering, spec errors at their file:line:col, the argument vector a job runs,
 * and, through the binary ($WS_BIN, or build/asan/warpscope), a 2 x 2 x 1 sweep run and merged
 * serially and by `make -j2` on the generated Makefile, whose table must hold the numbers a
 * direct `warpscope sim --json` gives and the counters the coalescing rule gives. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/cli.h"
#include "../common/commands.h"
#include "../common/sweep_spec.h"

static const char *ws_bin(void)
{
    const char *b = getenv("WS_BIN");
    if (b && *b) return b;
    if (access("build/asan/warpscope", X_OK) == 0) return "build/asan/warpscope";
    fail_msg("no warpscope binary: set WS_BIN or build build/asan/warpscope (make test does both)");
    return NULL;
}

static char g_dir[64];             /* the temporary folder the sweep cases run in */
static char g_bin[PATH_MAX];       /* the binary, absolute (the cases chdir into g_dir) */

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ws_sweep_XXXXXX");
    if (!mkdtemp(g_dir)) return -1;
    if (!realpath(ws_bin(), g_bin)) return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char *av[] = {"/bin/rm", "-rf", g_dir, NULL};    /* our own folder, by its exact name */
    pid_t pid = fork();
    if (pid == 0) {
        execv(av[0], av);
        _exit(127);
    }
    int st;
    waitpid(pid, &st, 0);
    return 0;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *s = malloc((size_t)n + 1);
    assert_non_null(s);
    s[fread(s, 1, (size_t)n, f)] = 0;
    fclose(f);
    return s;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
}

/* Runs argv[0] (a path) with argv in folder g_dir, stdout to g_dir/out_name (NULL: /dev/null),
 * stderr to g_dir/stderr.txt. Returns the exit code. */
static int run_in_dir(char *const argv[], const char *out_name)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (chdir(g_dir)) _exit(126);
        int out = open(out_name ? out_name : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int err = open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0) _exit(126);
        dup2(out, 1);
        dup2(err, 2);
        execv(argv[0], argv);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int run_ws(const char *out_name, const char *a1, const char *a2, const char *a3, const char *a4,
                  const char *a5)
{
    char *av[] = {g_bin, (char *)a1, (char *)a2, (char *)a3, (char *)a4, (char *)a5, NULL};
    return run_in_dir(av, out_name);
}

static char *read_in_dir(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", g_dir, name);
    return slurp(p);
}

/* ------------------------------------------------------------------------------------------- */

static void test_plan_numbers_every_variant_size_and_profile_combination_once(void **state)
{
    (void)state;
    const char *text = "# three kernels, two sizes, two GPUs\n"
                       "variant copy_float stride_copy_s2\n"
                       "variant transpose_naive   # a second variant line adds to the first\n"
                       "size N=1024\n"
                       "size\tN=4096 M=2\n"
                       "profile h200 a100\n";
    ws_sweep_spec s;
    ws_error err;
    assert_int_equal(ws_sweep_spec_parse(text, strlen(text), "t.sweep", &s, &err), 0);
    assert_int_equal(s.nvariants, 3);
    assert_int_equal(s.nsizes, 2);
    assert_int_equal(s.nprofiles, 2);
    assert_int_equal(ws_sweep_count(&s), 3 * 2 * 2);
    assert_int_equal(s.threads, 1);                   /* the runner spreads the jobs, not sim */
    assert_int_equal(s.sizes[1].ndefines, 2);
    assert_string_equal(s.sizes[1].defines[1], "M=2");
    assert_string_equal(s.sizes[1].label, "N=4096 M=2");
    /* every (variant, size, profile) exactly once, at id ((v * 2) + z) * 2 + p + 1 */
    int seen[3][2][2] = {{{0}}};
    for (long id = 1; id <= 12; id++) {
        ws_sweep_job j;
        assert_int_equal(ws_sweep_job_get(&s, id, &j), 0);
        int v = (int)(j.variant - s.variants), z = (int)(j.size - s.sizes), p = (int)(j.profile - s.profiles);
        assert_int_equal(id, ((v * 2) + z) * 2 + p + 1);
        seen[v][z][p]++;
    }
    for (int v = 0; v < 3; v++)
        for (int z = 0; z < 2; z++)
            for (int p = 0; p < 2; p++) assert_int_equal(seen[v][z][p], 1);
    ws_sweep_job j;
    assert_int_equal(ws_sweep_job_get(&s, 0, &j), -1);
    assert_int_equal(ws_sweep_job_get(&s, 13, &j), -1);
    assert_string_equal(s.profiles[1].dev->key, "a100");
    ws_sweep_spec_free(&s);

    /* no size and no profile line: one size (the defaults) and the default profile */
    const char *bare = "variant a b c d e\n";
    assert_int_equal(ws_sweep_spec_parse(bare, strlen(bare), "b.sweep", &s, &err), 0);
    assert_int_equal(ws_sweep_count(&s), 5);
    assert_int_equal(s.sizes[0].ndefines, 0);
    assert_false(s.sizes[0].realistic);
    assert_ptr_equal(s.profiles[0].dev, ws_device_default());
    ws_sweep_spec_free(&s);

    /* a variant line may list many kernels */
    char many[2048] = "variant";
    for (int i = 0; i < 100; i++) snprintf(many + strlen(many), sizeof many - strlen(many), " k%d", i);
    strcat(many, "\nsize N=1\nsize N=2\n");
    assert_int_equal(ws_sweep_spec_parse(many, strlen(many), "m.sweep", &s, &err), 0);
    assert_int_equal(ws_sweep_count(&s), 100 * 2);
    ws_sweep_spec_free(&s);

    /* the plan the binary prints: one line per job, its count the product */
    char spec[128];
    snprintf(spec, sizeof spec, "%s/plan.sweep", g_dir);
    spit(spec, "variant copy_float stride_copy_s2 copy_float4\nsize N=1024\nsize N=2048\nprofile h200 h100\n");
    assert_int_equal(run_ws("plan.txt", "sweep", "plan", "plan.sweep", NULL, NULL), WS_EXIT_OK);
    char *plan = read_in_dir("plan.txt");
    long lines = 0;
    for (char *p = plan; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, 3 * 2 * 2);
    assert_non_null(strstr(plan, "1\tcopy_float\tN=1024\th200\n2\tcopy_float\tN=1024\th100\n3\tcopy_float\tN=2048\th200\n"));
    assert_non_null(strstr(plan, "12\tcopy_float4\tN=2048\th100\n"));
    free(plan);
    assert_int_equal(run_ws("count.txt", "sweep", "plan", "plan.sweep", "--count", NULL), WS_EXIT_OK);
    char *count = read_in_dir("count.txt");
    assert_string_equal(count, "12\n");
    free(count);

    /* the checked-in example is a valid spec, and its plan is its product */
    char example[PATH_MAX];
    assert_non_null(realpath("demos/transpose.sweep", example));
    assert_int_equal(ws_sweep_spec_load(example, &s, &err), 0);
    long want = ws_sweep_count(&s);
    assert_int_equal(want, (long)s.nvariants * s.nsizes * s.nprofiles);
    ws_sweep_spec_free(&s);
    assert_int_equal(run_ws("example.txt", "sweep", "plan", example, NULL, NULL), WS_EXIT_OK);
    plan = read_in_dir("example.txt");
    lines = 0;
    for (char *p = plan; *p; p++) lines += *p == '\n';
    assert_int_equal(lines, want);
    free(plan);
}

/* Each bad line is refused at its file:line:col with what is wrong. */
static void test_every_bad_spec_line_is_refused_at_its_file_line_and_column(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int line, col;
        const char *says;
    } cases[] = {
        {"variant copy_float\nszie N=1\n", 2, 1, "unknown keyword 'szie'; did you mean 'size'?"},
        {"variant copy_float\nprofile h200 h20\n", 2, 14, "unknown device profile 'h20'; did you mean 'h200'?"},
        {"variant copy_float\nprofile h200\nprofile H200\n", 3, 9, "already listed at line 2"},
        {"variant a b\nvariant a\n", 2, 9, "variant 'a' is already listed at line 1"},
        {"variant --save=/tmp/x\n", 1, 9, "starts with '-'"},
        {"variant a\nsize N=1\n\nsize N=1\n", 4, 6, "size 'N=1' is already listed at line 2"},
        {"variant a\nsize N=1 N=2\n", 2, 10, "'N' is set twice"},
        {"variant a\nsize N\n", 2, 6, "'N' is not NAME=VALUE"},
        {"variant a\nsize 3N=1\n", 2, 6, "is not NAME=VALUE"},
        {"variant a\nsize defaults N=1\n", 2, 6, "'defaults' stands alone"},
        {"variant a\nsize\n", 2, 0, "'size' needs"},
        {"variant\n", 1, 0, "'variant' needs one or more kernel names"},
        {"variant a\nthreads 0\n", 2, 9, "from 1 to 1024, not '0'"},
        {"variant a\nthreads 2x\n", 2, 9, "not '2x'"},
        {"variant a\nthreads 1\nthreads 2\n", 3, 1, "'threads' is already set at line 2"},
        {"variant a\nsample maybe\n", 2, 8, "auto, on, off, not 'maybe'"},
        {"variant a\nsample on off\n", 2, 11, "'sample' takes one"},
        {"variant a\n\x1b[2J\n", 2, 1, "control byte 0x1b"},
        {"# nothing but a comment\nsize N=1\n", 0, 0, "no 'variant' line"},
        {"variant a\nsize A=1 B=1 C=1 D=1 E=1 F=1 G=1 H=1 I=1 J=1 K=1 L=1 M=1 N=1 O=1 P=1 Q=1\n", 2, 70, "more than 16 -D words"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ws_sweep_spec s;
        ws_error err;
        memset(&err, 0, sizeof err);
        int rc = ws_sweep_spec_parse(cases[i].text, strlen(cases[i].text), "bad.sweep", &s, &err);
        if (rc != -1 || err.line != cases[i].line || err.col != cases[i].col || !strstr(err.msg, cases[i].says))
            fail_msg("case %zu: rc %d at %s:%d:%d '%s'; want %d:%d '%s'", i, rc, err.file, err.line, err.col, err.msg,
                     cases[i].line, cases[i].col, cases[i].says);
        assert_string_equal(err.file, "bad.sweep");
        assert_null(s.variants);                  /* nothing left to free */
    }
    /* the binary prints the same "file:line:col: error:" and exits 1; an unknown variant is
       found at plan time, at its line */
    char spec[128];
    snprintf(spec, sizeof spec, "%s/bad.sweep", g_dir);
    spit(spec, "variant copy_float\n# the typo:\nvariant copy_flaot\n");
    assert_int_equal(run_ws(NULL, "sweep", "plan", "bad.sweep", NULL, NULL), WS_EXIT_USAGE);
    char *e = read_in_dir("stderr.txt");
    if (!strstr(e, "warpscope: bad.sweep:3: error: variant 'copy_flaot'") || !strstr(e, "did you mean 'copy_float'"))
        fail_msg("%s", e);
    free(e);
    assert_int_equal(run_ws(NULL, "sweep", "run", "bad.sweep", "out", "3"), WS_EXIT_USAGE);
    e = read_in_dir("stderr.txt");
    assert_non_null(strstr(e, "job id '3' is not a number from 1 to 2"));
    free(e);
}

/* A spec word never becomes an option of sim: the variant comes after "--", -D values are
 * words of their own. */
static void test_a_job_runs_sim_with_the_spec_words_as_plain_arguments(void **state)
{
    (void)state;
    const char *text = "variant k.cu:scale\nsize N=--full realistic\nprofile t4\nthreads 3\nsample off\n";
    ws_sweep_spec s;
    ws_error err;
    assert_int_equal(ws_sweep_spec_parse(text, strlen(text), "a.sweep", &s, &err), 0);
    ws_sweep_job j;
    assert_int_equal(ws_sweep_job_get(&s, 1, &j), 0);
    char *argv[WS_SWEEP_ARGV_MAX + 1], tb[16];
    int argc = ws_sweep_sim_argv(&s, &j, tb, sizeof tb, argv, WS_SWEEP_ARGV_MAX + 1);
    const char *want[] = {"sim", "--json", "-j", "3", "--full", "--device", "t4", "--realistic", "-D", "N=--full",
                          "--", "k.cu:scale"};
    assert_int_equal(argc, 12);
    for (int i = 0; i < argc; i++) assert_string_equal(argv[i], want[i]);
    assert_null(argv[argc]);
    ws_sweep_spec_free(&s);
    /* paths a Makefile recipe may hold */
    assert_true(ws_sweep_path_is_plain("out/run-2.d_x+y"));
    const char *unplain[] = {"", "-rf", "a b", "a$(X)", "a;b", "a%b", "a:b", "a#b", "a'b", "a\"b", "a*b", "a\\b", "~/x"};
    for (size_t i = 0; i < sizeof unplain / sizeof unplain[0]; i++)
        if (ws_sweep_path_is_plain(unplain[i])) fail_msg("'%s' passed as plain", unplain[i]);
}

/* ---- the 2 x 2 x 1 sweep through the binary ------------------------------------------------ */

#define SPEC_TEXT "# 2 variants x 2 sizes x 1 profile\nvariant copy_float stride_copy_s2\nsize N=2048\nsize N=8192\nprofile h200\n"
static const char *const VARIANTS[2] = {"copy_float", "stride_copy_s2"};
static const int STRIDE[2] = {1, 2};
static const int SIZES[2] = {2048, 8192};

/* One CSV record (RFC 4180: a quoted field may hold commas, doubled quotes). Returns the fields
 * found (at most cap), each malloc'd; *p moves past the record. */
static int csv_record(const char **p, char **f, int cap)
{
    int n = 0;
    const char *s = *p;
    for (;;) {
        char buf[1024];
        size_t k = 0;
        if (*s == '"') {
            for (s++; *s && !(*s == '"' && s[1] != '"'); s++) {
                if (*s == '"') s++;
                if (k < sizeof buf - 1) buf[k++] = *s;
            }
            if (*s == '"') s++;
        } else
            while (*s && *s != ',' && *s != '\n')
                if (k < sizeof buf - 1) buf[k++] = *s++;
                else s++;
        buf[k] = 0;
        if (n < cap) f[n++] = strdup(buf);
        if (*s == ',') {
            s++;
            continue;
        }
        if (*s == '\n') s++;
        break;
    }
    *p = s;
    return n;
}

static double total_of(const cJSON *sim, const char *name)
{
    const cJSON *t;
    cJSON_ArrayForEach(t, cJSON_GetObjectItem(sim, "totals"))
        if (!strcmp(cJSON_GetObjectItem(t, "name")->valuestring, name)) return cJSON_GetObjectItem(t, "value")->valuedouble;
    fail_msg("no total %s", name);
    return NAN;
}

static double member(const cJSON *o, const char *a, const char *b)
{
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(o, a), b);
    assert_true(cJSON_IsNumber(v));
    return v->valuedouble;
}

/* The merged CSV in g_dir/<csv_name> against the coalescing rule and, with direct, direct sim runs. */
static void check_table(const char *csv_name, bool direct)
{
    char *csv = read_in_dir(csv_name);
    assert_non_null(csv);
    const char *p = csv;
    char *f[32];
    int n = csv_record(&p, f, 32);
    int col_pred = -1, col_lim = -1, col_ti = -1, col_gs = -1, col_ldr = -1, col_str = -1, col_dram = -1, col_status = -1;
    for (int i = 0; i < n; i++) {
        if (!strcmp(f[i], "predicted_us")) col_pred = i;
        if (!strcmp(f[i], "limiter")) col_lim = i;
        if (!strcmp(f[i], "thread_instructions")) col_ti = i;
        if (!strcmp(f[i], "global_sectors")) col_gs = i;
        if (!strcmp(f[i], "global_ld_sectors_per_request")) col_ldr = i;
        if (!strcmp(f[i], "global_st_sectors_per_request")) col_str = i;
        if (!strcmp(f[i], "dram_bytes")) col_dram = i;
        if (!strcmp(f[i], "status")) col_status = i;
        free(f[i]);
    }
    assert_true(col_pred >= 0 && col_lim >= 0 && col_ti >= 0 && col_gs >= 0 && col_ldr >= 0 && col_str >= 0 &&
                col_dram >= 0 && col_status >= 0);
    for (int job = 1; job <= 4; job++) {
        n = csv_record(&p, f, 32);
        assert_true(n > col_dram);
        int v = (job - 1) / 2, z = (job - 1) % 2;
        assert_int_equal(atoi(f[0]), job);
        assert_string_equal(f[1], VARIANTS[v]);
        char size[32];
        snprintf(size, sizeof size, "N=%d", SIZES[z]);
        assert_string_equal(f[2], size);
        assert_string_equal(f[3], "h200");
        assert_string_equal(f[col_status], "ok");
        /* a warp's 32 floats at stride S span 128 S bytes: 4 S sectors per request, loads and
           stores alike, N/32 requests each */
        assert_true(strtod(f[col_ldr], NULL) == 4.0 * STRIDE[v]);
        assert_true(strtod(f[col_str], NULL) == 4.0 * STRIDE[v]);
        assert_true(strtod(f[col_gs], NULL) == 2.0 * (SIZES[z] / 32) * 4 * STRIDE[v]);

        if (!direct) {
            for (int i = 0; i < n; i++) free(f[i]);
            continue;
        }
        /* the direct `warpscope sim --json` of the same job (every core: -j must not matter) */
        char d[32];
        snprintf(d, sizeof d, "N=%d", SIZES[z]);
        assert_int_equal(run_ws("direct.json", "sim", "--json", "-D", d, VARIANTS[v]), WS_EXIT_OK);
        char *js = read_in_dir("direct.json");
        cJSON *sim = cJSON_Parse(js);
        assert_non_null(sim);
        assert_true(strtod(f[col_pred], NULL) == member(sim, "timing", "predicted_us"));
        assert_string_equal(f[col_lim], cJSON_GetObjectItem(cJSON_GetObjectItem(sim, "timing"), "bound")->valuestring);
        assert_true(strtod(f[col_ti], NULL) == member(sim, "simulation", "thread_instructions"));
        assert_true(strtod(f[col_gs], NULL) == total_of(sim, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") +
                                                   total_of(sim, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"));
        assert_true(strtod(f[col_dram], NULL) ==
                    total_of(sim, "dram__bytes_read.sum") + total_of(sim, "dram__bytes_write.sum"));
        cJSON_Delete(sim);
        free(js);
        for (int i = 0; i < n; i++) free(f[i]);
    }
    assert_string_equal(p, "");                      /* four jobs, no more */
    free(csv);
}

static void test_run_and_merge_of_a_2x2x1_sweep_hold_what_sim_gives_directly(void **state)
{
    (void)state;
    char spec[128];
    snprintf(spec, sizeof spec, "%s/s.sweep", g_dir);
    spit(spec, SPEC_TEXT);
    /* out of order, as a runner may start them */
    char *run[] = {g_bin, "sweep", "run", "s.sweep", "serial", "4", "2", "3", "1", NULL};
    assert_int_equal(run_in_dir(run, NULL), WS_EXIT_OK);
    assert_int_equal(run_ws("merged.csv", "sweep", "merge", "serial", "--csv", NULL), WS_EXIT_OK);
    char *printed = read_in_dir("merged.csv"), *written = read_in_dir("serial/sweep.csv");
    assert_non_null(written);
    assert_string_equal(printed, written);           /* what it printed is the file it wrote */
    free(printed);
    free(written);
    check_table("serial/sweep.csv", true);
    char *md = read_in_dir("serial/sweep.md");
    assert_non_null(strstr(md, "| 3 | stride_copy_s2 | N=2048 | h200 | ok |"));
    free(md);

    /* every record is a document of docs/json-schema.json */
    char schema[PATH_MAX];
    assert_non_null(realpath("docs/json-schema.json", schema));
    char validator[PATH_MAX];
    assert_non_null(realpath("tests/json_validate.py", validator));
    if (access("/usr/bin/python3", X_OK)) fail_msg("no /usr/bin/python3 to validate the records with");
    char *val[] = {"/usr/bin/python3", validator, schema, "serial/job-1.json", "serial/job-2.json",
                   "serial/job-3.json", "serial/job-4.json", NULL};
    if (run_in_dir(val, NULL)) fail_msg("records do not validate:\n%s", read_in_dir("stderr.txt"));

    /* a record holds no wall-clock time: the same job twice is the same bytes */
    char *first = read_in_dir("serial/job-2.json");
    assert_null(strstr(first, "\"seconds\""));
    assert_int_equal(run_ws(NULL, "sweep", "run", "s.sweep", "serial", "2"), WS_EXIT_OK);
    char *again = read_in_dir("serial/job-2.json");
    assert_string_equal(first, again);
    free(first);
    free(again);

    /* a job whose simulation fails is recorded as failed, and merge says so in its exit code;
       a job with no record is a missing row */
    char bad[128];
    snprintf(bad, sizeof bad, "%s/f.sweep", g_dir);
    spit(bad, "variant copy_float\nsize N=1024\nsize N=-5\nsize N=4096\n");
    assert_int_equal(run_ws(NULL, "sweep", "run", "f.sweep", "failing", "1"), WS_EXIT_OK);
    assert_int_equal(run_ws(NULL, "sweep", "run", "f.sweep", "failing", "2"), WS_EXIT_OK);
    assert_int_equal(run_ws("f.csv", "sweep", "merge", "failing", "--csv", NULL), WS_EXIT_USAGE);
    char *t = read_in_dir("f.csv");
    assert_non_null(strstr(t, "\n2,copy_float,N=-5,h200,failed (exit 1),"));
    assert_non_null(strstr(t, "grid.x = 0"));        /* sim's own reason */
    assert_non_null(strstr(t, "\n3,copy_float,N=4096,h200,missing,")); /* named from the spec */
    free(t);
    /* two sweeps in one folder are refused, naming the stranger */
    assert_int_equal(run_ws(NULL, "sweep", "run", "s.sweep", "failing", "4"), WS_EXIT_OK);
    assert_int_equal(run_ws(NULL, "sweep", "merge", "failing", NULL, NULL), WS_EXIT_USAGE);
    char *e = read_in_dir("stderr.txt");
    if (!strstr(e, "failing/job-") || !strstr(e, "another sweep")) fail_msg("%s", e);
    free(e);
}

/* The runner the tests use: make -j2 on the generated Makefile. Its records are the serial run's,
 * byte for byte, and so is the table. */
static void test_make_j2_on_the_generated_makefile_runs_the_sweep_and_merges_it(void **state)
{
    (void)state;
    char spec[128];
    snprintf(spec, sizeof spec, "%s/s.sweep", g_dir);
    spit(spec, SPEC_TEXT);
    assert_int_equal(run_ws("sweep.mk", "sweep", "makefile", "s.sweep", "bymake", NULL), WS_EXIT_OK);
    char *mk = read_in_dir("sweep.mk");
    /* no spec word in the Makefile: the recipes name ids, the spec path and the folder only */
    assert_null(strstr(mk, "copy_float"));
    assert_null(strstr(mk, "N=2048"));
    assert_non_null(strstr(mk, "$(SWEEP_DIR)/job-4.json"));
    assert_null(strstr(mk, "job-5.json"));
    free(mk);
    assert_int_equal(run_ws(NULL, "sweep", "makefile", "s.sweep", "a b", NULL), WS_EXIT_USAGE);
    assert_int_equal(run_ws(NULL, "sweep", "makefile", "s.sweep", "$(shell)", NULL), WS_EXIT_USAGE);

    const char *make = NULL;
    const char *cands[] = {"/usr/bin/make", "/bin/make", "/usr/local/bin/make"};
    for (size_t i = 0; i < 3 && !make; i++)
        if (access(cands[i], X_OK) == 0) make = cands[i];
    if (!make) fail_msg("no make in /usr/bin, /bin or /usr/local/bin: the runner this test exercises");
    char wsvar[PATH_MAX + 16];
    snprintf(wsvar, sizeof wsvar, "WARPSCOPE=%s", g_bin);
    char *av[] = {(char *)make, "-s", "-j2", "-f", "sweep.mk", wsvar, NULL};
    int rc = run_in_dir(av, "make.out");
    if (rc) {
        char *e = read_in_dir("stderr.txt");
        fail_msg("make -j2 exited %d:\n%s", rc, e);
    }
    check_table("bymake/sweep.csv", false);   /* the direct sim runs: the case before, on the serial table */
    /* same records and table as the serial run of the case before, if it ran; else run it now */
    char *serial = read_in_dir("serial/job-1.json");
    if (!serial) {
        char *run[] = {g_bin, "sweep", "run", "s.sweep", "serial", NULL};
        assert_int_equal(run_in_dir(run, NULL), WS_EXIT_OK);
        assert_int_equal(run_ws(NULL, "sweep", "merge", "serial", NULL, NULL), WS_EXIT_OK);
    }
    free(serial);
    for (int id = 1; id <= 4; id++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "serial/job-%d.json", id);
        snprintf(b, sizeof b, "bymake/job-%d.json", id);
        char *x = read_in_dir(a), *y = read_in_dir(b);
        assert_non_null(x);
        assert_non_null(y);
        assert_string_equal(x, y);
        free(x);
        free(y);
    }
    char *x = read_in_dir("serial/sweep.csv"), *y = read_in_dir("bymake/sweep.csv");
    assert_string_equal(x, y);
    free(x);
    free(y);
    /* nothing left to do: make sees every record and the table up to date */
    char *again[] = {(char *)make, "-q", "-f", "sweep.mk", wsvar, NULL};
    assert_int_equal(run_in_dir(again, NULL), 0);
}

static void test_sweep_help_lists_the_subcommands_the_runners_and_the_exit_codes(void **state)
{
    (void)state;
    const char *subs[] = {NULL, "plan", "run", "merge", "makefile"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(run_ws("help.txt", "sweep", subs[i] ? subs[i] : "--help", subs[i] ? "--help" : NULL, NULL, NULL),
                         WS_EXIT_OK);
        char *h = read_in_dir("help.txt");
        if (!strstr(h, ws_cli_exit_table)) fail_msg("sweep %s --help lacks the exit table:\n%s", subs[i] ? subs[i] : "", h);
        if (!subs[i]) {
            assert_non_null(strstr(h, "make -j"));
            assert_non_null(strstr(h, "parallel"));
            assert_non_null(strstr(h, "SLURM_ARRAY_TASK_ID"));
        }
        free(h);
    }
    assert_int_equal(run_ws(NULL, "sweep", "pln", NULL, NULL, NULL), WS_EXIT_USAGE);
    char *e = read_in_dir("stderr.txt");
    assert_non_null(strstr(e, "did you mean 'plan'?"));
    free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_numbers_every_variant_size_and_profile_combination_once),
        cmocka_unit_test(test_every_bad_spec_line_is_refused_at_its_file_line_and_column),
        cmocka_unit_test(test_a_job_runs_sim_with_the_spec_words_as_plain_arguments),
        cmocka_unit_test(test_run_and_merge_of_a_2x2x1_sweep_hold_what_sim_gives_directly),
        cmocka_unit_test(test_make_j2_on_the_generated_makefile_runs_the_sweep_and_merges_it),
        cmocka_unit_test(test_sweep_help_lists_the_subcommands_the_runners_and_the_exit_codes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
