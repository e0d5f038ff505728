/* test_viz_app.c - navigation through recordings (warp selection, lockstep panes,
 * source-line jumps) and the headless PNG exporter, end to end without a window. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <SDL_image.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/commands.h"
#include "../viz/viz_app.h"

/* A recording of 2 blocks x 4 warps, each warp running: line 10 global load, line 12
 * shared store, line 14 shared load (stride given), in execution order block by block. */
static void make_recording(viz_recording *r, uint64_t shared_stride)
{
    viz_recording_init(r);
    snprintf(r->kernel, sizeof r->kernel, "k%llu", (unsigned long long)shared_stride);
    r->warps_per_block = 4;
    r->first_block = 0;
    r->num_blocks = 2;
    r->grid[0] = 2;
    r->grid[1] = r->grid[2] = 1;
    r->block_dim[0] = 128;
    r->block_dim[1] = r->block_dim[2] = 1;
    uint64_t seq = 0;
    for (uint32_t b = 0; b < 2; b++)
        for (uint32_t w = 0; w < 4; w++)
            for (int k = 0; k < 3; k++) {
                ws_mem_event ev;
                memset(&ev, 0, sizeof ev);
                ev.seq = seq++;
                ev.block_linear = b;
                ev.block[0] = b;
                ev.warp = w;
                ev.width = 4;
                ev.active_mask = 0xFFFFFFFFu;
                ev.space = k == 0 ? WS_SPACE_GLOBAL : WS_SPACE_SHARED;
                ev.op = k == 1 ? WS_MEM_STORE : WS_MEM_LOAD;
                ev.src_line = 10 + 2 * k;
                for (int l = 0; l < 32; l++)
                    ev.addr[l] = k == 0 ? 0x100000000ull + 4 * (uint64_t)(l + 32 * (int)w)
                                        : (uint64_t)l * (k == 2 ? shared_stride : 4);
                viz_step s;
                viz_step_from_event(&s, &ev);
                viz_totals_add(&r->launch, &s);
                s.totals = r->launch;
                viz_recording_push(r, &s);
            }
}

static void test_navigator_walks_one_warp_then_switches_warp_and_block(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    const viz_recording *recs[1] = {&r};
    viz_nav n;
    assert_int_equal(viz_nav_init(&n, recs, 1, 0, 2, VIZ_SCOPE_WARP), 0);
    assert_int_equal(viz_nav_length(&n), 3);
    viz_state st;
    viz_state_init(&st);
    viz_nav_apply(&n, &st);
    assert_int_equal(st.pane[0].step->warp, 2);
    assert_int_equal(st.pane[0].step->src_line, 10);
    assert_true(viz_nav_step(&n, 5));       /* clamps to the last step */
    assert_int_equal(n.ordinal, 2);
    assert_false(viz_nav_step(&n, 1));
    viz_nav_cycle_warp(&n, 1);
    viz_nav_cycle_warp(&n, 1);               /* 2 -> 3 -> 0 (wraps) */
    viz_nav_cycle_block(&n, 1);
    viz_nav_apply(&n, &st);
    assert_int_equal(st.pane[0].step->warp, 0);
    assert_int_equal(st.pane[0].step->block_linear, 1);
    viz_nav_select(&n, 0, 0, VIZ_SCOPE_BLOCK); /* every warp of block 0 in execution order: 4 x 3 */
    assert_int_equal(viz_nav_length(&n), 12);
    viz_nav_select(&n, 0, 0, VIZ_SCOPE_KERNEL); /* every recorded block: 2 x 4 x 3 */
    assert_int_equal(viz_nav_length(&n), 24);
    viz_nav_free(&n);
    viz_recording_free(&r);
}

static void test_jump_to_a_source_line_finds_its_next_step(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    const viz_recording *recs[1] = {&r};
    viz_nav n;
    viz_nav_init(&n, recs, 1, 0, 0, VIZ_SCOPE_WARP);
    assert_true(viz_nav_jump_line(&n, 14));
    assert_int_equal(n.ordinal, 2);
    assert_true(viz_nav_jump_line(&n, 11)); /* no step on 11: the next line that has one, 12 */
    assert_int_equal(n.ordinal, 1);
    assert_false(viz_nav_jump_line(&n, 15));
    viz_nav_free(&n);
    viz_recording_free(&r);
}

static void test_compare_panes_advance_in_lockstep(void **state)
{
    (void)state;
    viz_recording a, b;
    make_recording(&a, 128); /* naive: column read, 32-way conflict */
    make_recording(&b, 132); /* padded: stride 33 words */
    const viz_recording *recs[2] = {&a, &b};
    viz_nav n;
    viz_nav_init(&n, recs, 2, 0, 1, VIZ_SCOPE_WARP);
    viz_nav_step(&n, 2);
    viz_state st;
    viz_state_init(&st);
    viz_nav_apply(&n, &st);
    assert_int_equal(st.npanes, 2);
    assert_int_equal(st.pane[0].step->src_line, st.pane[1].step->src_line);
    assert_int_equal(st.pane[0].step->wavefronts, 32);
    assert_int_equal(st.pane[1].step->wavefronts, 1);
    viz_nav_free(&n);
    viz_recording_free(&a);
    viz_recording_free(&b);
}

static void test_headless_export_writes_one_png_per_frame(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    char dir[] = "/tmp/ws_viz_test_XXXXXX";
    assert_non_null(mkdtemp(dir));
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = 960, .height = 600, .headless = true, .frames = 3,
                      .out_dir = dir};
    char err[512] = "";
    assert_int_equal(viz_app_run(&o, err, sizeof err), WS_EXIT_OK);
    for (int i = 0; i < 4; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/frame_%04d.png", dir, i);
        SDL_Surface *s = IMG_Load(path);
        if (i == 3) { /* exactly three frames */
            assert_null(s);
            continue;
        }
        assert_non_null(s);
        assert_int_equal(s->w, 960);
        assert_int_equal(s->h, 600);
        SDL_FreeSurface(s);
        unlink(path);
    }
    rmdir(dir);
    viz_recording_free(&r);
}

/* A folder the user named that cannot be made is an input error (exit 1), not an internal one. */
static void test_headless_export_to_a_missing_parent_folder_fails_cleanly(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = 640, .height = 480, .headless = true, .frames = 1,
                      .out_dir = "/nonexistent/dir/frames"};
    char err[512] = "";
    assert_int_equal(viz_app_run(&o, err, sizeof err), WS_EXIT_USAGE);
    assert_non_null(strstr(err, "/nonexistent/dir/frames"));
    viz_recording_free(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_navigator_walks_one_warp_then_switches_warp_and_block),
        cmocka_unit_test(test_jump_to_a_source_line_finds_its_next_step),
        cmocka_unit_test(test_compare_panes_advance_in_lockstep),
        cmocka_unit_test(test_headless_export_writes_one_png_per_frame),
        cmocka_unit_test(test_headless_export_to_a_missing_parent_folder_fails_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
