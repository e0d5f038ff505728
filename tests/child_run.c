/* child_run.c - see child_run.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child_run.h"

const char *ws_test_bin(void)
{
    const char *b = getenv("WS_BIN");
    if (b && *b) return b;
    if (access("build/asan/warpscope", X_OK) == 0) return "build/asan/warpscope";
    fail_msg("no warpscope binary: set WS_BIN or build build/asan/warpscope (make test does both)");
    return NULL;
}

void ws_test_read_file(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(buf, 1, cap - 1, f) : 0;
    buf[n] = 0;
    if (f) fclose(f);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int ws_test_run_child_at(const char *cwd, const char *const *env, const char *const *args, const char *dir,
                         const char *out_path, char *err, size_t cap, double *seconds)
{
    char errpath[256], bin[512];
    snprintf(errpath, sizeof errpath, "%s/stderr.txt", dir);
    const char *b = ws_test_bin();
    if (cwd && b[0] != '/') { /* the child changes folder: the binary by its absolute path */
        char here[256];
        assert_non_null(getcwd(here, sizeof here));
        snprintf(bin, sizeof bin, "%s/%s", here, b);
    } else {
        snprintf(bin, sizeof bin, "%s", b);
    }
    double t0 = now();
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        int fo = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0 || fo < 0 || (cwd && chdir(cwd))) _exit(126);
        dup2(fd, 2);
        dup2(fo, 1);
        for (int i = 0; env && env[i]; i++) putenv((char *)env[i]);
        const char *argv[32];
        int n = 0;
        argv[n++] = bin;
        for (int i = 0; args[i] && n < 31; i++) argv[n++] = args[i];
        argv[n] = NULL;
        execv(argv[0], (char *const *)argv);
        _exit(127);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    if (seconds) *seconds = now() - t0;
    ws_test_read_file(errpath, err, cap);
    if (!WIFEXITED(st)) fail_msg("warpscope died with signal %d: %s", WTERMSIG(st), err);
    return WEXITSTATUS(st);
}

int ws_test_run_child(const char *const *args, const char *dir, const char *out_path, char *err, size_t cap,
                      double *seconds)
{
    return ws_test_run_child_at(NULL, NULL, args, dir, out_path, err, cap, seconds);
}
