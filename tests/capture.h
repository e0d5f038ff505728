/* capture.h - running a command function in-process with its stdout captured, for the tests that
 * read what `warpscope <command>` prints (cmocka asserts inside). */
#ifndef WS_TEST_CAPTURE_H
#define WS_TEST_CAPTURE_H

/* Calls cmd(argc, argv) with stdout going to a temporary file; *out gets everything it printed
 * (malloc'd, NUL-terminated). Returns cmd's exit code. */
int ws_test_capture(int (*cmd)(int, char **), int argc, char **argv, char **out);

#endif
