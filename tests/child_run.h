/* child_run.h - running the warpscope binary as a child process, for the tests that judge its exit
 * code, messages and wall time (test_cli_errors, test_stops, test_budget, test_injection). cmocka asserts inside. */
#ifndef WS_TEST_CHILD_RUN_H
#define WS_TEST_CHILD_RUN_H

#include <stddef.h>

/* The binary under test: $WS_BIN (scripts/run-tests.sh exports it), else build/asan/warpscope;
 * fails the test when neither is there. */
const char *ws_test_bin(void);

/* Runs ws_test_bin() with args (NULL-terminated, at most 30): its stderr goes to dir/stderr.txt and
 * is read back into err (NUL-terminated, at most cap - 1 bytes), its stdout to out_path (NULL:
 * /dev/null). Returns its exit code; a child killed by a signal fails the test. *seconds (NULL:
 * not wanted) gets the run's wall time. */
int ws_test_run_child(const char *const *args, const char *dir, const char *out_path, char *err, size_t cap,
                      double *seconds);

/* The same run in folder cwd (NULL: this one) with env's NAME=VALUE strings (NULL-terminated,
 * may be NULL) put into its environment in order, a later one winning. */
int ws_test_run_child_at(const char *cwd, const char *const *env, const char *const *args, const char *dir,
                         const char *out_path, char *err, size_t cap, double *seconds);

/* Reads path into buf (NUL-terminated, at most cap - 1 bytes; empty when it cannot be read). */
void ws_test_read_file(const char *path, char *buf, size_t cap);

#endif
