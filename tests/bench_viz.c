/* bench_viz.c - visualizer frame time: renders 1000 frames at 1280x800 with SDL's
 * software renderer into a surface (no GPU, no window: the slowest path a user can
 * hit) and prints the median and 95th-percentile frame time and the fps they imply.
 * The frames alternate between a 32-way shared conflict and a float4 global load
 * (the two busiest panels), with source and PTX text, the mouse hovering and the
 * animation running, so each frame draws what a playing window draws. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL_image.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../viz/viz_export.h"
#include "../viz/viz_render.h"

#define FRAMES 1000
#define W 1280
#define H 800

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void add_step(viz_recording *rec, ws_space sp, int width, uint64_t base, uint64_t stride, int line)
{
    ws_mem_event ev;
    memset(&ev, 0, sizeof ev);
    ev.space = sp;
    ev.op = WS_MEM_LOAD;
    ev.width = (uint8_t)width;
    ev.active_mask = 0xFFFFFFFFu;
    ev.src_line = line;
    ev.ptx_line = line * 2;
    for (int l = 0; l < 32; l++)
        ev.addr[l] = base + (uint64_t)l * stride;
    viz_step s;
    viz_step_from_event(&s, &ev);
    snprintf(s.ptx_text, sizeof s.ptx_text, "ld.%s.f32 %%f%d, [%%r%d]", sp == WS_SPACE_SHARED ? "shared" : "global",
             line, line + 1);
    viz_totals_add(&rec->launch, &s);
    s.totals = rec->launch;
    viz_recording_push(rec, &s);
}

int main(void)
{
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, W, H, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    if (!r) {
        fprintf(stderr, "bench_viz: cannot create a software renderer: %s\n", SDL_GetError());
        return 1;
    }
    viz_fonts fonts;
    char err[512];
    if (viz_fonts_open(r, 1.0, &fonts, err, sizeof err)) {
        fprintf(stderr, "bench_viz: %s\n", err);
        return 1;
    }
    viz_recording rec;
    viz_recording_init(&rec);
    snprintf(rec.kernel, sizeof rec.kernel, "transpose_naive");
    char src[8192] = "", ptx[16384] = "";
    for (int i = 1; i <= 80; i++) {
        char line[128];
        snprintf(line, sizeof line, "    tile[threadIdx.y + %d][threadIdx.x] = in[(y + %d) * width + x]; // %d\n", i, i, i);
        strcat(src, line);
        snprintf(line, sizeof line, "\tld.global.f32 \t%%f%d, [%%rd%d+%d];\n\tst.shared.f32 \t[%%r%d], %%f%d;\n", i,
                 i, i * 4, i, i);
        strcat(ptx, line);
    }
    viz_recording_set_source(&rec, "demos/transpose.cu", src);
    viz_recording_set_ptx(&rec, ptx);
    rec.tp = (viz_throughput){.gpu = "NVIDIA H200", .date = "2025-06-01", .source = "results/h200.json",
                              .measured_gbs = 2650, .predicted_gbs = 3100, .peak_gbs = 4800, .measured_us = 7.4,
                              .predicted_us = 6.9, .bytes_moved = 8388608, .copy_gbs = 4257, .copy_bytes = 1073741824,
                              .launch_us = 4.3, .launch_basis = "NVIDIA H200 profile's launch_overhead_us"};
    add_step(&rec, WS_SPACE_SHARED, 4, 0, 128, 20);
    add_step(&rec, WS_SPACE_GLOBAL, 16, 0x100000000ull, 16, 30);
    for (size_t i = 0; i < rec.nsteps; i++)
        viz_recording_heat_add_step(&rec, &rec.steps[i]);

    viz_state st;
    viz_state_init(&st);
    st.pane[0].rec = &rec;
    st.pane[0].count = rec.nsteps;
    st.playing = true;
    st.mouse_in = true;
    viz_layout L;
    viz_layout_compute(W, H, 1, &fonts, &L);
    static double ms[FRAMES];
    uint64_t freq = SDL_GetPerformanceFrequency();
    for (int i = 0; i < FRAMES; i++) {
        st.pane[0].ordinal = (size_t)(i / 60) % rec.nsteps; /* a new step every 60 frames */
        st.pane[0].step = &rec.steps[st.pane[0].ordinal];
        st.phase = (i % 60) / 30.0;
        SDL_Rect c = viz_layout_bank_cell(&L.pane[0], &L.m, 32, 0, i % 32);
        st.mouse_x = c.x + 2;
        st.mouse_y = c.y + 1;
        uint64_t t0 = SDL_GetPerformanceCounter();
        viz_render_frame(r, &fonts, &st);
        SDL_RenderPresent(r);
        ms[i] = (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)freq;
    }
    qsort(ms, FRAMES, sizeof ms[0], cmp_double);
    double med = ms[FRAMES / 2], p95 = ms[FRAMES * 95 / 100];
    printf("viz frame time (%d frames, %dx%d, SDL software renderer): median %.2f ms (%.0f fps), "
           "95th percentile %.2f ms\n", FRAMES, W, H, med, 1000.0 / med, p95);

    /* export: 24 frames each way, alternating the two steps */
    enum { EXPORTS = 24 };
    const char *path = "/tmp/warpscope-bench-frame.png";
    static const char *const how[] = {"IMG_SavePNG (SDL_image)", "libpng level 1 (--out)", "libpng level 6",
                                      "GIF frame (--gif)"};
    char gpath[] = "/tmp/warpscope-bench-XXXXXX";
    int gfd = mkstemp(gpath);
    if (gfd >= 0)
        close(gfd);
    for (int k = 0; k < 4; k++) {
        double total = 0, bytes = 0;
        viz_gif *g = k == 3 ? viz_gif_open(gpath, W, H, err, sizeof err) : NULL;
        for (int i = 0; i < EXPORTS; i++) {
            st.pane[0].step = &rec.steps[i % 2];
            st.phase = 1;
            st.mouse_in = false;
            viz_render_frame(r, &fonts, &st);
            SDL_RenderPresent(r);
            uint64_t t0 = SDL_GetPerformanceCounter();
            int rc = k == 0 ? IMG_SavePNG(surf, path) : k == 3 ? (g ? viz_gif_add(g, surf, 25, err, sizeof err) : -1)
                                                             : viz_png_write(surf, path, k == 1 ? 1 : 6, err, sizeof err);
            total += (double)(SDL_GetPerformanceCounter() - t0) * 1000.0 / (double)freq;
            struct stat sb;
            if (rc == 0 && k < 3 && stat(path, &sb) == 0)
                bytes += (double)sb.st_size;
        }
        if (g && viz_gif_close(g, err, sizeof err) == 0) {
            struct stat sb;
            if (stat(gpath, &sb) == 0)
                bytes = (double)sb.st_size;
        }
        printf("viz export, %s: %.1f ms per frame, %.0f kB per frame\n", how[k], total / EXPORTS,
               bytes / EXPORTS / 1000.0);
    }
    unlink(path);
    unlink(gpath);
    viz_recording_free(&rec);
    viz_fonts_close(&fonts);
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    return 0;
}
