/* test_json_outputs.c - every JSON warpscope prints validates against docs/json-schema.json
 * (tests/json_validate.py, python3-jsonschema), and each planted bug of tests/data/planted/
 * shows up in it as a finding of the sanitizer tool that reports it, at the line its source
 * marks "planted-", with blockIdx/threadIdx as compute-sanitizer prints them. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/commands.h"
#include "../common/ws_error.h"
#include "../cuda/check_replay.h"

static char dir[] = "/tmp/ws_test_json_XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* A command with argv, stdout into path; returns the exit code. */
static int cmd_to(int (*cmd)(int, char **), const char *path, char **argv)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    fflush(stdout);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    int saved = dup(1);
    dup2(fileno(f), 1);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    fclose(f);
    return rc;
}

static int sim_to(const char *path, char **argv) { return cmd_to(ws_cmd_sim, path, argv); }

/* path: one file, or several with their --finding options (json_validate.py's usage) */
static int validate(const char *path, const char *finding)
{
    char cmd[4096];
    int n = snprintf(cmd, sizeof cmd, "python3 tests/json_validate.py docs/json-schema.json %s%s%s", path,
                     finding ? " --finding " : "", finding ? finding : "");
    assert_true(n > 0 && (size_t)n < sizeof cmd);
    return system(cmd);
}

/* The .cu line holding the "planted-" marker (the comment block above it aside). */
static int planted_line(const char *cu)
{
    FILE *f = fopen(cu, "r");
    assert_non_null(f);
    char buf[512];
    int n = 0, hit = 0;
    while (!hit && fgets(buf, sizeof buf, f)) {
        n++;
        if (strstr(buf, "/* planted-"))
            hit = n;
    }
    fclose(f);
    assert_true(hit > 0);
    return hit;
}

static void test_sim_compare_and_replay_json_validate_against_the_schema(void **state)
{
    (void)state;
    char p[96];
    snprintf(p, sizeof p, "%s/sim.json", dir);
    assert_int_equal(sim_to(p, (char *[]){"sim", "copy_float", "-D", "N=4096", "--json", NULL}), WS_EXIT_OK);
    assert_int_equal(validate(p, NULL), 0);
    snprintf(p, sizeof p, "%s/compare.json", dir);
    assert_int_equal(sim_to(p, (char *[]){"sim", "--compare", "copy_float", "copy_float4", "--json", NULL}), WS_EXIT_OK);
    assert_int_equal(validate(p, NULL), 0);
    snprintf(p, sizeof p, "%s/replay.json", dir);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    ws_error err;
    const char *k[] = {"copy_float"};
    int rc = chk_replay_as("results/h200.json", k, 1, false, WS_FMT_JSON, f, &err);
    fclose(f);
    assert_true(rc == WS_EXIT_OK || rc == WS_EXIT_MISMATCH);
    assert_int_equal(validate(p, NULL), 0);
    /* and the validator can fail: a document without schema_version is refused */
    char cmd[512];
    snprintf(cmd, sizeof cmd, "sed 's/\"schema_version\"/\"version\"/' %s/sim.json > %s/bad.json", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/bad.json 2>/dev/null", dir);
    assert_int_not_equal(validate(p, NULL), 0);
}

static void test_each_planted_bug_is_a_finding_in_the_json(void **state)
{
    (void)state;
    static const struct {
        const char *name, *tool;
        int exit;
    } cases[] = {
        {"divergent_barrier", "synccheck", WS_EXIT_KERNEL_FAULT},
        {"divergent_loop_barrier", "synccheck", WS_EXIT_KERNEL_FAULT},
        {"divergent_shfl_mask", "synccheck", WS_EXIT_KERNEL_FAULT},
        {"divergent_syncwarp_mask", "synccheck", WS_EXIT_KERNEL_FAULT},
        {"missing_sync_transpose", "racecheck", WS_EXIT_KERNEL_FAULT},
        {"read_past_end", "memcheck", WS_EXIT_KERNEL_FAULT},
        {"reduction_off_by_one", "racecheck", WS_EXIT_KERNEL_FAULT},
        {"uninit_global", "initcheck", WS_EXIT_KERNEL_FAULT},
        {"uninit_shared", "initcheck", WS_EXIT_KERNEL_FAULT},
    };
    char files[2048] = "";   /* "FILE --finding TOOL:LINE ...": one validation for all */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cu[128], out[128], finding[64];
        snprintf(cu, sizeof cu, "tests/data/planted/%s.cu", cases[i].name);
        snprintf(out, sizeof out, "%s/%s.json", dir, cases[i].name);
        snprintf(finding, sizeof finding, "%s:%d", cases[i].tool, planted_line(cu));
        fflush(stderr);
        int saved = dup(2); /* the text findings on stderr are another test's business */
        FILE *null = fopen("/dev/null", "w");
        dup2(fileno(null), 2);
        int rc = sim_to(out, (char *[]){"sim", cu, "--racecheck", "--memcheck", "--json", NULL});
        dup2(saved, 2);
        close(saved);
        fclose(null);
        if (rc != cases[i].exit)
            fail_msg("%s: exit %d, want %d", cases[i].name, rc, cases[i].exit);
        size_t used = strlen(files);
        snprintf(files + used, sizeof files - used, "%s%s --finding %s", used ? " " : "", out, finding);
        assert_true(strlen(files) < sizeof files - 1);
    }
    /* json_validate.py names each file without a valid JSON or without its finding */
    if (validate(files, NULL) != 0)
        fail_msg("a planted bug's JSON is not valid or lacks its finding (the lines above say which)");
    /* read_past_end: thread i = N-1 = 999 of blocks of 256 reads in[N]: blockIdx 999/256 = 3,
     * threadIdx 999 % 256 = 231 (not "warp 7 lane 7") */
    char p[128], cmd[512];
    snprintf(p, sizeof p, "%s/read_past_end.json", dir);
    snprintf(cmd, sizeof cmd, "python3 -c \"import json,sys; f=json.load(open('%s'))['findings'][0]; "
             "sys.exit(0 if (f['blockIdx'], f['threadIdx']) == ([3,0,0], [231,0,0]) else 1)\"", p);
    assert_int_equal(system(cmd), 0);
}

/* The .cu line of the marker comment "/" "* name *" "/". */
static int marker_line(const char *cu, const char *name)
{
    FILE *f = fopen(cu, "r");
    assert_non_null(f);
    char buf[512], want[64];
    snprintf(want, sizeof want, "/* %s */", name);
    int n = 0, hit = 0;
    while (!hit && fgets(buf, sizeof buf, f)) {
        n++;
        if (strstr(buf, want)) hit = n;
    }
    fclose(f);
    assert_true(hit > 0);
    return hit;
}

static int sim_quiet(const char *out, const char *cu)
{
    fflush(stderr);
    int saved = dup(2); /* the text findings on stderr are another test's business */
    FILE *null = fopen("/dev/null", "w");
    dup2(fileno(null), 2);
    int rc = sim_to(out, (char *[]){"sim", (char *)cu, "--racecheck", "--json", NULL});
    dup2(saved, 2);
    close(saved);
    fclose(null);
    return rc;
}

/* A warp-level hazard is a racecheck finding with warp_level true and both accesses' warp
 * and lane: in the softmax, lane 0 reads row[1] (the planted-read line) that lane 1 stored
 * (the planted-write line), warp 0 of block 0. Its __syncwarp() twin has no finding. */
static void test_a_warp_level_hazard_is_a_finding_with_both_lanes_in_the_json(void **state)
{
    (void)state;
    const char *cu = "tests/data/planted/warp_sync_softmax.cu";
    char out[128], cmd[1024];
    snprintf(out, sizeof out, "%s/warp_sync_softmax.json", dir);
    assert_int_equal(sim_quiet(out, cu), WS_EXIT_KERNEL_FAULT);
    assert_int_equal(validate(out, NULL), 0);
    snprintf(cmd, sizeof cmd, "python3 -c \"import json,sys; d=json.load(open('%s')); "
             "f=[f for f in d['findings'] if f['tool'] == 'racecheck' and f['kind'] == 'RAW' and f['warp_level']][0]; "
             "ok = (f['line'], f['earlier']['line'], f['earlier']['lane'], f['later']['lane'], f['earlier']['warp'], "
             "f['later']['warp'], f['blockIdx'], f['threadIdx'], f['shared_offset']) == (%d, %d, 1, 0, 0, 0, [0,0,0], "
             "[0,0,0], 4) and 'Warp Level Programming' in f['message']; sys.exit(0 if ok else 1)\"", out,
             marker_line(cu, "planted-read"), marker_line(cu, "planted-write"));
    assert_int_equal(system(cmd), 0);
    snprintf(out, sizeof out, "%s/warp_sync_softmax_fixed.json", dir);
    assert_int_equal(sim_quiet(out, "tests/data/planted/warp_sync_softmax_fixed.cu"), WS_EXIT_OK);
    assert_int_equal(validate(out, NULL), 0);
    snprintf(cmd, sizeof cmd, "python3 -c \"import json,sys; sys.exit(len(json.load(open('%s'))['findings']))\"", out);
    assert_int_equal(system(cmd), 0);
}

/* `list --json` is a versioned document like every other (emit.c's one envelope), and the
 * schema knows it: the catalog form, the files-named form (catalog null), and a refusal. */
static void test_list_json_carries_the_envelope_and_validates(void **state)
{
    (void)state;
    char p[96], cmd[512];
    snprintf(p, sizeof p, "%s/list.json", dir);
    assert_int_equal(cmd_to(ws_cmd_list, p, (char *[]){"list", "--json", NULL}), WS_EXIT_OK);
    assert_int_equal(validate(p, NULL), 0);
    /* the envelope comes first, in this order, and the catalog follows it */
    snprintf(cmd, sizeof cmd, "python3 -c \"import json,sys; d=json.load(open('%s')); "
             "sys.exit(0 if list(d)[:5] == ['schema_version','tool','command','catalog','files'] "
             "and d['command'] == 'list' and d['schema_version'] == 1 else 1)\"", p);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/list1.json", dir);
    assert_int_equal(cmd_to(ws_cmd_list, p, (char *[]){"list", "--json", "demos/coalescing.cu", NULL}), WS_EXIT_OK);
    assert_int_equal(validate(p, NULL), 0);
    snprintf(cmd, sizeof cmd, "python3 -c \"import json,sys; d=json.load(open('%s')); "
             "sys.exit(0 if d['catalog'] is None and [f['path'] for f in d['files']] == ['demos/coalescing.cu'] "
             "else 1)\"", p);
    assert_int_equal(system(cmd), 0);
    /* a list document without its files is refused */
    snprintf(cmd, sizeof cmd, "sed 's/\"files\"/\"filez\"/' %s/list.json > %s/badlist.json", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(p, sizeof p, "%s/badlist.json 2>/dev/null", dir);
    assert_int_not_equal(validate(p, NULL), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list_json_carries_the_envelope_and_validates),
        cmocka_unit_test(test_sim_compare_and_replay_json_validate_against_the_schema),
        cmocka_unit_test(test_each_planted_bug_is_a_finding_in_the_json),
        cmocka_unit_test(test_a_warp_level_hazard_is_a_finding_with_both_lanes_in_the_json),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
