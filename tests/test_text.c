/* test_text.c - foreign text made safe (common/text.c): invalid UTF-8 becomes U+FFFD for JSON,
 * and terminal controls are spelled out for text output. The cases follow RFC 3629's table of
 * well-formed sequences: C0/C1 and F5..FF never start one, E0 needs A0..BF next (else the
 * form is overlong), ED needs 80..9F (else a surrogate), F4 needs 80..8F (else above U+10FFFF). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../common/text.h"

static void test_valid_utf8_is_recognised_by_its_length(void **state)
{
    (void)state;
    assert_int_equal(ws_utf8_seq((const unsigned char *)"a"), 1);
    assert_int_equal(ws_utf8_seq((const unsigned char *)"\xc3\xa9"), 2);          /* é */
    assert_int_equal(ws_utf8_seq((const unsigned char *)"\xe2\x82\xac"), 3);      /* € */
    assert_int_equal(ws_utf8_seq((const unsigned char *)"\xf0\x9f\x98\x80"), 4);  /* U+1F600 */
    assert_int_equal(ws_utf8_seq((const unsigned char *)"\xf4\x8f\xbf\xbf"), 4);  /* U+10FFFF */
}

static void test_ill_formed_sequences_are_rejected(void **state)
{
    (void)state;
    const char *bad[] = {"\x80", "\xbf", "\xc0\xaf", "\xc1\xbf", "\xe9", "\xe9 ", "\xe0\x80\xaf",
                         "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xc3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        if (ws_utf8_seq((const unsigned char *)bad[i]) != 0) fail_msg("case %zu accepted", i);
}

static void test_each_bad_byte_becomes_one_replacement_character(void **state)
{
    (void)state;
    char *s = ws_utf8_valid("caf\xe9 \xff\xfe ok \xe2\x82\xac");
    assert_string_equal(s, "caf\xef\xbf\xbd \xef\xbf\xbd\xef\xbf\xbd ok \xe2\x82\xac");
    free(s);
    s = ws_utf8_valid("plain");
    assert_string_equal(s, "plain");
    free(s);
}

static void test_json_from_invalid_bytes_parses_and_is_valid_utf8(void **state)
{
    (void)state;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "note", "caf\xe9\x1b[31m");
    char *text = ws_json_print(o);
    cJSON_Delete(o);
    for (const unsigned char *p = (const unsigned char *)text; *p;) {
        size_t n = ws_utf8_seq(p);
        assert_true(n > 0);
        p += n;
    }
    cJSON *back = cJSON_Parse(text);
    assert_non_null(back);
    /* cJSON escapes ESC as \u001b; the lone E9 came back as U+FFFD */
    assert_string_equal(cJSON_GetObjectItem(back, "note")->valuestring, "caf\xef\xbf\xbd\x1b[31m");
    cJSON_Delete(back);
    free(text);
}

static void test_terminal_controls_are_spelled_out_and_the_rest_passes(void **state)
{
    (void)state;
    char buf[128];
    assert_string_equal(ws_text_visible("a\x1b[2Jb\x07", buf, sizeof buf), "a\\x1b[2Jb\\x07");
    assert_string_equal(ws_text_visible("\xc2\x9b" "2J", buf, sizeof buf), "\\u009b2J");  /* C1 CSI */
    assert_string_equal(ws_text_visible("caf\xe9\x7f", buf, sizeof buf), "caf\\xe9\\x7f");
    assert_string_equal(ws_text_visible("tab\tand \xe2\x82\xac", buf, sizeof buf), "tab\tand \xe2\x82\xac");
    assert_string_equal(ws_text_visible("line\nbreak\r", buf, sizeof buf), "line\\x0abreak\\x0d");
}

static void test_a_cut_never_splits_a_character_or_an_escape(void **state)
{
    (void)state;
    char buf[6];
    assert_string_equal(ws_text_visible("ab\x1b", buf, sizeof buf), "ab");       /* \x1b needs 4 */
    assert_string_equal(ws_text_visible("abc\xe2\x82\xac", buf, sizeof buf), "abc"); /* € needs 3 */
    char one[1];
    assert_string_equal(ws_text_visible("abc", one, sizeof one), "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_utf8_is_recognised_by_its_length),
        cmocka_unit_test(test_ill_formed_sequences_are_rejected),
        cmocka_unit_test(test_each_bad_byte_becomes_one_replacement_character),
        cmocka_unit_test(test_json_from_invalid_bytes_parses_and_is_valid_utf8),
        cmocka_unit_test(test_terminal_controls_are_spelled_out_and_the_rest_passes),
        cmocka_unit_test(test_a_cut_never_splits_a_character_or_an_escape),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
