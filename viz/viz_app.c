/* viz_app.c - the visualizer's two front ends around viz_render_frame: an SDL window
 * with its event loop (initialise / update / draw / tear down), and a headless exporter
 * that renders frames with the software renderer into a surface and writes PNGs.
 * Invariant: both build the frame the same way (navigator -> state -> frame step), so
 * a headless PNG is pixel for pixel what the window shows for the same state. */
#include "viz_app.h"

#include <SDL_image.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/commands.h"

/* ---- headless ------------------------------------------------------------------------ */

static int ensure_dir(const char *dir, char *err, size_t cap)
{
    struct stat sb;
    if (stat(dir, &sb) == 0 && S_ISDIR(sb.st_mode))
        return 0;
    if (stat(dir, &sb) == 0) {
        snprintf(err, cap, "%s: exists and is not a folder (--out names the folder for the frames)", dir);
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        snprintf(err, cap, "%s: cannot create the output folder: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

static int save_png(SDL_Surface *s, const char *path, char *err, size_t cap)
{
    if (IMG_SavePNG(s, path) != 0) {
        snprintf(err, cap, "%s: cannot write PNG: %s", path, IMG_GetError());
        return -1;
    }
    return 0;
}

static int run_headless(const viz_app_opts *o, viz_nav *nav, viz_state *st, char *err, size_t cap)
{
    SDL_Surface *surf = SDL_CreateRGBSurfaceWithFormat(0, o->width, o->height, 32, SDL_PIXELFORMAT_ARGB8888);
    SDL_Renderer *r = surf ? SDL_CreateSoftwareRenderer(surf) : NULL;
    if (!r) {
        snprintf(err, cap, "cannot create a %dx%d software renderer: %s", o->width, o->height, SDL_GetError());
        SDL_FreeSurface(surf);
        return WS_EXIT_INTERNAL;
    }
    viz_fonts fonts;
    int rc = WS_EXIT_OK;
    if (viz_fonts_open(r, &fonts, err, cap)) {
        rc = WS_EXIT_USAGE;  /* no usable font (WARPSCOPE_FONT or fontconfig's): an input error */
        goto out;
    }
    if (o->screenshot) {
        viz_nav_apply(nav, st);
        viz_render_frame(r, &fonts, st);
        SDL_RenderPresent(r);
        if (save_png(surf, o->screenshot, err, cap))
            rc = WS_EXIT_USAGE; /* an unwritable path the user gave */
        else
            printf("viz: wrote %s (%dx%d)\n", o->screenshot, o->width, o->height);
    }
    if (o->frames > 0 && o->out_dir) {
        if (ensure_dir(o->out_dir, err, cap)) {
            rc = WS_EXIT_USAGE;
            goto fonts;
        }
        size_t dl = strlen(o->out_dir);
        const char *sep = dl && o->out_dir[dl - 1] == '/' ? "" : "/"; /* "frames/" gives frames/frame_0000.png */
        for (int i = 0; i < o->frames; i++) {
            viz_nav_apply(nav, st);
            viz_render_frame(r, &fonts, st);
            SDL_RenderPresent(r);
            char path[1024];
            snprintf(path, sizeof path, "%s%sframe_%04d.png", o->out_dir, sep, i);
            if (save_png(surf, path, err, cap)) {
                rc = WS_EXIT_USAGE;
                goto fonts;
            }
            viz_nav_step(nav, 1);
        }
        printf("viz: wrote %d frames to %s%sframe_0000.png ... (%dx%d, one step each)\n", o->frames, o->out_dir,
               sep, o->width, o->height);
    }
fonts:
    viz_fonts_close(&fonts);
out:
    SDL_DestroyRenderer(r);
    SDL_FreeSurface(surf);
    return rc;
}

/* ---- window ------------------------------------------------------------------------------ */

static int screenshot(SDL_Renderer *r, const char *path, char *err, size_t cap)
{
    int w, h;
    SDL_GetRendererOutputSize(r, &w, &h);
    SDL_Surface *s = SDL_CreateRGBSurfaceWithFormat(0, w, h, 32, SDL_PIXELFORMAT_ARGB8888);
    if (!s || SDL_RenderReadPixels(r, NULL, SDL_PIXELFORMAT_ARGB8888, s->pixels, s->pitch) != 0) {
        snprintf(err, cap, "cannot read the window's pixels: %s", SDL_GetError());
        SDL_FreeSurface(s);
        return -1;
    }
    int rc = save_png(s, path, err, cap);
    SDL_FreeSurface(s);
    return rc;
}

typedef struct {
    viz_nav *nav;
    viz_state *st;
    double since_step;   /* seconds since the step changed (drives the animation) */
    double accum;        /* playing: fraction of a step accumulated */
    bool quit;
    int shots;
} loop_ctx;

static void stepped(loop_ctx *c)
{
    c->since_step = 0;
    c->st->message[0] = 0;
}

static void on_key(loop_ctx *c, SDL_Renderer *r, const SDL_Keysym *k, char *err, size_t cap)
{
    viz_state *st = c->st;
    viz_nav *nav = c->nav;
    bool shift = (k->mod & KMOD_SHIFT) != 0;
    if (st->jump_mode) {
        size_t n = strlen(st->jump_text);
        if (k->sym >= SDLK_0 && k->sym <= SDLK_9 && n + 1 < sizeof st->jump_text) {
            st->jump_text[n] = (char)('0' + (k->sym - SDLK_0));
            st->jump_text[n + 1] = 0;
        } else if (k->sym >= SDLK_KP_1 && k->sym <= SDLK_KP_0 && n + 1 < sizeof st->jump_text) {
            st->jump_text[n] = (char)(k->sym == SDLK_KP_0 ? '0' : '1' + (k->sym - SDLK_KP_1));
            st->jump_text[n + 1] = 0;
        } else if (k->sym == SDLK_BACKSPACE && n) {
            st->jump_text[n - 1] = 0;
        } else if (k->sym == SDLK_RETURN || k->sym == SDLK_KP_ENTER) {
            int line = atoi(st->jump_text);
            st->jump_mode = false;
            if (viz_nav_jump_line(nav, line)) {
                stepped(c);
                snprintf(st->message, sizeof st->message, "jumped to line %d", nav->rec[0]->steps[nav->idx[0][nav->ordinal]].src_line);
            } else {
                snprintf(st->message, sizeof st->message, "no memory instruction of this warp at or after line %d", line);
            }
        } else if (k->sym == SDLK_ESCAPE) {
            st->jump_mode = false;
        }
        return;
    }
    switch (k->sym) {
    case SDLK_ESCAPE:
        if (st->show_help)
            st->show_help = false;
        else
            c->quit = true;
        break;
    case SDLK_q: c->quit = true; break;
    case SDLK_SPACE:
        st->playing = !st->playing;
        if (st->playing && nav->ordinal + 1 >= viz_nav_length(nav)) { /* replay from the start */
            nav->ordinal = 0;
            stepped(c);
        }
        c->accum = 0;
        break;
    case SDLK_RIGHT: case SDLK_DOWN: case SDLK_PERIOD:
        if (viz_nav_step(nav, shift ? 10 : 1))
            stepped(c);
        st->playing = false;
        break;
    case SDLK_LEFT: case SDLK_UP: case SDLK_COMMA:
        if (viz_nav_step(nav, shift ? -10 : -1))
            stepped(c);
        st->playing = false;
        break;
    case SDLK_HOME: nav->ordinal = 0; stepped(c); break;
    case SDLK_END: viz_nav_step(nav, (long)viz_nav_length(nav)); stepped(c); break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        st->speed = st->speed * 1.5 > 120 ? 120 : st->speed * 1.5;
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS:
        st->speed = st->speed / 1.5 < 0.25 ? 0.25 : st->speed / 1.5;
        break;
    case SDLK_w: viz_nav_cycle_warp(nav, shift ? -1 : 1); stepped(c); break;
    case SDLK_b: viz_nav_cycle_block(nav, shift ? -1 : 1); stepped(c); break;
    case SDLK_a: viz_nav_select(nav, nav->block_linear, nav->warp, !nav->all_warps); stepped(c); break;
    case SDLK_g: st->jump_mode = true; st->jump_text[0] = 0; break;
    case SDLK_h: st->show_help = !st->show_help; break;
    case SDLK_SLASH: if (shift) st->show_help = !st->show_help; break;
    case SDLK_s: {
        char path[100];
        snprintf(path, sizeof path, "warpscope-%.60s-%03d.png", nav->rec[0]->kernel, c->shots++);
        if (screenshot(r, path, err, cap) == 0)
            snprintf(st->message, sizeof st->message, "saved %s", path);
        else
            snprintf(st->message, sizeof st->message, "%.150s", err);
        break;
    }
    default: break;
    }
}

static int run_window(const viz_app_opts *o, viz_nav *nav, viz_state *st, char *err, size_t cap)
{
    if (SDL_Init(SDL_INIT_VIDEO) != 0) {
        snprintf(err, cap, "cannot open a window (%s); use --headless --frames N --out DIR, "
                           "or run under xvfb-run", SDL_GetError());
        return WS_EXIT_USAGE;
    }
    /* With no display SDL falls back to an invisible offscreen window whose event loop
     * would wait forever: refuse unless only a screenshot is wanted. */
    const char *drv = SDL_GetCurrentVideoDriver();
    if (!o->screenshot && drv && (!strcmp(drv, "offscreen") || !strcmp(drv, "dummy"))) {
        snprintf(err, cap, "no display to open a window on (SDL video driver '%s'); use --headless --frames N "
                           "--out DIR, or run under xvfb-run", drv);
        SDL_Quit();
        return WS_EXIT_USAGE;
    }
    char title[200];
    snprintf(title, sizeof title, "warpscope viz \xE2\x80\x94 %s%s%s", o->rec[0]->kernel, o->npanes == 2 ? " vs " : "",
             o->npanes == 2 ? o->rec[1]->kernel : "");
    SDL_Window *win = SDL_CreateWindow(title, SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o->width, o->height,
                                       SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
    if (!win) {
        snprintf(err, cap, "cannot create a window: %s", SDL_GetError());
        SDL_Quit();
        return WS_EXIT_INTERNAL;
    }
    SDL_SetWindowMinimumSize(win, 640, 480);
    SDL_Renderer *r = SDL_CreateRenderer(win, -1, SDL_RENDERER_ACCELERATED | SDL_RENDERER_PRESENTVSYNC);
    if (!r)
        r = SDL_CreateRenderer(win, -1, SDL_RENDERER_SOFTWARE);
    if (!r) {
        snprintf(err, cap, "cannot create a renderer: %s", SDL_GetError());
        SDL_DestroyWindow(win);
        SDL_Quit();
        return WS_EXIT_INTERNAL;
    }
    SDL_RendererInfo info;
    bool vsync = SDL_GetRendererInfo(r, &info) == 0 && (info.flags & SDL_RENDERER_PRESENTVSYNC);
    viz_fonts fonts;
    int rc = WS_EXIT_OK;
    if (viz_fonts_open(r, &fonts, err, cap)) {
        rc = WS_EXIT_USAGE;  /* no usable font (WARPSCOPE_FONT or fontconfig's): an input error */
        goto out;
    }
    loop_ctx c = {.nav = nav, .st = st, .since_step = 10};
    uint64_t freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    bool first = true;
    while (!c.quit) {
        /* update: input */
        SDL_Event ev;
        bool idle = !st->playing && c.since_step > 1.0;
        if (idle && !first ? SDL_WaitEventTimeout(&ev, 250) : SDL_PollEvent(&ev)) {
            do {
                switch (ev.type) {
                case SDL_QUIT: c.quit = true; break;
                case SDL_KEYDOWN: on_key(&c, r, &ev.key.keysym, err, cap); break;
                case SDL_MOUSEMOTION:
                    st->mouse_in = true;
                    st->mouse_x = ev.motion.x;
                    st->mouse_y = ev.motion.y;
                    break;
                case SDL_WINDOWEVENT:
                    if (ev.window.event == SDL_WINDOWEVENT_LEAVE)
                        st->mouse_in = false;
                    break;
                case SDL_MOUSEBUTTONDOWN: {
                    int w, h;
                    SDL_GetRendererOutputSize(r, &w, &h);
                    viz_layout L;
                    viz_layout_compute(w, h, st->npanes, &L);
                    viz_hit hit = viz_hit_test(&L, st, ev.button.x, ev.button.y);
                    if (hit.kind == VIZ_HIT_SOURCE && viz_nav_jump_line(nav, hit.src_line))
                        stepped(&c);
                    break;
                }
                default: break;
                }
            } while (SDL_PollEvent(&ev));
        }
        /* update: time */
        uint64_t now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)freq;
        last = now;
        if (dt > 0.25)
            dt = 0.25;
        c.since_step += dt;
        if (st->playing) {
            c.accum += dt * st->speed;
            while (c.accum >= 1.0) {
                c.accum -= 1.0;
                if (viz_nav_step(nav, 1)) {
                    stepped(&c);
                } else {
                    st->playing = false;
                    snprintf(st->message, sizeof st->message, "end of the recording (Home to restart)");
                    break;
                }
            }
        }
        /* the animation settles in 0.35 s, or faster when playing fast */
        double settle = st->playing && 0.8 / st->speed < 0.35 ? 0.8 / st->speed : 0.35;
        st->phase = o->screenshot ? 1.0 : c.since_step / settle;
        if (st->phase > 1)
            st->phase = 1;
        /* draw */
        viz_nav_apply(nav, st);
        viz_render_frame(r, &fonts, st);
        if (o->screenshot && first) {
            if (screenshot(r, o->screenshot, err, cap))
                rc = WS_EXIT_USAGE;
            else
                printf("viz: wrote %s\n", o->screenshot);
            c.quit = true;
        }
        SDL_RenderPresent(r);
        first = false;
        if (!vsync)
            SDL_Delay(12); /* about 60 fps without vsync */
    }
    viz_fonts_close(&fonts);
out:
    SDL_DestroyRenderer(r);
    SDL_DestroyWindow(win);
    SDL_Quit();
    return rc;
}

int viz_app_run(const viz_app_opts *o, char *err, size_t cap)
{
    viz_nav nav;
    if (viz_nav_init(&nav, o->rec, o->npanes, o->block_linear, o->warp)) {
        snprintf(err, cap, "out of memory");
        return WS_EXIT_INTERNAL;
    }
    viz_nav_step(&nav, (long)o->start_step);
    viz_state st;
    viz_state_init(&st);
    st.speed = o->speed > 0 ? o->speed : 4.0;
    st.playing = o->play && !o->headless && !o->screenshot;
    int rc = o->headless ? run_headless(o, &nav, &st, err, cap) : run_window(o, &nav, &st, err, cap);
    viz_nav_free(&nav);
    return rc;
}
