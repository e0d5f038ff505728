/* test_viz_app.c - navigation through recordings (warp selection, lockstep panes,
 * source-line jumps) and the headless PNG exporter, end to end without a window. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <SDL_image.h>
#include <dirent.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gif_lib.h>

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


static void test_block_scope_plays_every_warp_of_the_block_to_its_end(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    const viz_recording *recs[1] = {&r};
    viz_nav n;
    assert_int_equal(viz_nav_init(&n, recs, 1, 1, 0, VIZ_SCOPE_BLOCK), 0);
    /* block 1: 4 warps x 3 steps = 12 steps in issue order, so 11 advances */
    int moves = 0;
    uint32_t warps = 0;
    do {
        const viz_step *s = viz_nav_current(&n, 0);
        assert_int_equal(s->block_linear, 1);
        warps |= 1u << s->warp;
    } while (viz_nav_advance(&n) && ++moves < 100);
    assert_int_equal(moves, 11);
    assert_int_equal(warps, 0xFu);
    viz_nav_free(&n);
    viz_recording_free(&r);
}

static void test_warp_scope_playback_goes_on_into_the_next_warp_and_block(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    const viz_recording *recs[1] = {&r};
    viz_nav n;
    viz_nav_init(&n, recs, 1, 0, 3, VIZ_SCOPE_WARP);
    viz_nav_step(&n, 2); /* warp 3's last step */
    assert_true(viz_nav_advance(&n));
    const viz_step *s = viz_nav_current(&n, 0);
    assert_int_equal(s->block_linear, 1); /* warp 3 was the block's last: block 1, warp 0 */
    assert_int_equal(s->warp, 0);
    assert_int_equal(n.ordinal, 0);
    /* from there to the recording's end: 4 warps x 3 steps - 1 */
    int moves = 0;
    while (viz_nav_advance(&n))
        moves++;
    assert_int_equal(moves, 11);
    viz_nav_free(&n);
    viz_recording_free(&r);
}

static void test_the_scope_key_widens_and_narrows_keeping_the_step_on_screen(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .warp = 2, .start_step = 1, .scope = VIZ_SCOPE_WARP};
    viz_session ss;
    assert_int_equal(viz_session_init(&ss, &o), 0);
    const viz_step *cur = viz_nav_current(&ss.nav, 0);
    assert_int_equal(cur - r.steps, 2 * 3 + 1); /* block 0, warp 2, its second step */
    char err[256];
    assert_int_equal(viz_session_keys(&ss, "a", err, sizeof err), 0);
    assert_int_equal(ss.nav.scope, VIZ_SCOPE_BLOCK);
    assert_ptr_equal(viz_nav_current(&ss.nav, 0), cur);
    assert_int_equal(ss.nav.ordinal, 7);
    viz_session_keys(&ss, "a", err, sizeof err);
    assert_int_equal(ss.nav.scope, VIZ_SCOPE_KERNEL);
    assert_ptr_equal(viz_nav_current(&ss.nav, 0), cur);
    viz_session_keys(&ss, "a", err, sizeof err);
    assert_int_equal(ss.nav.scope, VIZ_SCOPE_WARP);
    assert_int_equal(ss.nav.ordinal, 1);
    assert_int_equal(ss.nav.warp, 2);
    assert_int_equal(viz_session_keys(&ss, "a Rihgt", err, sizeof err), -1);
    assert_non_null(strstr(err, "Rihgt"));
    viz_session_free(&ss);
    viz_recording_free(&r);
}

static void test_the_quiz_scores_guesses_and_holds_the_step_until_answered(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .scope = VIZ_SCOPE_WARP, .quiz = true};
    viz_session ss;
    viz_session_init(&ss, &o);
    char err[256];
    assert_true(ss.st.quiz.asking);
    /* step 0: 32 lanes x 4 B from a 128-B aligned base = 128 B = 4 sectors */
    assert_int_equal(viz_session_keys(&ss, "4 Return", err, sizeof err), 0);
    assert_int_equal(ss.st.quiz.tries, 1);
    assert_int_equal(ss.st.quiz.right, 1);
    /* step 1: the shared store, 4-B stride: 32 banks once each = 1 wavefront; guess 3 */
    viz_session_keys(&ss, "Right 3", err, sizeof err);
    assert_true(ss.st.quiz.asking);
    assert_int_equal(ss.nav.ordinal, 1);
    viz_session_keys(&ss, "Right", err, sizeof err); /* no moving on before answering */
    assert_int_equal(ss.nav.ordinal, 1);
    viz_session_keys(&ss, "Return", err, sizeof err);
    assert_int_equal(ss.st.quiz.tries, 2);
    assert_int_equal(ss.st.quiz.right, 1);
    assert_int_equal(ss.st.quiz.last_answer, 1);
    /* step 2: 128-B stride: every lane in bank 0, 32 words = 32 wavefronts */
    viz_session_keys(&ss, "Right 3 2 Return", err, sizeof err);
    assert_int_equal(ss.st.quiz.tries, 3);
    assert_int_equal(ss.st.quiz.right, 2);
    assert_non_null(strstr(ss.st.message, "2/3"));
    /* playback waits on an open question */
    viz_session_keys(&ss, "Right", err, sizeof err); /* the next warp's first step: asked */
    size_t at = ss.nav.ordinal;
    uint32_t w = ss.nav.warp;
    assert_true(viz_session_play_tick(&ss));
    assert_int_equal(ss.nav.ordinal, at);
    assert_int_equal(ss.nav.warp, w);
    viz_session_free(&ss);
    viz_recording_free(&r);
}

static void test_clicking_the_timeline_jumps_to_that_step_and_its_warp(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, 1280, 800, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *ren = SDL_CreateSoftwareRenderer(surf);
    viz_fonts f;
    char err[256];
    assert_int_equal(viz_fonts_open(ren, 1.0, &f, err, sizeof err), 0);
    viz_layout L;
    viz_layout_compute(1280, 800, 1, &f, &L);
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .scope = VIZ_SCOPE_WARP};
    viz_session ss;
    viz_session_init(&ss, &o);
    /* the timeline is block 0's 12 steps; position 10 is warp 3's second step */
    SDL_Rect c = viz_layout_timeline_cell(&L.pane[0], &ss.st.pane[0], 10);
    viz_session_click(&ss, &L, c.x + c.w / 2, c.y + c.h / 2);
    assert_int_equal(ss.nav.warp, 3);
    assert_int_equal(ss.nav.ordinal, 1);
    assert_int_equal(viz_nav_current(&ss.nav, 0) - r.steps, 10);
    viz_session_free(&ss);
    viz_fonts_close(&f);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    viz_recording_free(&r);
}

static SDL_Surface *load(const char *dir, int i)
{
    char path[256];
    snprintf(path, sizeof path, "%s/frame_%04d.png", dir, i);
    return IMG_Load(path);
}

static bool same_pixels(SDL_Surface *a, SDL_Surface *b)
{
    SDL_Surface *x = SDL_ConvertSurfaceFormat(a, SDL_PIXELFORMAT_ARGB8888, 0);
    SDL_Surface *y = SDL_ConvertSurfaceFormat(b, SDL_PIXELFORMAT_ARGB8888, 0);
    bool same = x->w == y->w && x->h == y->h && !memcmp(x->pixels, y->pixels, (size_t)x->pitch * (size_t)x->h);
    SDL_FreeSurface(x);
    SDL_FreeSurface(y);
    return same;
}

static void clean_frames(const char *dir, int n)
{
    for (int i = 0; i < n; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/frame_%04d.png", dir, i);
        unlink(path);
    }
    rmdir(dir);
}

/* The README's `--frames 8` once wrote the last step of one warp six times over. */
static void test_every_exported_frame_shows_the_next_step(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    for (int sc = VIZ_SCOPE_WARP; sc <= VIZ_SCOPE_BLOCK; sc++) {
        char dir[] = "/tmp/ws_viz_frames_XXXXXX";
        assert_non_null(mkdtemp(dir));
        viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = 1024, .height = 768, .headless = true, .frames = 8,
                          .out_dir = dir, .scope = (viz_scope)sc};
        char err[512] = "";
        assert_int_equal(viz_app_run(&o, err, sizeof err), WS_EXIT_OK);
        SDL_Surface *prev = load(dir, 0);
        assert_non_null(prev);
        for (int i = 1; i < 8; i++) {
            SDL_Surface *cur = load(dir, i);
            assert_non_null(cur);
            if (same_pixels(prev, cur))
                fail_msg("%s scope: frames %d and %d are identical", viz_scope_name((viz_scope)sc), i - 1, i);
            SDL_FreeSurface(prev);
            prev = cur;
        }
        SDL_FreeSurface(prev);
        clean_frames(dir, 8);
    }
    viz_recording_free(&r);
}

static void test_an_export_past_the_end_stops_there(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    char dir[] = "/tmp/ws_viz_frames_XXXXXX";
    assert_non_null(mkdtemp(dir));
    /* block 0 has 4 warps x 3 steps = 12: from step 9, 10 frames ask for 7 too many */
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = 640, .height = 480, .headless = true, .frames = 10,
                      .out_dir = dir, .scope = VIZ_SCOPE_BLOCK, .start_step = 9};
    char err[512] = "";
    assert_int_equal(viz_app_run(&o, err, sizeof err), WS_EXIT_OK);
    SDL_Surface *s = load(dir, 2);
    assert_non_null(s);
    SDL_FreeSurface(s);
    assert_null(load(dir, 3));
    clean_frames(dir, 3);
    viz_recording_free(&r);
}

static void test_a_start_step_past_the_scope_is_refused_with_its_length(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    /* block 0: 4 warps x 3 steps = 12, so steps 0..11 */
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = 640, .height = 480, .headless = true,
                      .screenshot = "/tmp/ws_viz_never.png", .scope = VIZ_SCOPE_BLOCK, .start_step = 12};
    char err[512] = "";
    assert_int_equal(viz_app_run(&o, err, sizeof err), WS_EXIT_USAGE);
    assert_non_null(strstr(err, "12 steps (0..11)"));
    assert_int_equal(access("/tmp/ws_viz_never.png", F_OK), -1);
    viz_recording_free(&r);
}

/* The colour of the GIF's frame k at (x, y), every earlier frame drawn under it. */
static uint32_t gif_pixel(GifFileType *g, int k, int x, int y)
{
    uint32_t out = 0;
    for (int i = 0; i <= k; i++) {
        const SavedImage *im = &g->SavedImages[i];
        const GifImageDesc *d = &im->ImageDesc;
        if (x < d->Left || y < d->Top || x >= d->Left + d->Width || y >= d->Top + d->Height)
            continue;
        const ColorMapObject *cm = d->ColorMap ? d->ColorMap : g->SColorMap;
        GifColorType c = cm->Colors[im->RasterBits[(size_t)(y - d->Top) * (size_t)d->Width + (size_t)(x - d->Left)]];
        out = (uint32_t)c.Red << 16 | (uint32_t)c.Green << 8 | c.Blue;
    }
    return out;
}

static int dist(uint32_t a, uint32_t b)
{
    int d = 0;
    for (int sh = 0; sh <= 16; sh += 8) {
        int x = (int)((a >> sh) & 255) - (int)((b >> sh) & 255);
        d += x < 0 ? -x : x;
    }
    return d;
}

/* A GIF export that cannot be written whole (the file-size limit stands in for a full disk)
 * fails with exit 1 and leaves the GIF that was at the path as it was, with nothing beside it. */
static void test_a_failed_gif_export_keeps_the_gif_that_was_there(void **state)
{
    (void)state;
    char dir[] = "/tmp/ws_viz_keep_XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64];
    snprintf(path, sizeof path, "%s/keep.gif", dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs("GIF89a: the good one", f);
    fclose(f);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = {16384, 16384};       /* a 1024x768 frame's GIF is larger */
        setrlimit(RLIMIT_FSIZE, &rl);
        viz_recording r;
        make_recording(&r, 128);
        viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = 1024, .height = 768, .headless = true, .gif = path,
                          .scope = VIZ_SCOPE_BLOCK, .start_step = 0, .has_last = true, .last_step = 3, .speed = 2};
        char err[512] = "";
        _exit(viz_app_run(&o, err, sizeof err));
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), WS_EXIT_USAGE);
    char buf[64] = "";
    f = fopen(path, "rb");
    assert_non_null(f);
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "GIF89a: the good one");
    DIR *d = opendir(dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) n += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(n, 1);
    unlink(path);
    rmdir(dir);
}

static void test_a_gif_export_holds_one_frame_per_step_and_they_differ(void **state)
{
    (void)state;
    viz_recording r;
    make_recording(&r, 128);
    char path[] = "/tmp/ws_viz_gif_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    /* block scope, steps 1..3: warp 0's shared store (4-B stride, no conflict), its shared
     * load (128-B stride: bank 0 thirty-two times), warp 1's global load */
    const int W = 1024, H = 768;
    viz_app_opts o = {.rec = {&r}, .npanes = 1, .width = W, .height = H, .headless = true, .gif = path,
                      .scope = VIZ_SCOPE_BLOCK, .start_step = 1, .has_last = true, .last_step = 3, .speed = 2};
    char err[512] = "";
    assert_int_equal(viz_app_run(&o, err, sizeof err), WS_EXIT_OK);
    int e = 0;
    GifFileType *g = DGifOpenFileName(path, &e);
    assert_non_null(g);
    assert_int_equal(DGifSlurp(g), GIF_OK);
    assert_int_equal(g->SWidth, W);
    assert_int_equal(g->SHeight, H);
    assert_int_equal(g->ImageCount, 3);
    GraphicsControlBlock gcb;
    assert_int_equal(DGifSavedExtensionToGCB(g, 1, &gcb), GIF_OK);
    assert_int_equal(gcb.DelayTime, 50); /* 2 steps per second */
    /* where bank 0's first row sits in such a frame */
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *ren = SDL_CreateSoftwareRenderer(surf);
    viz_fonts f;
    assert_int_equal(viz_fonts_open(ren, viz_font_scale_for(W, H), &f, err, sizeof err), 0);
    viz_layout L;
    viz_layout_compute(W, H, 1, &f, &L);
    SDL_Rect store0 = viz_layout_bank_cell(&L.pane[0], &L.m, 1, 0, 0);   /* the store: 1 row */
    SDL_Rect load31 = viz_layout_bank_cell(&L.pane[0], &L.m, 32, 0, 31); /* the load: 32 rows */
    assert_true(dist(gif_pixel(g, 0, store0.x + 1, store0.y + 1), VIZ_RGB_ACCESS) < 40);
    assert_true(dist(gif_pixel(g, 1, load31.x + 1, load31.y + 1), VIZ_RGB_CONFLICT) < 40);
    /* and every frame differs from the one before */
    for (int k = 1; k < 3; k++) {
        int diff = 0;
        for (int y = 0; y < H && !diff; y += 2)
            for (int x = 0; x < W && !diff; x += 2)
                diff = gif_pixel(g, k, x, y) != gif_pixel(g, k - 1, x, y);
        if (!diff)
            fail_msg("GIF frames %d and %d are the same picture", k - 1, k);
    }
    DGifCloseFile(g, &e);
    viz_fonts_close(&f);
    SDL_DestroyRenderer(ren);
    SDL_FreeSurface(surf);
    unlink(path);
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
        cmocka_unit_test(test_block_scope_plays_every_warp_of_the_block_to_its_end),
        cmocka_unit_test(test_warp_scope_playback_goes_on_into_the_next_warp_and_block),
        cmocka_unit_test(test_the_scope_key_widens_and_narrows_keeping_the_step_on_screen),
        cmocka_unit_test(test_the_quiz_scores_guesses_and_holds_the_step_until_answered),
        cmocka_unit_test(test_clicking_the_timeline_jumps_to_that_step_and_its_warp),
        cmocka_unit_test(test_every_exported_frame_shows_the_next_step),
        cmocka_unit_test(test_an_export_past_the_end_stops_there),
        cmocka_unit_test(test_a_start_step_past_the_scope_is_refused_with_its_length),
        cmocka_unit_test(test_a_gif_export_holds_one_frame_per_step_and_they_differ),
        cmocka_unit_test(test_a_failed_gif_export_keeps_the_gif_that_was_there),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
