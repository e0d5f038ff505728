/* test_cuda_results.c - recorded results: the JSON a run writes, the merge of
 * several invocations into one file, and the markdown generated from it. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../cuda/cu_results.h"
#include "../common/commands.h"
#include "../common/files.h"

static void device(cu_device_info *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "NVIDIA H200");
    cu_device_key(d->name, d->key, sizeof d->key);
    d->cc_major = 9;
    d->sm_count = 132;
    d->l2_bytes = 62914560;
    d->driver_api_version = 13000;
    snprintf(d->driver_version, sizeof d->driver_version, "580.159.04");
}

/* A copy of 2^26 floats: 2 * 256 MiB moved in 0.125 ms is 4294.97 GB/s. */
static void run(cu_result_run *r, const char *kernel, const char *ov, chk_row *rows)
{
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "%s", kernel);
    snprintf(r->file, sizeof r->file, "demos/coalescing.cu");
    snprintf(r->overrides, sizeof r->overrides, "%s", ov);
    r->timed = true;
    r->timing.reps = 20;
    r->timing.median_ms = 0.125;
    r->timing.bytes_moved = 2ull << 28;
    r->timing.bandwidth_gbs = (double)r->timing.bytes_moved / 0.125e-3 / 1e9;
    r->timing.copy_gbs = r->timing.bandwidth_gbs / 0.95;
    r->output_ok = 1;
    snprintf(r->output, sizeof r->output, "agrees with the simulator");
    chk_row_set(&rows[0], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", true, 8388608, true, 8388608);
    chk_row_set(&rows[1], "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", true, 8388608, true, 8388609);
    r->rows = rows;
    r->nrows = 2;
}

static char *slurp(const char *path)
{
    char *text = ws_read_file(path, 0, NULL, NULL);
    assert_non_null(text);
    return text;
}

static void test_a_later_recording_without_counters_keeps_the_ncu_version_of_kept_runs(void **state)
{
    (void)state;
    char path[] = "/tmp/warpscope-results-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    cu_device_info d;
    device(&d);
    ws_error err;
    chk_row rows[2];
    cu_result_run r;
    cJSON *with_ncu = cu_results_device_json(&d, "2025.3.1.0"), *without = cu_results_device_json(&d, NULL);
    cJSON *runs = cJSON_CreateArray();
    run(&r, "copy_float", "", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, with_ncu, runs, &err), 0);
    cJSON_Delete(runs);
    runs = cJSON_CreateArray(); /* a bandwidth-only run (check --gpu-only) */
    run(&r, "copy_float", "N=67108864", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, without, runs, &err), 0);
    cJSON_Delete(runs);
    cJSON_Delete(with_ncu);
    cJSON_Delete(without);
    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(root, "device"), "ncu")->valuestring, "2025.3.1.0");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs")), 2);
    cJSON_Delete(root);
    unlink(path);
}

static void test_runs_merge_by_kernel_and_overrides_and_render_as_markdown(void **state)
{
    (void)state;
    char path[] = "/tmp/warpscope-results-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path); /* start without a file */
    cu_device_info d;
    device(&d);
    ws_error err;
    chk_row rows[2];
    cu_result_run r;
    cJSON *dev = cu_results_device_json(&d, "2025.3.1.0");
    assert_string_equal(cJSON_GetObjectItem(dev, "key")->valuestring, "h200");

    cJSON *runs = cJSON_CreateArray();
    run(&r, "copy_float", "", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    run(&r, "copy_float", "N=67108864", rows);
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, dev, runs, &err), 0);
    cJSON_Delete(runs);

    /* a second invocation replaces the default-size run and keeps the large one */
    runs = cJSON_CreateArray();
    run(&r, "copy_float", "", rows);
    r.timing.median_ms = 0.25;
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    assert_int_equal(cu_results_record(path, dev, runs, &err), 0);
    cJSON_Delete(runs);
    cJSON_Delete(dev);

    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cJSON *all = cJSON_GetObjectItem(root, "runs");
    assert_int_equal(cJSON_GetArraySize(all), 2);
    int found_new = 0;
    cJSON *x;
    cJSON_ArrayForEach(x, all) {
        if (!strcmp(cJSON_GetObjectItem(x, "overrides")->valuestring, "")) {
            found_new = cJSON_GetObjectItem(cJSON_GetObjectItem(x, "time"), "median_ms")->valuedouble == 0.25;
        }
        cJSON *c0 = cJSON_GetArrayItem(cJSON_GetObjectItem(x, "counters"), 1);
        assert_string_equal(cJSON_GetObjectItem(c0, "verdict")->valuestring, "differs");
        assert_string_equal(cJSON_GetObjectItem(c0, "class")->valuestring, "exact");
    }
    assert_true(found_new);
    cJSON_Delete(root);

    char mdpath[] = "/tmp/warpscope-md-XXXXXX";
    fd = mkstemp(mdpath);
    assert_true(fd >= 0);
    FILE *md = fdopen(fd, "w+");
    assert_int_equal(cu_results_markdown(path, md, &err), 0);
    fclose(md);
    text = slurp(mdpath);
    assert_non_null(strstr(text, "# warpscope check on NVIDIA H200"));
    assert_non_null(strstr(text, "| copy_float | N=67108864 |"));
    assert_non_null(strstr(text, "95.0%")); /* bandwidth / ceiling */
    assert_non_null(strstr(text, "| exact | equal | 2 | 4 | 50% |")); /* per run: 1 of 2 sector rows agree */
    assert_non_null(strstr(text, "`l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum`"));
    free(text);
    unlink(mdpath);
    unlink(path);
    assert_int_equal(cu_results_markdown("/nonexistent.json", stdout, &err), -1);
}

/* A recorded time that is not positive shows as "-", and so does every bandwidth of that run:
 * tests/data/results/bad_times.json holds a negative median with a positive bandwidth. */
static void test_markdown_prints_no_bandwidth_for_a_time_that_is_not_one(void **state)
{
    (void)state;
    char mdpath[] = "/tmp/warpscope-md-XXXXXX";
    int fd = mkstemp(mdpath);
    assert_true(fd >= 0);
    FILE *md = fdopen(fd, "w+");
    ws_error err;
    assert_int_equal(cu_results_markdown("tests/data/results/bad_times.json", md, &err), 0);
    fclose(md);
    char *text = slurp(mdpath);
    assert_null(strstr(text, "-0.0050"));
    assert_null(strstr(text, "-6.4"));
    assert_null(strstr(text, "| 6.4 |"));                 /* its time was negative or missing */
    assert_non_null(strstr(text, "| copy_float | N=4096 | - | - | - | - | - |"));
    assert_non_null(strstr(text, "| copy_float | N=4096 | 0.0050 | - | - | - | - |")); /* null bandwidth */
    free(text);
    unlink(mdpath);
}

/* A recorded cause that named no mechanism (the older "no mechanism found; ..." or
 * "unexplained: missing ...") is found again from the record: here 2,048 B of DRAM reads above a
 * model's 64 KiB in a small kernel, which the rules now name instruction and constant fetches. */
static void test_markdown_finds_again_a_cause_recorded_without_a_mechanism(void **state)
{
    (void)state;
    char path[] = "/tmp/warpscope-results-XXXXXX", mdpath[] = "/tmp/warpscope-md-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "{\"device\": {\"name\": \"NVIDIA H200\"}, \"runs\": [{\"kernel\": \"copy_float\", "
               "\"overrides\": \"\", \"counters\": [{\"metric\": \"dram__bytes_read.sum\", \"class\": \"cache\", "
               "\"sim\": 65536, \"gpu\": 67584, \"verdict\": \"differs\", \"cause\": \"no mechanism found; "
               "missing evidence: old\"}, {\"metric\": \"dram__bytes_write.sum\", \"class\": \"cache\", "
               "\"sim\": 0, \"gpu\": 9999999, \"verdict\": \"differs\", \"cause\": \"unexplained: missing "
               "something\"}]}]}\n");
    fclose(f);
    fd = mkstemp(mdpath);
    assert_true(fd >= 0);
    FILE *md = fdopen(fd, "w+");
    ws_error err;
    assert_int_equal(cu_results_markdown(path, md, &err), 0);
    fclose(md);
    char *text = slurp(mdpath);
    assert_non_null(strstr(text, "instruction and constant fetches"));
    assert_null(strstr(text, "no mechanism found"));
    assert_null(strstr(text, "missing something")); /* found again: what is missing now */
    assert_non_null(strstr(text, "unexplained: missing dram__bytes_write.sum sampled"));
    free(text);
    unlink(mdpath);
    unlink(path);
}

/* ---- recordings are never lost (issue 21 item 2) --------------------------------------- */

static char g_dir[64];

static void fresh_dir(void)
{
    snprintf(g_dir, sizeof g_dir, "/tmp/ws-record-XXXXXX");
    assert_non_null(mkdtemp(g_dir));
}

/* The names in g_dir, and how many. */
static int entries(char names[][64], int cap)
{
    DIR *d = opendir(g_dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.') {
            if (n < cap) snprintf(names[n], 64, "%.63s", e->d_name);
            n++;
        }
    closedir(d);
    return n;
}

static void remove_dir(void)
{
    char names[64][64];
    int n = entries(names, 64);
    for (int i = 0; i < n && i < 64; i++) {
        char p[200];
        snprintf(p, sizeof p, "%s/%s", g_dir, names[i]);
        unlink(p);
    }
    rmdir(g_dir);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* One run of kernel in a fresh array. */
static cJSON *one_run(const char *kernel, chk_row *rows)
{
    cu_result_run r;
    run(&r, kernel, "", rows);
    cJSON *runs = cJSON_CreateArray();
    cJSON_AddItemToArray(runs, cu_results_run_json(&r));
    return runs;
}

static int nruns(const char *path)
{
    char *text = slurp(path);
    cJSON *root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    int n = cJSON_GetArraySize(cJSON_GetObjectItem(root, "runs"));
    cJSON_Delete(root);
    return n;
}

/* A text file, a results file cut in the middle (what a full disk left before), another GPU's
 * file and a folder: each refused with exit 1, the reason and the file named, the file as it was. */
static void test_record_refuses_what_is_not_a_results_file_of_this_device_and_keeps_it(void **state)
{
    (void)state;
    fresh_dir();
    cu_device_info d;
    device(&d);
    cJSON *dev = cu_results_device_json(&d, NULL);
    chk_row rows[2];
    cJSON *runs = one_run("copy_float", rows);
    char t4[128];
    snprintf(t4, sizeof t4, "%s/t4.json", g_dir);
    cu_device_info other;
    device(&other);
    snprintf(other.name, sizeof other.name, "Tesla T4");
    snprintf(other.key, sizeof other.key, "t4");
    cJSON *odev = cu_results_device_json(&other, NULL);
    assert_int_equal(cu_results_record(t4, odev, runs, NULL), 0);
    cJSON_Delete(odev);
    char *t4_before = slurp(t4);
    char cut[4096];
    snprintf(cut, sizeof cut, "%.*s", (int)(strlen(t4_before) / 2), t4_before);
    const struct { const char *name, *text, *why; } cases[] = {
        {"notes.txt", "my notes\nline two\n", "not a JSON object"},
        {"cut.json", cut, "not valid JSON"},
        {"t4.json", NULL, "another GPU (device key 't4'; this GPU's is 'h200')"},
        {"list.json", "[1, 2]", "not a JSON object"},
        {"other.json", "{\"runs\": [], \"name\": 1}", "no \"device\" key"},
        {"trailing.json", "{\"device\": {\"key\": \"h200\"}, \"runs\": []} tail", "not valid JSON near: tail"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[128];
        snprintf(path, sizeof path, "%s/%s", g_dir, cases[i].name);
        if (cases[i].text) write_text(path, cases[i].text);
        char *before = slurp(path);
        ws_error err;
        assert_int_equal(cu_results_check_target(path, "h200", &err), WS_EXIT_USAGE);
        memset(&err, 0, sizeof err);
        assert_int_equal(cu_results_record(path, dev, runs, &err), WS_EXIT_USAGE);
        assert_string_equal(err.file, path);
        if (!strstr(err.msg, cases[i].why)) fail_msg("%s: '%s' lacks '%s'", cases[i].name, err.msg, cases[i].why);
        char *after = slurp(path);
        assert_string_equal(after, before);
        free(before);
        free(after);
    }
    char sub[128];
    snprintf(sub, sizeof sub, "%s/folder", g_dir);
    assert_int_equal(mkdir(sub, 0755), 0);
    ws_error err;
    assert_int_equal(cu_results_record(sub, dev, runs, &err), WS_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "is a folder"));
    rmdir(sub);
    /* an output that cannot be written is exit 1 (help's table), before and at the write */
    snprintf(sub, sizeof sub, "%s/notes.txt/h200.json", g_dir); /* a path through a file */
    assert_int_equal(cu_results_check_target(sub, "h200", &err), WS_EXIT_USAGE);
    assert_int_equal(cu_results_record(sub, dev, runs, &err), WS_EXIT_USAGE);
    assert_non_null(strstr(err.msg, "cannot write the results file"));
    char names[16][64];
    assert_int_equal(entries(names, 16), 6);      /* no temporary or lock left by any of them */
    free(t4_before);
    cJSON_Delete(runs);
    cJSON_Delete(dev);
    remove_dir();
}

/* An empty file (mktemp's) holds nothing to lose: a recording goes into it. */
static void test_record_fills_an_empty_file(void **state)
{
    (void)state;
    fresh_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/h200.json", g_dir);
    write_text(path, "");
    cu_device_info d;
    device(&d);
    cJSON *dev = cu_results_device_json(&d, NULL);
    chk_row rows[2];
    cJSON *runs = one_run("copy_float", rows);
    ws_error err;
    assert_int_equal(cu_results_check_target(path, "h200", &err), 0);
    assert_int_equal(cu_results_record(path, dev, runs, &err), 0);
    assert_int_equal(nruns(path), 1);
    cJSON_Delete(runs);
    cJSON_Delete(dev);
    remove_dir();
}

/* The merge alone, on a synthetic previous document: A and B kept, B replaced by the new B,
 * C added after; the previous ncu version kept under a device that used none. */
static void test_merge_keeps_old_runs_replaces_the_same_run_and_appends_new_ones(void **state)
{
    (void)state;
    cJSON *prev = cJSON_Parse("{\"device\": {\"key\": \"h200\", \"ncu\": \"2025.3.1.0\"}, \"runs\": ["
                              "{\"kernel\": \"a\", \"file\": \"f.cu\", \"overrides\": \"\", \"v\": 1},"
                              "{\"kernel\": \"b\", \"file\": \"f.cu\", \"overrides\": \"N=4\", \"v\": 1}]}");
    cJSON *runs = cJSON_Parse("[{\"kernel\": \"b\", \"file\": \"f.cu\", \"overrides\": \"N=4\", \"v\": 2},"
                              "{\"kernel\": \"c\", \"file\": \"f.cu\", \"overrides\": \"\", \"v\": 2}]");
    cJSON *dev = cJSON_Parse("{\"key\": \"h200\", \"ncu\": \"not used\"}");
    assert_non_null(prev);
    assert_non_null(runs);
    cJSON *m = cu_results_merge(prev, dev, runs, "2026-12-01T00:00:00Z");
    cJSON *all = cJSON_GetObjectItem(m, "runs");
    assert_int_equal(cJSON_GetArraySize(all), 3);
    const char *want[][2] = {{"a", "1"}, {"b", "2"}, {"c", "2"}};
    for (int i = 0; i < 3; i++) {
        cJSON *r = cJSON_GetArrayItem(all, i);
        assert_string_equal(cJSON_GetObjectItem(r, "kernel")->valuestring, want[i][0]);
        assert_int_equal(cJSON_GetObjectItem(r, "v")->valueint, want[i][1][0] - '0');
    }
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(m, "device"), "ncu")->valuestring, "2025.3.1.0");
    assert_string_equal(cJSON_GetObjectItem(m, "date")->valuestring, "2026-12-01T00:00:00Z");
    cJSON_Delete(m);
    cJSON_Delete(prev);
    cJSON_Delete(runs);
    cJSON_Delete(dev);
}

/* In a child whose file-size limit (1 KiB) is below the new document's size, as a full disk: the
 * recording fails with exit 1 and the file from before is there byte for byte, nothing beside it. */
static void test_a_recording_that_cannot_be_written_leaves_the_old_file_whole(void **state)
{
    (void)state;
    fresh_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/h200.json", g_dir);
    cu_device_info d;
    device(&d);
    cJSON *dev = cu_results_device_json(&d, NULL);
    chk_row rows[2];
    cJSON *runs = one_run("copy_float", rows);
    assert_int_equal(cu_results_record(path, dev, runs, NULL), 0);
    cJSON_Delete(runs);
    char *before = slurp(path);
    cJSON *more = cJSON_CreateArray();
    for (int i = 0; i < 4; i++) {
        char k[32];
        snprintf(k, sizeof k, "kernel_%d", i);
        cJSON *one = one_run(k, rows);
        cJSON_AddItemToArray(more, cJSON_DetachItemFromArray(one, 0));
        cJSON_Delete(one);
    }
    char *big = cJSON_Print(more);
    assert_true(strlen(big) > 2 * 1024);          /* the write must cross the limit */
    free(big);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);                 /* EFBIG, as ENOSPC on a full disk */
        struct rlimit rl = {1024, 1024};
        setrlimit(RLIMIT_FSIZE, &rl);
        ws_error err;
        int rc = cu_results_record(path, dev, more, &err);
        _exit(rc == WS_EXIT_USAGE && strstr(err.msg, "it keeps what it had") ? 0 : 10 + rc);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);
    char *after = slurp(path);
    assert_string_equal(after, before);
    char names[8][64];
    assert_int_equal(entries(names, 8), 1);
    assert_string_equal(names[0], "h200.json");
    free(before);
    free(after);
    cJSON_Delete(more);
    cJSON_Delete(dev);
    remove_dir();
}

/* Four processes record 8 runs each, one invocation per run, into one file at the same time:
 * every one of the 32 lands (a read-merge-rename without the lock loses the runs of whichever
 * process renamed between another's read and rename), and no lock file stays. */
static void test_four_concurrent_recordings_into_one_file_all_land(void **state)
{
    (void)state;
    fresh_dir();
    char path[128];
    snprintf(path, sizeof path, "%s/h200.json", g_dir);
    cu_device_info d;
    device(&d);
    enum { PROCS = 4, EACH = 8 };
    pid_t pids[PROCS];
    for (int p = 0; p < PROCS; p++) {
        pids[p] = fork();
        assert_true(pids[p] >= 0);
        if (pids[p] == 0) {
            cJSON *dev = cu_results_device_json(&d, NULL);
            int bad = 0;
            for (int i = 0; i < EACH; i++) {
                char k[32];
                snprintf(k, sizeof k, "p%d_run%d", p, i);
                chk_row rows[2];
                cJSON *runs = one_run(k, rows);
                ws_error err;
                bad += cu_results_record(path, dev, runs, &err) != 0;
                cJSON_Delete(runs);
            }
            _exit(bad);
        }
    }
    for (int p = 0; p < PROCS; p++) {
        int st;
        assert_int_equal(waitpid(pids[p], &st, 0), pids[p]);
        assert_true(WIFEXITED(st));
        assert_int_equal(WEXITSTATUS(st), 0);
    }
    assert_int_equal(nruns(path), PROCS * EACH);
    char *text = slurp(path);
    for (int p = 0; p < PROCS; p++)
        for (int i = 0; i < EACH; i++) {
            char k[40];
            snprintf(k, sizeof k, "\"p%d_run%d\"", p, i);
            assert_non_null(strstr(text, k));
        }
    free(text);
    char names[8][64];
    assert_int_equal(entries(names, 8), 1);      /* h200.json only: the lock is gone */
    remove_dir();
}

/* The simulator's basis goes into the record, for check --replay to judge exact rows by, and a
 * --no-sim run says it is one ("no_sim": true, no basis). */
static void test_a_run_records_which_code_the_simulator_counted(void **state)
{
    (void)state;
    chk_row rows[2];
    cu_result_run r;
    run(&r, "copy_float", "", rows);
    r.sim_basis = "sass";
    cJSON *j = cu_results_run_json(&r);
    assert_string_equal(cJSON_GetObjectItem(j, "sim_basis")->valuestring, "sass");
    assert_null(cJSON_GetObjectItem(j, "no_sim"));   /* simulated: no flag, as in every older record */
    cJSON_Delete(j);
    r.sim_basis = NULL;                          /* --gpu-only: nothing simulated */
    j = cu_results_run_json(&r);
    assert_null(cJSON_GetObjectItem(j, "sim_basis"));
    assert_null(cJSON_GetObjectItem(j, "no_sim"));
    cJSON_Delete(j);
    r.no_sim = true;                             /* --no-sim: counters without simulator values, said */
    j = cu_results_run_json(&r);
    assert_null(cJSON_GetObjectItem(j, "sim_basis"));
    assert_true(cJSON_IsTrue(cJSON_GetObjectItem(j, "no_sim")));
    cJSON_Delete(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_merge_by_kernel_and_overrides_and_render_as_markdown),
        cmocka_unit_test(test_a_later_recording_without_counters_keeps_the_ncu_version_of_kept_runs),
        cmocka_unit_test(test_markdown_prints_no_bandwidth_for_a_time_that_is_not_one),
        cmocka_unit_test(test_markdown_finds_again_a_cause_recorded_without_a_mechanism),
        cmocka_unit_test(test_record_refuses_what_is_not_a_results_file_of_this_device_and_keeps_it),
        cmocka_unit_test(test_record_fills_an_empty_file),
        cmocka_unit_test(test_merge_keeps_old_runs_replaces_the_same_run_and_appends_new_ones),
        cmocka_unit_test(test_a_recording_that_cannot_be_written_leaves_the_old_file_whole),
        cmocka_unit_test(test_four_concurrent_recordings_into_one_file_all_land),
        cmocka_unit_test(test_a_run_records_which_code_the_simulator_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
