/* test_viz_render.c - renders known steps headless (software renderer on an
 * SDL_Surface) and reads the pixels back at the cells the layout functions name.
 * Every expectation is derived here from addresses and widths: bank = word % 32,
 * sector = byte / 32, line = byte / 128. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_image.h>

#include "../common/catalog.h"
#include "../common/commands.h"
#include "../common/files.h"
#include "../viz/viz_record.h"
#include "../viz/viz_render.h"

#define W 1280
#define H 800
#define GBASE 0x100000000ull

static const viz_fonts *g_fonts; /* the fixture's, for the layout functions */

typedef struct {
    SDL_Surface *surf;
    SDL_Renderer *r;
    viz_fonts fonts;
    viz_recording rec;
    viz_state st;
} fixture;

static int setup(void **state)
{
    fixture *fx = calloc(1, sizeof *fx);
    fx->surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    fx->r = fx->surf ? SDL_CreateSoftwareRenderer(fx->surf) : NULL;
    if (!fx->r) {
        fprintf(stderr, "cannot create a software renderer: %s\n", SDL_GetError());
        return -1;
    }
    char err[512];
    if (viz_fonts_open(fx->r, 1.0, &fx->fonts, err, sizeof err)) {
        fprintf(stderr, "fonts: %s\n", err);
        return -1;
    }
    g_fonts = &fx->fonts;
    viz_recording_init(&fx->rec);
    snprintf(fx->rec.kernel, sizeof fx->rec.kernel, "test_kernel");
    viz_state_init(&fx->st);
    *state = fx;
    return 0;
}

static int teardown(void **state)
{
    fixture *fx = *state;
    viz_recording_free(&fx->rec);
    viz_fonts_close(&fx->fonts);
    SDL_DestroyRenderer(fx->r);
    SDL_FreeSurface(fx->surf);
    free(fx);
    return 0;
}

/* An event for 32 lanes with addr(lane), all active unless mask says otherwise. */
static ws_mem_event make_event(ws_space sp, ws_mem_op op, int width, uint32_t mask, uint64_t base,
                               uint64_t stride)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = sp;
    ev.op = op;
    ev.width = (uint8_t)width;
    ev.elem_size = (uint8_t)(width > 8 ? 4 : width);
    ev.vec = (uint8_t)(width > 8 ? width / 4 : 1);
    ev.active_mask = mask;
    ev.src_line = 3;
    for (int l = 0; l < 32; l++)
        if (mask & (1u << l))
            ev.addr[l] = base + (uint64_t)l * stride;
    return ev;
}

/* Renders step s in a single pane and leaves the pixels in fx->surf. */
static void render_step(fixture *fx, const viz_step *s)
{
    fx->rec.nsteps = 0;
    assert_int_equal(viz_recording_push(&fx->rec, s), 0);
    fx->st.npanes = 1;
    fx->st.pane[0].rec = &fx->rec;
    fx->st.pane[0].step = &fx->rec.steps[0];
    fx->st.pane[0].count = 1;
    fx->st.phase = 1.0;
    viz_render_frame(fx->r, &fx->fonts, &fx->st);
    SDL_RenderPresent(fx->r);
    const char *dir = getenv("VIZ_TEST_PNG_DIR"); /* to look at what the tests see */
    if (dir) {
        static int n;
        char path[512];
        snprintf(path, sizeof path, "%s/test_%02d.png", dir, n++);
        IMG_SavePNG(fx->surf, path);
    }
}

static uint32_t pixel(const fixture *fx, int x, int y)
{
    assert_true(x >= 0 && y >= 0 && x < W && y < H);
    const uint32_t *row = (const uint32_t *)((const uint8_t *)fx->surf->pixels + (size_t)y * fx->surf->pitch);
    return row[x] & 0xFFFFFFu;
}

/* The colour a cell is filled with, read inside its top-left corner (text and the
 * bytes-used strip sit in the middle and at the bottom). */
static uint32_t cell_rgb(const fixture *fx, SDL_Rect c)
{
    assert_true(c.w >= 3 && c.h >= 3);
    return pixel(fx, c.x + 1, c.y + 1);
}

static viz_layout layout1(void)
{
    viz_layout L;
    viz_layout_compute(W, H, 1, g_fonts, &L);
    return L;
}

/* ---- shared memory ------------------------------------------------------------ */

static void test_32_way_conflict_lights_one_bank_32_times_in_the_conflict_colour(void **state)
{
    fixture *fx = *state;
    /* float column of a 32x32 tile: lane l reads word 32*l -> bank (32 l) % 32 = 0, 32 rows */
    ws_mem_event ev = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0, 32 * 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.nrows, 32);
    assert_int_equal(s.wavefronts, 32); /* one bank, 32 distinct words */
    assert_int_equal(s.ideal_wavefronts, 1);
    render_step(fx, &s);
    viz_layout L = layout1();
    int lit = 0, conflict_cells = 0;
    for (int r = 0; r < s.nrows; r++)
        for (int b = 0; b < 32; b++) {
            uint32_t c = cell_rgb(fx, viz_layout_bank_cell(&L.pane[0], &L.m, s.nrows, b, r));
            if (c != VIZ_RGB_EMPTY) {
                lit++;
                assert_int_equal(b, 0);
            }
            if (c == VIZ_RGB_CONFLICT)
                conflict_cells++;
        }
    assert_int_equal(lit, 32);
    assert_int_equal(conflict_cells, 32);
}

static void test_padded_stride_33_lights_32_different_banks_without_conflict(void **state)
{
    fixture *fx = *state;
    /* float tile[32][33], column read: word 33 l -> bank (33 l) % 32 = l, row (33 l) / 32 = l */
    ws_mem_event ev = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0, 33 * 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.wavefronts, 1);
    render_step(fx, &s);
    viz_layout L = layout1();
    int per_bank[32] = {0};
    for (int r = 0; r < s.nrows; r++)
        for (int b = 0; b < 32; b++) {
            uint32_t c = cell_rgb(fx, viz_layout_bank_cell(&L.pane[0], &L.m, s.nrows, b, r));
            assert_int_not_equal(c, VIZ_RGB_CONFLICT);
            if (c != VIZ_RGB_EMPTY) {
                assert_int_equal(c, VIZ_RGB_ACCESS);
                per_bank[b]++;
            }
        }
    for (int b = 0; b < 32; b++)
        assert_int_equal(per_bank[b], 1);
}

static void test_broadcast_word_is_one_cell_in_the_broadcast_colour(void **state)
{
    fixture *fx = *state;
    ws_mem_event ev = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0x40, 0); /* word 16 */
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.nrows, 1);
    assert_int_equal(s.wavefronts, 1);
    render_step(fx, &s);
    viz_layout L = layout1();
    for (int b = 0; b < 32; b++)
        assert_int_equal(cell_rgb(fx, viz_layout_bank_cell(&L.pane[0], &L.m, 1, b, 0)),
                         b == 16 ? VIZ_RGB_BROADCAST : VIZ_RGB_EMPTY);
}

static void test_two_way_conflict_marks_exactly_the_colliding_bank(void **state)
{
    fixture *fx = *state;
    /* stride 2 floats: words 0,2,..,62 -> banks 0,2,..,30, each needing 2 words (rows 0 and 1) */
    ws_mem_event ev = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0, 8);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.wavefronts, 2);
    render_step(fx, &s);
    viz_layout L = layout1();
    for (int r = 0; r < 2; r++)
        for (int b = 0; b < 32; b++)
            assert_int_equal(cell_rgb(fx, viz_layout_bank_cell(&L.pane[0], &L.m, 2, b, r)),
                             b % 2 == 0 ? VIZ_RGB_CONFLICT : VIZ_RGB_EMPTY);
}

/* ---- global memory -------------------------------------------------------------- */

/* Counts sector cells drawn in a touched colour; *empty gets the untouched ones. */
static int lit_sectors(const fixture *fx, const viz_step *s, uint32_t want, int *empty)
{
    viz_layout L = layout1();
    int lit = 0;
    *empty = 0;
    for (int i = 0; i < s->nlines; i++)
        for (int k = 0; k < 4; k++) {
            uint32_t c = cell_rgb(fx, viz_layout_sector_cell(&L.pane[0], &L.m, s->nlines, i, k));
            if (c == VIZ_RGB_EMPTY)
                (*empty)++;
            else {
                assert_int_equal(c, want);
                lit++;
            }
        }
    return lit;
}

static void test_coalesced_float_load_lights_exactly_four_sectors(void **state)
{
    fixture *fx = *state;
    /* 32 lanes x 4 B = 128 B from an aligned base: one line, all four sectors */
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE, 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.sectors, 4);
    assert_int_equal(s.nlines, 1);
    render_step(fx, &s);
    int empty;
    assert_int_equal(lit_sectors(fx, &s, VIZ_RGB_TOUCHED, &empty), 4);
    assert_int_equal(empty, 0);
}

static void test_stride_2_float_load_lights_eight_sectors(void **state)
{
    fixture *fx = *state;
    /* lanes 8 B apart span 31*8+4 = 252 B -> ceil(252/32) = 8 sectors in 2 lines */
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE, 8);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.sectors, 8);
    assert_int_equal(s.ideal_sectors, 4);
    assert_int_equal(s.nlines, 2);
    render_step(fx, &s);
    int empty;
    assert_int_equal(lit_sectors(fx, &s, VIZ_RGB_TOUCHED, &empty), 8);
    assert_int_equal(empty, 0);
}

static void test_misaligned_float_load_lights_five_sectors_and_leaves_three_dark(void **state)
{
    fixture *fx = *state;
    /* bytes 4..131: sectors 0-3 of line 0 and sector 0 of line 1 */
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE + 4, 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    render_step(fx, &s);
    int empty;
    assert_int_equal(lit_sectors(fx, &s, VIZ_RGB_TOUCHED, &empty), 5);
    assert_int_equal(empty, 3);
}

static void test_half_warp_float_load_lights_two_sectors(void **state)
{
    fixture *fx = *state;
    /* 16 active lanes x 4 B = 64 B: two sectors; masked lanes add nothing */
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0x0000FFFFu, GBASE, 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    render_step(fx, &s);
    int empty;
    assert_int_equal(lit_sectors(fx, &s, VIZ_RGB_TOUCHED, &empty), 2);
    assert_int_equal(empty, 2);
    viz_layout L = layout1();
    /* an inactive lane's cell is not drawn in its active colour: read its hatched body */
    SDL_Rect on = viz_layout_lane_cell(&L.pane[0], &L.m, 0), off = viz_layout_lane_cell(&L.pane[0], &L.m, 16);
    assert_int_not_equal(pixel(fx, on.x + on.w - 2, on.y + on.h - 2), pixel(fx, off.x + off.w - 2, off.y + off.h - 2));
}

static void test_sectors_take_the_colour_of_their_cache_outcome(void **state)
{
    fixture *fx = *state;
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 4, 0xFFFFFFFFu, GBASE, 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    s.lines[0].outcome[0] = VIZ_OUT_L1_HIT;
    s.lines[0].outcome[1] = VIZ_OUT_L2_HIT;
    s.lines[0].outcome[2] = VIZ_OUT_DRAM;
    s.lines[0].outcome[3] = VIZ_OUT_DRAM;
    render_step(fx, &s);
    viz_layout L = layout1();
    const uint32_t want[4] = {VIZ_RGB_L1, VIZ_RGB_L2, VIZ_RGB_DRAM, VIZ_RGB_DRAM};
    for (int k = 0; k < 4; k++)
        assert_int_equal(cell_rgb(fx, viz_layout_sector_cell(&L.pane[0], &L.m, 1, 0, k)), want[k]);
}

static void test_stores_are_drawn_as_writes(void **state)
{
    fixture *fx = *state;
    /* float store, stride 32 elements: 32 lines, one sector each */
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_STORE, 4, 0xFFFFFFFFu, GBASE, 128);
    viz_step s;
    viz_step_from_event(&s, &ev);
    assert_int_equal(s.nlines, 32);
    render_step(fx, &s);
    int empty;
    assert_int_equal(lit_sectors(fx, &s, VIZ_RGB_WRITE, &empty), 32);
    assert_int_equal(empty, 96);
}

/* ---- layout, hover, determinism ----------------------------------------------------- */

static void test_hovering_a_bank_cell_finds_that_bank(void **state)
{
    fixture *fx = *state;
    ws_mem_event ev = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0, 33 * 4);
    viz_step s;
    viz_step_from_event(&s, &ev);
    render_step(fx, &s);
    viz_layout L = layout1();
    SDL_Rect c = viz_layout_bank_cell(&L.pane[0], &L.m, s.nrows, 7, 7);
    viz_hit h = viz_hit_test(&L, &fx->st, c.x + c.w / 2, c.y + c.h / 2);
    assert_int_equal(h.kind, VIZ_HIT_BANK);
    assert_int_equal(h.bank, 7);
    assert_int_equal(h.row_slot, 7);
    SDL_Rect lc = viz_layout_lane_cell(&L.pane[0], &L.m, 21);
    h = viz_hit_test(&L, &fx->st, lc.x + 2, lc.y + 2);
    assert_int_equal(h.kind, VIZ_HIT_LANE);
    assert_int_equal(h.lane, 21);
}

static void test_a_state_renders_to_the_same_pixels_every_time(void **state)
{
    fixture *fx = *state;
    ws_mem_event ev = make_event(WS_SPACE_GLOBAL, WS_MEM_LOAD, 8, 0xFFFFFFFFu, GBASE, 8);
    viz_step s;
    viz_step_from_event(&s, &ev);
    fx->st.show_help = true;
    render_step(fx, &s);
    size_t bytes = (size_t)fx->surf->pitch * H;
    uint8_t *first = malloc(bytes);
    memcpy(first, fx->surf->pixels, bytes);
    render_step(fx, &s);
    fx->st.show_help = false;
    assert_memory_equal(first, fx->surf->pixels, bytes);
    free(first);
}

static void test_compare_mode_draws_each_variant_in_its_own_pane(void **state)
{
    fixture *fx = *state;
    viz_recording other;
    viz_recording_init(&other);
    ws_mem_event e1 = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0, 32 * 4);
    ws_mem_event e2 = make_event(WS_SPACE_SHARED, WS_MEM_LOAD, 4, 0xFFFFFFFFu, 0, 33 * 4);
    viz_step s1, s2;
    viz_step_from_event(&s1, &e1);
    viz_step_from_event(&s2, &e2);
    fx->rec.nsteps = 0;
    viz_recording_push(&fx->rec, &s1);
    viz_recording_push(&other, &s2);
    fx->st.npanes = 2;
    fx->st.pane[0] = (viz_pane_state){.rec = &fx->rec, .step = &fx->rec.steps[0], .count = 1};
    fx->st.pane[1] = (viz_pane_state){.rec = &other, .step = &other.steps[0], .count = 1};
    viz_render_frame(fx->r, &fx->fonts, &fx->st);
    viz_layout L;
    viz_layout_compute(W, H, 2, g_fonts, &L);
    int conflicts[2] = {0}, lit[2] = {0};
    for (int p = 0; p < 2; p++)
        for (int r = 0; r < 32; r++)
            for (int b = 0; b < 32; b++) {
                uint32_t c = cell_rgb(fx, viz_layout_bank_cell(&L.pane[p], &L.m, 32, b, r));
                conflicts[p] += c == VIZ_RGB_CONFLICT;
                lit[p] += c != VIZ_RGB_EMPTY;
            }
    assert_int_equal(conflicts[0], 32);
    assert_int_equal(conflicts[1], 0);
    assert_int_equal(lit[1], 32);
    fx->st.npanes = 1;
    viz_recording_free(&other);
    fx->rec.nsteps = 0;
}


/* ---- heat map and timeline ------------------------------------------------------------- */

/* Four steps on three lines: line 10 a coalesced float load (4 sectors), line 12 a
 * conflict-free shared store (1 wavefront), line 14 a 32-way shared read (32 wavefronts),
 * twice for line 14 (warps 0 and 1). */
static void heat_recording(fixture *fx)
{
    fx->rec.nsteps = 0;
    free(fx->rec.heat); /* each test starts its heat map afresh */
    fx->rec.heat = NULL;
    fx->rec.nheat = 0;
    fx->rec.warps_per_block = 2;
    fx->rec.num_blocks = 1;
    static const struct { ws_space sp; ws_mem_op op; uint64_t base, stride; int line; uint32_t warp; } k[] = {
        {WS_SPACE_GLOBAL, WS_MEM_LOAD, GBASE, 4, 10, 0},
        {WS_SPACE_SHARED, WS_MEM_STORE, 0, 4, 12, 0},
        {WS_SPACE_SHARED, WS_MEM_LOAD, 0, 128, 14, 0},
        {WS_SPACE_SHARED, WS_MEM_LOAD, 4, 128, 14, 1},
    };
    for (int i = 0; i < 4; i++) {
        ws_mem_event ev = make_event(k[i].sp, k[i].op, 4, 0xFFFFFFFFu, k[i].base, k[i].stride);
        ev.src_line = k[i].line;
        ev.warp = k[i].warp;
        viz_step s;
        viz_step_from_event(&s, &ev);
        assert_int_equal(viz_recording_push(&fx->rec, &s), 0);
        assert_int_equal(viz_recording_heat_add_step(&fx->rec, &s), 0);
    }
    char src[1024] = "";
    for (int i = 1; i <= 20; i++)
        strcat(src, "    x = tile[threadIdx.x][threadIdx.y];\n");
    assert_int_equal(viz_recording_set_source(&fx->rec, "k.cu", src), 0);
}

static void show(fixture *fx, size_t k, viz_scope sc)
{
    static size_t tl[8];
    for (size_t i = 0; i < fx->rec.nsteps; i++)
        tl[i] = i;
    fx->st.npanes = 1;
    fx->st.pane[0] = (viz_pane_state){.rec = &fx->rec, .step = &fx->rec.steps[k], .ordinal = k,
                                      .count = fx->rec.nsteps, .scope = sc, .tl = tl, .tl_count = fx->rec.nsteps,
                                      .tl_pos = k, .warp = fx->rec.steps[k].warp};
    fx->st.phase = 1.0;
    viz_render_frame(fx->r, &fx->fonts, &fx->st);
    SDL_RenderPresent(fx->r);
}

static void test_heat_map_draws_the_costliest_line_full_and_red_and_the_others_in_proportion(void **state)
{
    fixture *fx = *state;
    heat_recording(fx);
    /* per line: 10 -> 4 sectors, 12 -> 1 wavefront, 14 -> 32 + 32 = 64 wavefronts: 14 is the worst */
    assert_int_equal(viz_recording_worst_line(&fx->rec), 14);
    assert_int_equal(viz_heat_units(&fx->rec.heat[14]), 64);
    show(fx, 0, VIZ_SCOPE_BLOCK);
    viz_layout L = layout1();
    const viz_pane_layout *p = &L.pane[0];
    /* entries in line order: 10, 12, 14 */
    viz_pane_state *ps = &fx->st.pane[0];
    SDL_Rect worst = viz_layout_heat_bar(&L, p, viz_layout_heat_row_of(&L, p, ps, 2), 1.0);
    assert_int_equal(pixel(fx, worst.x + 1, worst.y + worst.h / 2), VIZ_RGB_BAD);
    assert_int_equal(pixel(fx, worst.x + worst.w - 1, worst.y + worst.h / 2), VIZ_RGB_BAD);
    /* line 10: 4 / 64 of the bar, in a cool colour; past it the empty track */
    int r10 = viz_layout_heat_row_of(&L, p, ps, 0);
    SDL_Rect l10 = viz_layout_heat_bar(&L, p, r10, 4.0 / 64), full = viz_layout_heat_bar(&L, p, r10, 1.0);
    uint32_t c10 = pixel(fx, l10.x, l10.y + l10.h / 2);
    assert_int_equal(c10, viz_heat_rgb(0)); /* 4 sectors, ideal 4: x1, the coolest colour */
    assert_int_not_equal(c10, VIZ_RGB_BAD);
    assert_int_equal(pixel(fx, l10.x + l10.w + 2, l10.y + l10.h / 2), VIZ_RGB_EMPTY);
    assert_int_equal(pixel(fx, full.x + full.w - 1, full.y + full.h / 2), VIZ_RGB_EMPTY);
    /* the source gutter ticks take the same colours: the current line (10) is not red */
    assert_int_equal(viz_heat_rgb(1.0), VIZ_RGB_BAD);
}

/* Two lines, each at x1 of ideal: 64 coalesced floats' loads on line 10 (8 sectors), one on
 * line 12 (4 sectors); and line 14, a 2-way conflicted shared read, far cheaper than line 10. */
static void test_heat_map_colours_by_waste_so_a_costly_line_at_its_ideal_is_not_red(void **state)
{
    fixture *fx = *state;
    fx->rec.nsteps = 0;
    free(fx->rec.heat);
    fx->rec.heat = NULL;
    fx->rec.nheat = 0;
    fx->rec.warps_per_block = 1;
    fx->rec.num_blocks = 1;
    static const struct { ws_space sp; uint64_t base, stride; int line; } k[] = {
        {WS_SPACE_GLOBAL, GBASE, 4, 10}, {WS_SPACE_GLOBAL, GBASE + 128, 4, 10}, {WS_SPACE_GLOBAL, GBASE, 4, 12},
        {WS_SPACE_SHARED, 0, 8, 14}};
    for (int i = 0; i < 4; i++) {
        ws_mem_event ev = make_event(k[i].sp, WS_MEM_LOAD, 4, 0xFFFFFFFFu, k[i].base, k[i].stride);
        ev.src_line = k[i].line;
        viz_step s;
        viz_step_from_event(&s, &ev);
        assert_int_equal(viz_recording_push(&fx->rec, &s), 0);
        assert_int_equal(viz_recording_heat_add_step(&fx->rec, &s), 0);
    }
    char src[1024] = "";
    for (int i = 1; i <= 20; i++)
        strcat(src, "    x = a[threadIdx.x];\n");
    assert_int_equal(viz_recording_set_source(&fx->rec, "k.cu", src), 0);
    /* stride 8 B over 32 banks: 2 wavefronts, ideal 1 -> x2 */
    assert_int_equal(fx->rec.heat[14].wavefronts, 2);
    assert_int_equal(viz_recording_worst_line(&fx->rec), 10);
    show(fx, 0, VIZ_SCOPE_BLOCK);
    viz_layout L = layout1();
    const viz_pane_layout *p = &L.pane[0];
    viz_pane_state *ps = &fx->st.pane[0];
    SDL_Rect b10 = viz_layout_heat_bar(&L, p, viz_layout_heat_row_of(&L, p, ps, 0), 1.0);
    assert_int_equal(pixel(fx, b10.x + 1, b10.y + b10.h / 2), viz_heat_rgb(0)); /* the costliest, not red */
    assert_int_not_equal(viz_heat_rgb(0), VIZ_RGB_BAD);
    SDL_Rect b14 = viz_layout_heat_bar(&L, p, viz_layout_heat_row_of(&L, p, ps, 2), 2.0 / 8);
    assert_int_equal(pixel(fx, b14.x + 1, b14.y + b14.h / 2), viz_heat_rgb(0.5)); /* x2: half way */
}

static void test_heat_map_rows_carry_their_source_line_whole(void **state)
{
    fixture *fx = *state;
    heat_recording(fx);
    viz_draw_log *lg = calloc(1, sizeof *lg);
    fx->st.log = lg;
    show(fx, 0, VIZ_SCOPE_BLOCK);
    fx->st.log = NULL;
    viz_layout L = layout1();
    assert_true(viz_layout_heat_roomy(&L, &L.pane[0], &fx->st.pane[0]));
    int whole = 0;
    for (int t = 0; t < lg->ntexts; t++)
        if (lg->text[t].panel >= 0 && !strcmp(lg->panel[lg->text[t].panel].name, "heat"))
            whole += !strcmp(lg->text[t].text, "x = tile[threadIdx.x][threadIdx.y];");
    assert_int_equal(whole, 3); /* lines 10, 12 and 14 */
    free(lg);
}

static void test_clicking_a_heat_map_row_names_its_line(void **state)
{
    fixture *fx = *state;
    heat_recording(fx);
    show(fx, 0, VIZ_SCOPE_BLOCK);
    viz_layout L = layout1();
    SDL_Rect bar = viz_layout_heat_bar(&L, &L.pane[0], viz_layout_heat_row_of(&L, &L.pane[0], &fx->st.pane[0], 1), 1.0);
    viz_hit h = viz_hit_test(&L, &fx->st, bar.x + 2, bar.y + 1);
    assert_int_equal(h.kind, VIZ_HIT_HEAT);
    assert_int_equal(h.src_line, 12);
}

static void test_timeline_puts_each_step_in_its_warps_row_in_its_verdict_colour(void **state)
{
    fixture *fx = *state;
    heat_recording(fx);
    show(fx, 1, VIZ_SCOPE_BLOCK);
    viz_layout L = layout1();
    const viz_pane_layout *p = &L.pane[0];
    viz_pane_state *ps = &fx->st.pane[0];
    /* 4 steps over 2 warp rows: steps 0-2 in warp 0's row (the top half), step 3 in warp 1's */
    assert_int_equal(viz_timeline_rows(ps), 2);
    uint32_t want[4] = {VIZ_RGB_GOOD, VIZ_RGB_GOOD, VIZ_RGB_BAD, VIZ_RGB_BAD}; /* 4/4, 1/1, 1/32, 1/32 of ideal */
    for (size_t k = 0; k < 4; k++) {
        SDL_Rect c = viz_layout_timeline_cell(p, ps, k);
        bool top = c.y < p->tl_plot.y + p->tl_plot.h / 2;
        assert_int_equal(top, fx->rec.steps[k].warp == 0);
        if (k == 1) /* the current step: a white marker through its column */
            assert_int_equal(pixel(fx, c.x + c.w / 2, p->tl_plot.y + p->tl_plot.h - 2), 0xFFFFFFu);
        else
            assert_int_equal(pixel(fx, c.x + c.w / 4, c.y + c.h / 2), want[k]);
        /* the other warp's row in that column is empty */
        int oy = top ? p->tl_plot.y + p->tl_plot.h * 3 / 4 : p->tl_plot.y + p->tl_plot.h / 4;
        if (k != 1)
            assert_int_not_equal(pixel(fx, c.x + c.w / 4, oy), want[k]);
    }
    /* clicking the column of step 3 names timeline position 3 */
    SDL_Rect c3 = viz_layout_timeline_cell(p, ps, 3);
    viz_hit h = viz_hit_test(&L, &fx->st, c3.x + 1, c3.y + 1);
    assert_int_equal(h.kind, VIZ_HIT_TIMELINE);
    assert_int_equal(h.tl_pos, 3);
}

static void test_a_quiz_question_hides_the_banks_until_answered(void **state)
{
    fixture *fx = *state;
    heat_recording(fx);
    fx->st.quiz = (viz_quiz){.on = true, .asking = true};
    show(fx, 2, VIZ_SCOPE_BLOCK); /* the 32-way read: bank 0, 32 rows, all red when shown */
    viz_layout L = layout1();
    int red = 0;
    for (int r = 0; r < 32; r++)
        red += cell_rgb(fx, viz_layout_bank_cell(&L.pane[0], &L.m, 32, 0, r)) == VIZ_RGB_CONFLICT;
    assert_int_equal(red, 0);
    fx->st.quiz.asking = false;
    show(fx, 2, VIZ_SCOPE_BLOCK);
    for (int r = 0; r < 32; r++)
        red += cell_rgb(fx, viz_layout_bank_cell(&L.pane[0], &L.m, 32, 0, r)) == VIZ_RGB_CONFLICT;
    assert_int_equal(red, 32);
    fx->st.quiz = (viz_quiz){0};
}

/* ---- SASS beside the PTX ---------------------------------------------------------- */

/* matmul_tiled32 at M = N = K = 32 (one block) with the recorded nvdisasm listing of
 * demos/matmul.ptx: ptxas reads four consecutive floats of the shared tile with one
 * LDS.128, so the step of the carrying ld.shared.f32 is 16 bytes per lane, and
 * 16 / 4 = 4 PTX loads are folded into it. */
static void test_a_merged_shared_load_shows_its_lds128_in_the_ptx_panel_whole(void **state)
{
    fixture *fx = *state;
    ws_error err;
    ws_catalog *cat = NULL;
    assert_int_equal(ws_catalog_load("demos", &cat, &err), 0);
    char *listing = ws_read_file("tests/data/sass/matmul.sass", 0, NULL, &err);
    assert_non_null(listing);
    ws_overrides ov;
    memset(&ov, 0, sizeof ov);
    assert_int_equal(ws_overrides_add(&ov, "M=32", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "N=32", &err), 0);
    assert_int_equal(ws_overrides_add(&ov, "K=32", &err), 0);
    viz_record_opts o = {.kernel = "matmul_tiled32", .ov = &ov, .num_blocks = 1, .quiet = 1,
                         .results_dir = "/nonexistent", .sass_listing = listing};
    static viz_recording rec;
    int rc = viz_record_kernel(cat, &o, &rec, &err);
    if (rc)
        ws_error_print(&err);
    assert_int_equal(rc, WS_EXIT_OK);
    size_t k = rec.nsteps;
    for (size_t i = 0; i < rec.nsteps && k == rec.nsteps; i++)
        if (rec.steps[i].space == WS_SPACE_SHARED && rec.steps[i].op == WS_MEM_LOAD && rec.steps[i].width == 16)
            k = i;
    assert_true(k < rec.nsteps);
    const viz_step *st = &rec.steps[k];
    print_message("  step %zu: %s -> %s\n", k, st->ptx_text, st->sass_text);
    assert_memory_equal(st->ptx_text, "ld.shared.f32", 13);
    assert_memory_equal(st->sass_text, "LDS.128 ", 8);
    char want_tail[64];
    snprintf(want_tail, sizeof want_tail, " (merged %d PTX loads)", 16 / 4);
    const char *tail = strstr(st->sass_text, " (merged");
    assert_non_null(tail);
    assert_string_equal(tail, want_tail);
    /* the instruction is the listing's, as nvdisasm wrote it */
    char insn[VIZ_SASS_TEXT];
    snprintf(insn, sizeof insn, "%.*s", (int)(tail - st->sass_text), st->sass_text);
    assert_non_null(strstr(listing, insn));

    static size_t tl[1];
    viz_draw_log *lg = calloc(1, sizeof *lg);
    fx->st.npanes = 1;
    fx->st.pane[0] = (viz_pane_state){.rec = &rec, .step = st, .ordinal = k, .count = rec.nsteps,
                                      .scope = VIZ_SCOPE_BLOCK, .tl = tl, .tl_count = 1, .warp = st->warp};
    fx->st.phase = 1.0;
    fx->st.log = lg;
    viz_render_frame(fx->r, &fx->fonts, &fx->st);
    SDL_RenderPresent(fx->r);
    fx->st.log = NULL;
    const char *dir = getenv("VIZ_TEST_PNG_DIR"); /* to look at what the test sees */
    if (dir) {
        char path[512];
        snprintf(path, sizeof path, "%s/test_sass_beside_ptx.png", dir);
        IMG_SavePNG(fx->surf, path);
    }
    char shown[VIZ_SASS_TEXT + 8];
    snprintf(shown, sizeof shown, "SASS: %s", st->sass_text);
    int found = 0;
    for (int t = 0; t < lg->ntexts; t++) {
        if (strcmp(lg->text[t].text, shown) || lg->text[t].panel < 0)
            continue;
        found++;
        assert_string_equal(lg->panel[lg->text[t].panel].name, "ptx");
        SDL_Rect in = lg->panel[lg->text[t].panel].rect, r = lg->text[t].rect;
        /* whole: drawn as wide as the text measures (not shortened), and inside the panel */
        assert_int_equal(r.w, viz_text_width(fx->fonts.mono, shown));
        assert_true(r.x >= in.x && r.x + r.w <= in.x + in.w);
        assert_true(r.y >= in.y && r.y + r.h <= in.y + in.h);
    }
    assert_int_equal(found, 1);
    free(lg);
    viz_recording_free(&rec);
    free(listing);
    ws_catalog_free(cat);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_32_way_conflict_lights_one_bank_32_times_in_the_conflict_colour),
        cmocka_unit_test(test_padded_stride_33_lights_32_different_banks_without_conflict),
        cmocka_unit_test(test_broadcast_word_is_one_cell_in_the_broadcast_colour),
        cmocka_unit_test(test_two_way_conflict_marks_exactly_the_colliding_bank),
        cmocka_unit_test(test_coalesced_float_load_lights_exactly_four_sectors),
        cmocka_unit_test(test_stride_2_float_load_lights_eight_sectors),
        cmocka_unit_test(test_misaligned_float_load_lights_five_sectors_and_leaves_three_dark),
        cmocka_unit_test(test_half_warp_float_load_lights_two_sectors),
        cmocka_unit_test(test_sectors_take_the_colour_of_their_cache_outcome),
        cmocka_unit_test(test_stores_are_drawn_as_writes),
        cmocka_unit_test(test_hovering_a_bank_cell_finds_that_bank),
        cmocka_unit_test(test_a_state_renders_to_the_same_pixels_every_time),
        cmocka_unit_test(test_compare_mode_draws_each_variant_in_its_own_pane),
        cmocka_unit_test(test_heat_map_draws_the_costliest_line_full_and_red_and_the_others_in_proportion),
        cmocka_unit_test(test_heat_map_colours_by_waste_so_a_costly_line_at_its_ideal_is_not_red),
        cmocka_unit_test(test_heat_map_rows_carry_their_source_line_whole),
        cmocka_unit_test(test_clicking_a_heat_map_row_names_its_line),
        cmocka_unit_test(test_timeline_puts_each_step_in_its_warps_row_in_its_verdict_colour),
        cmocka_unit_test(test_a_quiz_question_hides_the_banks_until_answered),
        cmocka_unit_test(test_a_merged_shared_load_shows_its_lds128_in_the_ptx_panel_whole),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
