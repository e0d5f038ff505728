/* test_viz_layout.c - the frame's geometry at the two ends of the supported range,
 * 1024x768 and 3840x2160, with the font scale each window gets: renders a busy frame
 * (long source lines, a 32-way conflict, the heat map, the timeline, a recorded GPU run)
 * with the draw log on and checks what was drawn: every panel inside the window, no two
 * panels overlapping, every text's measured extent inside its panel, a long source line
 * drawn whole (wrapped), the verdict badge whole. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../viz/viz_render.h"

/* line 113 as the issue saw it cut after `tile[threadI`, and a longer one */
static const char *LONG113 = "        out[y_out * height + x_out] = tile[threadIdx.x][threadIdx.y];   "
                             "// the column read: 32 lanes, one bank, 32 wavefronts";
static const char *LONG115 = "    /* a comment long enough to wrap three times in a narrow pane: shared memory has 32 "
                             "banks of 4-byte words, and a warp's request is served in as many wavefronts as the "
                             "busiest bank has distinct words */";

typedef struct {
    SDL_Surface *surf;
    SDL_Renderer *r;
    viz_fonts fonts;
    viz_recording rec, rec2;
    viz_state st;
    viz_draw_log *log;
    int w, h;
} fixture;

static void add_step(viz_recording *r, uint32_t warp, ws_space sp, ws_mem_op op, uint64_t base, uint64_t stride,
                     int line)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = sp;
    ev.op = op;
    ev.width = 4;
    ev.elem_size = 4;
    ev.vec = 1;
    ev.active_mask = 0xFFFFFFFFu;
    ev.warp = warp;
    ev.src_line = line;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = base + (uint64_t)l * stride;
    viz_step s;
    viz_step_from_event(&s, &ev);
    snprintf(s.ptx_text, sizeof s.ptx_text, "%s.%s.f32 %%f%d, [%%rd%d]", op == WS_MEM_LOAD ? "ld" : "st",
             sp == WS_SPACE_SHARED ? "shared" : "global", line, line);
    viz_totals_add(&r->launch, &s);
    s.totals = r->launch;
    assert_int_equal(viz_recording_push(r, &s), 0);
    assert_int_equal(viz_recording_heat_add_step(r, &s), 0);
}

/* A transpose-shaped recording: 8 warps x (global ld, shared st, shared ld, global st),
 * shared column read at stride `stride` bytes. */
static void make_recording(viz_recording *r, const char *name, uint64_t stride)
{
    viz_recording_init(r);
    snprintf(r->kernel, sizeof r->kernel, "%s", name);
    snprintf(r->device, sizeof r->device, "NVIDIA H200");
    r->warps_per_block = 8;
    r->num_blocks = 1;
    r->grid[0] = r->grid[1] = 16;
    r->grid[2] = 1;
    r->block_dim[0] = 32;
    r->block_dim[1] = 8;
    r->block_dim[2] = 1;
    static char src[16384];
    src[0] = 0;
    for (int i = 1; i <= 130; i++) {
        char line[400];
        if (i == 113)
            snprintf(line, sizeof line, "%s\n", LONG113);
        else if (i == 115)
            snprintf(line, sizeof line, "%s\n", LONG115);
        else
            snprintf(line, sizeof line, "    int v%d = tile[threadIdx.y + %d][threadIdx.x];\n", i, i);
        strcat(src, line);
    }
    assert_int_equal(viz_recording_set_source(r, "demos/transpose.cu", src), 0);
    for (uint32_t w = 0; w < 8; w++) {
        add_step(r, w, WS_SPACE_GLOBAL, WS_MEM_LOAD, 0x100000000ull + 128 * w, 4, 104);
        add_step(r, w, WS_SPACE_SHARED, WS_MEM_STORE, 128 * w, 4, 105);
        add_step(r, w, WS_SPACE_SHARED, WS_MEM_LOAD, 4 * w, stride, 113);
        add_step(r, w, WS_SPACE_GLOBAL, WS_MEM_STORE, 0x200000000ull + 128 * w, 4, 114);
    }
    r->tp = (viz_throughput){.gpu = "NVIDIA H200", .date = "2026-11-30", .source = "results/h200.json",
                             .measured_gbs = 365, .predicted_gbs = 386, .peak_gbs = 4800, .measured_us = 10,
                             .predicted_us = 9, .bytes_moved = 2097152, .copy_gbs = 4259, .copy_bytes = 1073741824,
                             .launch_us = 4.3, .launch_basis = "NVIDIA H200 profile's launch_overhead_us"};
}

static int open_at(void **state, int w, int h)
{
    fixture *fx = calloc(1, sizeof *fx);
    fx->w = w;
    fx->h = h;
    fx->surf = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    fx->r = fx->surf ? SDL_CreateSoftwareRenderer(fx->surf) : NULL;
    char err[512];
    if (!fx->r || viz_fonts_open(fx->r, viz_font_scale_for(w, h), &fx->fonts, err, sizeof err)) {
        fprintf(stderr, "cannot set up a %dx%d frame: %s\n", w, h, fx->r ? err : SDL_GetError());
        return -1;
    }
    make_recording(&fx->rec, "transpose_coalesced_32x8", 128);
    make_recording(&fx->rec2, "transpose_padded_32x8", 132);
    fx->log = calloc(1, sizeof *fx->log);
    viz_state_init(&fx->st);
    *state = fx;
    return 0;
}

static int open_small(void **state) { return open_at(state, 1024, 768); }
static int open_4k(void **state) { return open_at(state, 3840, 2160); }
static int open_tiny(void **state) { return open_at(state, 480, 360); }

static int teardown(void **state)
{
    fixture *fx = *state;
    viz_recording_free(&fx->rec);
    viz_recording_free(&fx->rec2);
    viz_fonts_close(&fx->fonts);
    SDL_DestroyRenderer(fx->r);
    SDL_FreeSurface(fx->surf);
    free(fx->log);
    free(fx);
    return 0;
}

/* Shows step k of the block (all warps) in 1 or 2 panes and renders with the log on. */
static void render(fixture *fx, int npanes, size_t k)
{
    static size_t tl[2][64];
    fx->st.npanes = npanes;
    for (int p = 0; p < npanes; p++) {
        viz_recording *r = p ? &fx->rec2 : &fx->rec;
        for (size_t i = 0; i < r->nsteps; i++)
            tl[p][i] = i;
        fx->st.pane[p] = (viz_pane_state){.rec = r, .step = &r->steps[k], .ordinal = k, .count = r->nsteps,
                                          .scope = VIZ_SCOPE_BLOCK, .tl = tl[p], .tl_count = r->nsteps,
                                          .tl_pos = k};
    }
    fx->st.log = fx->log;
    viz_render_frame(fx->r, &fx->fonts, &fx->st);
    fx->st.log = NULL;
    assert_int_equal(fx->log->dropped, 0);
    assert_true(fx->log->ntexts > 50);
}

static bool inside(SDL_Rect outer, SDL_Rect in)
{
    return in.x >= outer.x && in.y >= outer.y && in.x + in.w <= outer.x + outer.w &&
           in.y + in.h <= outer.y + outer.h;
}

static bool overlap(SDL_Rect a, SDL_Rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* Every panel in the window, none overlapping another, every text inside its panel. */
static void check_geometry(const fixture *fx, const char *what)
{
    const viz_draw_log *lg = fx->log;
    SDL_Rect win = {0, 0, fx->w, fx->h};
    assert_true(lg->npanels >= 9);
    for (int i = 0; i < lg->npanels; i++) {
        if (!inside(win, lg->panel[i].rect))
            fail_msg("%s: panel %s (%d,%d %dx%d) leaves the %dx%d window", what, lg->panel[i].name,
                     lg->panel[i].rect.x, lg->panel[i].rect.y, lg->panel[i].rect.w, lg->panel[i].rect.h, fx->w, fx->h);
        for (int j = i + 1; j < lg->npanels; j++)
            if (!lg->panel[i].overlay && !lg->panel[j].overlay && overlap(lg->panel[i].rect, lg->panel[j].rect))
                fail_msg("%s: panels %s (pane %d) and %s (pane %d) overlap", what, lg->panel[i].name,
                         lg->panel[i].pane, lg->panel[j].name, lg->panel[j].pane);
    }
    for (int t = 0; t < lg->ntexts; t++) {
        int p = lg->text[t].panel;
        if (p < 0)
            fail_msg("%s: text '%s' drawn outside any panel", what, lg->text[t].text);
        SDL_Rect r = lg->text[t].rect;
        if (!inside(lg->panel[p].rect, r))
            fail_msg("%s: text '%s' (%d,%d %dx%d) is cut by its panel %s (%d,%d %dx%d)", what, lg->text[t].text, r.x,
                     r.y, r.w, r.h, lg->panel[p].name, lg->panel[p].rect.x, lg->panel[p].rect.y, lg->panel[p].rect.w,
                     lg->panel[p].rect.h);
    }
}

/* The texts drawn in panel `name` of pane 0, concatenated in drawing order. */
static void panel_text(const fixture *fx, const char *name, char *out, size_t cap)
{
    const viz_draw_log *lg = fx->log;
    size_t o = 0;
    out[0] = 0;
    for (int t = 0; t < lg->ntexts; t++) {
        int p = lg->text[t].panel;
        if (p < 0 || strcmp(lg->panel[p].name, name) || lg->panel[p].pane != 0)
            continue;
        size_t n = strlen(lg->text[t].text);
        if (o + n + 1 >= cap)
            break;
        memcpy(out + o, lg->text[t].text, n + 1);
        o += n;
    }
}

static void check_frames(void **state, const char *size)
{
    fixture *fx = *state;
    char what[64];
    /* the 32-way column read (step 2), a global load (step 0), with help and quiz overlays */
    for (int np = 1; np <= 2; np++) {
        snprintf(what, sizeof what, "%s, %d pane%s, shared step", size, np, np > 1 ? "s" : "");
        render(fx, np, 2);
        check_geometry(fx, what);
        snprintf(what, sizeof what, "%s, %d pane%s, global step", size, np, np > 1 ? "s" : "");
        render(fx, np, 0);
        check_geometry(fx, what);
    }
    fx->st.show_help = true;
    snprintf(what, sizeof what, "%s, help", size);
    render(fx, 1, 2);
    check_geometry(fx, what);
    fx->st.show_help = false;
    fx->st.quiz = (viz_quiz){.on = true, .asking = true, .guess = "32", .tries = 3, .right = 2};
    snprintf(what, sizeof what, "%s, quiz", size);
    render(fx, 1, 2);
    check_geometry(fx, what);
    fx->st.quiz = (viz_quiz){0};
}

static void test_at_1024x768_panels_stay_in_the_window_apart_and_hold_their_texts(void **state)
{
    check_frames(state, "1024x768");
}

static void test_at_3840x2160_panels_stay_in_the_window_apart_and_hold_their_texts(void **state)
{
    check_frames(state, "3840x2160");
}

static void test_long_source_lines_are_drawn_whole_by_wrapping(void **state)
{
    fixture *fx = *state;
    render(fx, 1, 2); /* the current line is 113: it and line 115 below it are in view */
    static char all[65536];
    panel_text(fx, "source", all, sizeof all);
    assert_non_null(strstr(all, LONG113));
    assert_non_null(strstr(all, LONG115));
    /* and it needed wrapping: more characters than one row holds */
    viz_layout L;
    viz_layout_compute(fx->w, fx->h, 1, &fx->fonts, &L);
    int cols = viz_layout_source_cols(&L, &L.pane[0]);
    assert_true((int)strlen(LONG115) > cols);
    assert_true(viz_wrap_rows(LONG115, cols) >= 2);
}

static void test_the_verdict_badge_is_drawn_whole(void **state)
{
    fixture *fx = *state;
    render(fx, 1, 2);
    /* 32 lanes at 128-B stride: word 32 l, bank (32 l) % 32 = 0 for every lane: 32 words in one bank */
    const char *badge = "32 wavefronts \xC2\xB7 ideal 1 \xC2\xB7 32-way bank conflict";
    const viz_draw_log *lg = fx->log;
    int found = 0;
    for (int t = 0; t < lg->ntexts; t++)
        if (!strcmp(lg->text[t].text, badge)) {
            assert_int_equal(lg->text[t].rect.w, viz_text_width(fx->fonts.sans, badge));
            found++;
        }
    assert_int_equal(found, 1);
}

static void test_the_throughput_panel_states_the_launch_share_of_the_measured_time(void **state)
{
    fixture *fx = *state;
    render(fx, 1, 0);
    static char all[16384];
    panel_text(fx, "throughput", all, sizeof all);
    /* 4.3 us of launch in a 10 us run is 43 %; the ceiling bar names its 1.07 GB copy */
    assert_non_null(strstr(all, "(43%)"));
    assert_non_null(strstr(all, "copy ceiling (1.07 GB)"));
    assert_null(strstr(all, "peak"));
}

static void test_the_font_scale_follows_the_window(void **state)
{
    fixture *fx = *state;
    /* 1 at 1280x800; the smaller ratio elsewhere, from 0.85 up to 3 */
    assert_true(viz_font_scale_for(1280, 800) == 1.0);
    assert_true(viz_font_scale_for(1024, 768) == 0.85);
    assert_true(viz_font_scale_for(3840, 2160) == 2.7);
    assert_true(viz_font_scale_for(7680, 4320) == 3.0);
    /* the monospace cell grows with it: 13 px x 2.7 = 35 px, against 13 px at scale 1 */
    viz_fonts one;
    char err[256];
    assert_int_equal(viz_fonts_open(fx->r, 1.0, &one, err, sizeof err), 0);
    double ratio = (double)viz_font_height(fx->fonts.mono) / viz_font_height(one.mono);
    double want = viz_font_scale_for(fx->w, fx->h);
    viz_fonts_close(&one);
    assert_true(ratio > want * 0.9 && ratio < want * 1.1);
}

/* The smallest window viz accepts: every step of both recordings draws (under AddressSanitizer:
 * a lane cell too narrow for a short address once read before its text). */
static void test_at_480x360_every_step_draws_within_its_buffers(void **state)
{
    fixture *fx = *state;
    for (size_t step = 0; step < fx->rec.nsteps; step++) render(fx, 1, step);
    for (size_t step = 0; step < fx->rec.nsteps && step < fx->rec2.nsteps; step++) render(fx, 2, step);
    assert_true(fx->rec.nsteps > 0);
}

int main(void)
{
    const struct CMUnitTest small[] = {
        cmocka_unit_test(test_at_1024x768_panels_stay_in_the_window_apart_and_hold_their_texts),
        cmocka_unit_test(test_long_source_lines_are_drawn_whole_by_wrapping),
        cmocka_unit_test(test_the_verdict_badge_is_drawn_whole),
        cmocka_unit_test(test_the_throughput_panel_states_the_launch_share_of_the_measured_time),
    };
    const struct CMUnitTest big[] = {
        cmocka_unit_test(test_at_3840x2160_panels_stay_in_the_window_apart_and_hold_their_texts),
        cmocka_unit_test(test_long_source_lines_are_drawn_whole_by_wrapping),
        cmocka_unit_test(test_the_verdict_badge_is_drawn_whole),
        cmocka_unit_test(test_the_font_scale_follows_the_window),
    };
    int rc = cmocka_run_group_tests_name("1024x768", small, open_small, teardown);
    const struct CMUnitTest tiny[] = {
        cmocka_unit_test(test_at_480x360_every_step_draws_within_its_buffers),
    };
    rc |= cmocka_run_group_tests_name("480x360", tiny, open_tiny, teardown);
    return rc | cmocka_run_group_tests_name("3840x2160", big, open_4k, teardown);
}
