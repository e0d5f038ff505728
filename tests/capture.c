/* capture.c - see capture.h. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "capture.h"

int ws_test_capture(int (*cmd)(int, char **), int argc, char **argv, char **out)
{
    char path[] = "/tmp/ws_test_capture_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    fflush(stdout);
    int saved = dup(1);
    dup2(fd, 1);
    int rc = cmd(argc, argv);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    off_t len = lseek(fd, 0, SEEK_END);
    lseek(fd, 0, SEEK_SET);
    *out = calloc(1, (size_t)len + 1);
    assert_int_equal(read(fd, *out, (size_t)len), len);
    close(fd);
    unlink(path);
    return rc;
}
