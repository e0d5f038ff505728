/* test_html.c - `sim --html FILE` (sim/report/report_html.c): the page of a stride-2 float copy
 * shows what 32 lanes 8 bytes apart cost (their 4-byte reads span 256 bytes: 8 sectors per
 * request where 4 would hold the bytes, x2 of ideal, yellow in the heat map), the load's and the
 * store's rows apart, and a picture with one box per sector; it names no other file and fetches
 * nothing; text from the user's source and description arrives escaped; and a real headless
 * browser (Debian's chromium-headless-shell) opens the single and the compare page with the
 * page's script running through and nothing on its console. Where the browser is missing the
 * test fails and names the package. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/catalog.h"
#include "../common/child.h"
#include "../common/commands.h"
#include "../common/files.h"
#include "../common/ptxgen.h"
#include "capture.h"

static char tmpdir[64];

static int setup(void **state)
{
    (void)state;
    setenv("WARPSCOPE_CATALOG", "demos", 1);
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ws-test-html-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char *av[] = {"/bin/rm", "-rf", tmpdir, NULL};
    ws_child_result r;
    ws_error err;
    int rc = ws_child_run(av, NULL, &r, &err);
    free(r.output);
    return rc == 0 && r.status == 0 ? 0 : -1;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *d = malloc((size_t)n + 1);
    assert_non_null(d);
    assert_int_equal(fread(d, 1, (size_t)n, f), (size_t)n);
    d[n] = 0;
    fclose(f);
    return d;
}

static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* `warpscope sim <args...> --html <tmpdir>/<name>`; returns the page (malloc'd). */
static char *sim_html(const char *name, const char *const *args)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    char *argv[16] = {"sim"};
    int argc = 1;
    for (; *args; args++) argv[argc++] = (char *)*args;
    argv[argc++] = "--html";
    argv[argc++] = path;
    char *out;
    int rc = ws_test_capture(ws_cmd_sim, argc, argv, &out);
    free(out);
    assert_int_equal(rc, WS_EXIT_OK);
    return slurp(path);
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

/* The 1-based line of path whose text holds needle (the first). */
static int line_of(const char *path, const char *needle)
{
    char *t = slurp(path);
    char *p = strstr(t, needle);
    assert_non_null(p);
    int line = 1;
    for (char *q = t; q < p; q++) line += *q == '\n';
    free(t);
    return line;
}

/* The text of the element starting at the first "<tag" after start that holds attr, up to its
 * closing tag (no nesting of the same tag in what we look at). malloc'd. */
static char *element(const char *start, const char *tag, const char *attr)
{
    char open[32], close[32];
    snprintf(open, sizeof open, "<%s", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    for (const char *p = start; (p = strstr(p, open)); p++) {
        const char *gt = strchr(p, '>'), *end = strstr(p, close);
        if (!gt || !end) break;
        if (memmem(p, (size_t)(gt - p), attr, strlen(attr))) {
            size_t n = (size_t)(end - p) + strlen(close);
            char *e = malloc(n + 1);
            memcpy(e, p, n);
            e[n] = 0;
            return e;
        }
    }
    fail_msg("no <%s ... %s> in the page", tag, attr);
    return NULL;
}

/* The text of each <td> of a row, tags dropped: cells[i] (at most 24). Returns the count. */
static int cells(const char *row, char cell[][128])
{
    int n = 0;
    for (const char *p = row; (p = strstr(p, "<td")) && n < 24; n++) {
        p = strchr(p, '>') + 1;
        const char *end = strstr(p, "</td>");
        size_t k = 0;
        for (int in_tag = 0; p < end; p++) {
            if (*p == '<') in_tag = 1;
            else if (*p == '>') in_tag = 0;
            else if (!in_tag && k < 127) cell[n][k++] = *p;
        }
        cell[n][k] = 0;
    }
    return n;
}

/* The per-line row of (line, space, op) in variant v's table. */
static void line_row(const char *page, const char *v, int line, const char *space, const char *op, char cell[][128])
{
    char id[32], at[64];
    snprintf(id, sizeof id, "id=\"%s-lines\"", v);
    char *table = element(page, "table", id);
    snprintf(at, sizeof at, "data-line=\"%d\"", line);
    for (const char *p = table; (p = strstr(p, at)); p++) {
        const char *tr = p;
        while (tr > table && strncmp(tr, "<tr", 3)) tr--;
        char *row = element(tr, "tr", at);
        int n = cells(row, cell);
        free(row);
        /* columns: line source space op instructions warp_instructions active_lanes_pct requests sectors
           sectors_ideal sectors/request shared_instructions wavefronts wavefronts_ideal bank_conflicts_ncu flag notes */
        assert_int_equal(n, 17);
        if (!strcmp(cell[2], space) && !strcmp(cell[3], op)) {
            free(table);
            return;
        }
    }
    fail_msg("no row for line %d %s %s", line, space, op);
}

/* Names no other file and no address: the page carries everything it shows. */
static void assert_self_contained(const char *page)
{
    assert_null(strstr(page, "<link"));
    assert_null(strstr(page, "<img"));
    assert_null(strstr(page, "<iframe"));
    assert_null(strstr(page, "<object"));
    assert_null(strstr(page, "<embed"));
    assert_null(strstr(page, "src=\""));            /* an attribute that loads (the user's text has its quotes escaped) */
    assert_null(strstr(page, "href=\""));
    assert_null(strstr(page, "url("));
    assert_null(strstr(page, "@import"));
    assert_null(strstr(page, "fetch("));
    assert_null(strstr(page, "XMLHttpRequest"));
    /* the one address is SVG's namespace name, which nothing fetches (and "http-equiv" no address) */
    assert_int_equal(count(page, "http"),
                     count(page, "xmlns=\"http://www.w3.org/2000/svg\"") + count(page, "http-equiv="));
    assert_non_null(strstr(page, "default-src 'none'"));  /* and the page forbids the browser any fetch */
}

static void test_stride_two_float_copy_page_shows_eight_sectors_per_request(void **state)
{
    (void)state;
    /* demos/coalescing.cu's stride_copy_s2: N = 1<<18 threads copy out[2i] = in[2i] */
    int line = line_of("demos/coalescing.cu", "out[xid] = in[xid];");
    char *page = sim_html("s2.html", (const char *[]){"stride_copy_s2", NULL});
    assert_self_contained(page);
    assert_non_null(strstr(page, "<!DOCTYPE html>"));
    char cell[24][128], want[32];
    /* 2^18 threads = 8192 warps, one execution each; a warp's 32 floats 8 bytes apart lie in
       256 bytes = 8 sectors of 32 bytes, where their 128 bytes would fit in 4 */
    const char *ops[] = {"ld", "st"};
    for (int k = 0; k < 2; k++) {
        line_row(page, "A", line, "global", ops[k], cell);
        assert_int_equal(atoi(cell[0]), line);
        assert_string_equal(cell[1], "out[xid] = in[xid];");
        snprintf(want, sizeof want, "%s.global.4", ops[k]);
        assert_string_equal(cell[4], want);
        assert_int_equal(atoll(cell[5]), 8192);           /* warp_instructions */
        assert_string_equal(cell[6], "100.0");            /* every lane active */
        assert_int_equal(atoll(cell[7]), 8192);           /* requests: one per warp */
        assert_int_equal(atoll(cell[8]), 8 * 8192);       /* sectors */
        assert_int_equal(atoll(cell[9]), 4 * 8192);       /* sectors_ideal */
        assert_string_equal(cell[10], "8.00");            /* sectors/request */
        assert_int_equal(atoll(cell[11]), 0);             /* no shared memory */
        assert_non_null(strstr(cell[15], "uncoalesced"));
    }
    /* the heat map: (8 + 8) / (4 + 4) = x2 of ideal, the colour halfway up the scale: yellow */
    char at[48];
    snprintf(at, sizeof at, "id=\"A-src-%d\"", line);
    char *src = element(page, "tr", at);
    assert_non_null(strstr(src, "x2.00"));
    assert_non_null(strstr(src, "background:#f2c14e"));
    assert_non_null(strstr(src, "100%"));
    free(src);
    /* the load's picture: 32 lane boxes, one wire each, 8 sector boxes 32 bytes apart */
    snprintf(at, sizeof at, "id=\"A-pic-%d-ld-global\"", line);
    char *fig = element(page, "figure", at);
    assert_int_equal(count(fig, "class=\"lane\""), 32);
    assert_int_equal(count(fig, "class=\"lane off\""), 0);
    assert_int_equal(count(fig, "class=\"wire\""), 32);
    assert_int_equal(count(fig, "class=\"sector\""), 8);
    const char *p = fig;
    for (int s = 0; s < 8; s++) {
        snprintf(want, sizeof want, ">+%d<", 32 * s);
        assert_non_null(p = strstr(p, want));
    }
    /* lane 31's float starts at 31 * 8 and ends 4 bytes later: 252 bytes from lane 0's first */
    assert_non_null(strstr(fig, "span 252 B"));
    assert_non_null(strstr(fig, "1 request, 8 sectors (ideal 4, 128 bytes used)"));
    free(fig);
    /* the time and what limits it */
    assert_non_null(strstr(page, "predicted, bound by"));
    assert_non_null(strstr(page, "class=\"limiter\""));
    free(page);
}

static const char EVIL[] = "</script><img src=x onerror=alert(1)> & \"q\" 'a'";
static const char EVIL_ESCAPED[] = "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; &#39;a&#39;";

/* demos/coalescing.cu with EVIL in stride_copy_s2's note and in a comment on the copy's line
 * (no line moves, so the checked-in PTX, headed by the new text's hash, still fits). */
static void write_evil_copy(char *cu, size_t cap)
{
    char *t = slurp("demos/coalescing.cu");
    int copy = line_of("demos/coalescing.cu", "out[xid] = in[xid];");
    int note = line_of("demos/coalescing.cu", "note    Stride 2: a warp spans 256 bytes");
    size_t n = strlen(t);
    char *o = malloc(n + 512);
    size_t k = 0;
    int line = 1;
    for (const char *p = t; *p;) {
        size_t len = strcspn(p, "\n");
        if (line == note)
            k += (size_t)sprintf(o + k, "note    %s", EVIL);
        else {
            memcpy(o + k, p, len);
            k += len;
            if (line == copy) k += (size_t)sprintf(o + k, " // %s", EVIL);
        }
        p += len;
        if (*p == '\n') o[k++] = *p++;
        line++;
    }
    o[k] = 0;
    snprintf(cu, cap, "%s/evil.cu", tmpdir);
    spit(cu, o);
    char *ptx = slurp("demos/coalescing.ptx");
    char *body = strchr(ptx, '\n');                  /* past the old "// warpscope-source-hash:" line */
    assert_non_null(body);
    char path[256], *np = malloc(strlen(body) + 64);
    sprintf(np, "// warpscope-source-hash: %016llx%s", ws_source_hash(o, k), body);
    snprintf(path, sizeof path, "%s/evil.ptx", tmpdir);
    spit(path, np);
    char *res = slurp("demos/coalescing.resources");
    snprintf(path, sizeof path, "%s/evil.resources", tmpdir);
    spit(path, res);
    free(res);
    free(np);
    free(ptx);
    free(o);
    free(t);
}

static void test_user_text_in_source_and_description_arrives_escaped(void **state)
{
    (void)state;
    char cu[256], arg[300];
    write_evil_copy(cu, sizeof cu);
    snprintf(arg, sizeof arg, "%s:stride_copy_s2", cu);
    char *page = sim_html("evil.html", (const char *[]){arg, NULL});
    assert_self_contained(page);                     /* no <img> came through */
    assert_null(strstr(page, "onerror=alert(1)>"));
    assert_int_equal(count(page, "</script>"), 2);    /* the page's own two scripts */
    /* the note once, the copy's line in the source pane and in both of its rows */
    assert_int_equal(count(page, EVIL_ESCAPED), 4);
    free(page);
}

/* ---- a real browser ---------------------------------------------------------------------- */

static const char *browser(void)
{
    static const char *const where[] = {"/usr/bin/chromium-headless-shell",
                                        "/usr/lib/chromium/chromium-headless-shell"};
    for (size_t i = 0; i < sizeof where / sizeof *where; i++)
        if (access(where[i], X_OK) == 0) return where[i];
    fail_msg("no headless browser: this test opens the --html page in one; install the Debian package "
             "chromium-headless-shell (apt-get install -y chromium-headless-shell; scripts/deps.sh does)");
    return NULL;
}

/* The DOM the browser made of page (after its scripts ran), with the browser's log. malloc'd. */
static char *open_in_browser(const char *page)
{
    char url[300], profile[300];
    snprintf(url, sizeof url, "file://%s", page);
    snprintf(profile, sizeof profile, "--user-data-dir=%s/chrome", tmpdir);
    char *av[] = {(char *)browser(), "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run",
                  profile, "--enable-logging=stderr", "--v=0", "--dump-dom", url, NULL};
    /* a browser maps far more address space than a compiler: no RLIMIT_AS; its own time only */
    ws_child_limits lim = {.wall_s = 30, .cpu_s = WS_CHILD_NO_LIMIT, .mem_bytes = WS_CHILD_NO_MEM_LIMIT, .tmpdir = tmpdir};
    ws_child_result r;
    ws_error err;
    if (ws_child_run(av, &lim, &r, &err)) fail_msg("cannot start %s: %s", av[0], err.msg);
    if (r.status != 0) fail_msg("%s: %s\n%s", av[0], r.why, r.output);
    return r.output;
}

static void assert_script_ran_clean(const char *dom)
{
    if (!strstr(dom, "<body data-ws-js=\"ok\"")) fail_msg("the page's script did not finish: %.4000s", dom);
    assert_null(strstr(dom, "data-ws-js=\"error\""));
    assert_null(strstr(dom, ":CONSOLE"));             /* nothing on the console: no error, no warning */
    assert_null(strstr(dom, "Uncaught"));
}

static void test_a_headless_browser_runs_the_pages_without_errors(void **state)
{
    (void)state;
    char path[256];
    char *page = sim_html("cmp.html", (const char *[]){"--compare", "transpose_naive", "transpose_padded", NULL});
    assert_self_contained(page);
    snprintf(path, sizeof path, "%s/cmp.html", tmpdir);
    char *dom = open_in_browser(path);
    assert_script_ran_clean(dom);
    assert_int_equal(count(dom, "<section class=\"variant\""), 2);
    assert_non_null(strstr(dom, "id=\"verdict\""));
    assert_non_null(strstr(dom, "B is predicted <b>faster</b>"));
    /* padded: the tile's column read is one wavefront per instruction, drawn as one row of banks */
    assert_non_null(strstr(dom, "<svg class=\"banks\""));
    free(dom);
    free(page);

    char cu[256], arg[300];
    write_evil_copy(cu, sizeof cu);
    snprintf(arg, sizeof arg, "%s:stride_copy_s2", cu);
    page = sim_html("evil.html", (const char *[]){arg, NULL});
    snprintf(path, sizeof path, "%s/evil.html", tmpdir);
    dom = open_in_browser(path);
    assert_script_ran_clean(dom);
    /* the script counted what the browser parsed: the copy's two rows and two pictures */
    assert_int_equal(count(page, "<figure class=\"pic\""), 2);
    assert_non_null(strstr(dom, "script ran: 2 line rows, 2 pictures"));
    free(page);
    assert_null(strstr(dom, "<img"));                 /* the text stayed text: no element was made of it */
    assert_non_null(strstr(dom, "&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;"));
    free(dom);
}

static void test_an_unwritable_html_file_is_refused_before_the_run(void **state)
{
    (void)state;
    char *argv[] = {"sim", "stride_copy_s2", "--html", "/nonexistent/dir/x.html"};
    char *out;
    assert_int_equal(ws_test_capture(ws_cmd_sim, 4, argv, &out), WS_EXIT_USAGE);
    assert_null(strstr(out, "kernel totals"));        /* nothing was simulated */
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stride_two_float_copy_page_shows_eight_sectors_per_request),
        cmocka_unit_test(test_user_text_in_source_and_description_arrives_escaped),
        cmocka_unit_test(test_a_headless_browser_runs_the_pages_without_errors),
        cmocka_unit_test(test_an_unwritable_html_file_is_refused_before_the_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
