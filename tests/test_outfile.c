/* test_outfile.c - an output written through common/outfile.c is whole or not there: a write
 * that fails (here: the file-size limit, as a full disk would) leaves the good file that was at
 * the path untouched and no temporary beside it; a device path is written in place, never
 * renamed over. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../common/outfile.h"

static char g_dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(g_dir, sizeof g_dir, "/tmp/ws-outfile-XXXXXX");
    return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(g_dir);
    for (struct dirent *e; d && (e = readdir(d));) {
        char p[400];
        snprintf(p, sizeof p, "%s/%s", g_dir, e->d_name);
        if (e->d_name[0] != '.') unlink(p);
    }
    if (d) closedir(d);
    return rmdir(g_dir);
}

static int entries(void)
{
    int n = 0;
    DIR *d = opendir(g_dir);
    for (struct dirent *e; d && (e = readdir(d));) n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

static void write_text(const char *path, const char *text)
{
    ws_outfile o;
    FILE *f = ws_outfile_fopen(&o, path);
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(ws_outfile_commit_closed(&o, fclose(f)), 0);
}

static char *slurp(const char *path)
{
    static char buf[1 << 16];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void test_a_commit_replaces_the_file_and_leaves_no_temporary(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/a.txt", g_dir);
    write_text(path, "first\n");
    write_text(path, "second\n");
    assert_string_equal(slurp(path), "second\n");
    assert_int_equal(entries(), 1);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    mode_t mask = umask(0);
    umask(mask);
    assert_int_equal(st.st_mode & 0777, 0666 & ~mask);   /* as a plain open(0666) makes it */
    unlink(path);
}

/* In a child under RLIMIT_FSIZE of 4 KiB, a 64 KiB write fails (EFBIG, as ENOSPC would): the
 * 6-byte file from before is still there, whole, and nothing else is. */
static void test_a_write_that_fails_leaves_the_old_file_whole(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/keep.gif", g_dir);
    write_text(path, "GOOD!\n");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {4096, 4096};
        setrlimit(RLIMIT_FSIZE, &rl);
        ws_outfile o;
        FILE *f = ws_outfile_fopen(&o, path);
        if (!f) _exit(10);
        static char big[1 << 16];
        memset(big, 'x', sizeof big);
        size_t w = fwrite(big, 1, sizeof big, f);
        int rc = fclose(f);
        bool ok = w == sizeof big && rc == 0;
        _exit(ws_outfile_commit_closed(&o, ok ? 0 : -1) == 0 ? 11 : 0);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 0);                 /* the failure was seen */
    assert_string_equal(slurp(path), "GOOD!\n");
    assert_int_equal(entries(), 1);
    unlink(path);
}

static void test_an_abort_keeps_the_old_file(void **state)
{
    (void)state;
    char path[128];
    snprintf(path, sizeof path, "%s/b.txt", g_dir);
    write_text(path, "old\n");
    ws_outfile o;
    assert_true(ws_outfile_open(&o, path) >= 0);
    assert_int_equal(write(o.fd, "new", 3), 3);
    ws_outfile_abort(&o);
    assert_string_equal(slurp(path), "old\n");
    assert_int_equal(entries(), 1);
    unlink(path);
}

/* /dev/null is written in place: renaming over a device node would replace it. */
static void test_a_device_is_written_in_place(void **state)
{
    (void)state;
    ws_outfile o;
    assert_true(ws_outfile_open(&o, "/dev/null") >= 0);
    assert_string_equal(o.tmp, "");
    assert_int_equal(write(o.fd, "x", 1), 1);
    assert_int_equal(ws_outfile_commit(&o, true), 0);
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    assert_true(ws_outfile_open(&o, "/dev/full") >= 0);    /* the failure shows at the write */
    assert_int_equal(write(o.fd, "x", 1), -1);
    assert_int_equal(errno, ENOSPC);
    ws_outfile_abort(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_commit_replaces_the_file_and_leaves_no_temporary),
        cmocka_unit_test(test_a_write_that_fails_leaves_the_old_file_whole),
        cmocka_unit_test(test_an_abort_keeps_the_old_file),
        cmocka_unit_test(test_a_device_is_written_in_place),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
