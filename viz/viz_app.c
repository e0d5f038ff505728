/* viz_app.c - the visualizer's front ends around viz_render_frame: a session (navigator,
 * frame state, keys, clicks, the quiz), an SDL window with its event loop (initialise /
 * update / draw / tear down), and a headless exporter that renders a range of steps with
 * the software renderer into a surface and writes PNG frames and/or one animated GIF.
 * Invariant: every front end builds the frame the same way (session -> navigator ->
 * state -> frame step), so a headless frame is pixel for pixel what the window shows for
 * the same state, and a --keys script drives both through the same key handler. */
#include "viz_app.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../common/commands.h"
#include "viz_export.h"

#define FRAME_PNG_LEVEL 1 /* frames: zlib's fastest level (the flat UI still packs ~8x) */
#define SHOT_PNG_LEVEL 6  /* a single screenshot: zlib's default */

/* ---- the session: input -> navigator ------------------------------------------------ */

int viz_session_init(viz_session *ss, const viz_app_opts *o)
{
    memset(ss, 0, sizeof *ss);
    if (viz_nav_init(&ss->nav, o->rec, o->npanes, o->block_linear, o->warp, o->scope))
        return -1;
    viz_nav_step(&ss->nav, (long)o->start_step);
    viz_state_init(&ss->st);
    ss->st.speed = o->speed > 0 ? o->speed : 4.0;
    ss->st.playing = o->play && !o->headless && !o->screenshot;
    ss->st.quiz.on = ss->st.quiz.asking = o->quiz;
    viz_nav_apply(&ss->nav, &ss->st);
    return 0;
}

void viz_session_free(viz_session *ss)
{
    viz_nav_free(&ss->nav);
}

static void stepped(viz_session *ss)
{
    ss->stepped = true;
    ss->st.message[0] = 0;
    viz_nav_apply(&ss->nav, &ss->st);
}

/* A move forward to a new step opens a question in quiz mode. */
static void ask(viz_session *ss)
{
    viz_quiz *q = &ss->st.quiz;
    const viz_step *st = viz_nav_current(&ss->nav, 0);
    if (!q->on || !st || !viz_step_counts(st)) /* a landed copy or a wait has no count to predict */
        return;
    q->asking = true;
    q->guess[0] = 0;
}

static void forward(viz_session *ss, long delta)
{
    /* one step on goes on into the next warp as playback does */
    if (delta == 1 ? viz_nav_advance(&ss->nav) : viz_nav_step(&ss->nav, delta)) {
        stepped(ss);
        ask(ss);
    }
}

static void answer(viz_session *ss)
{
    viz_quiz *q = &ss->st.quiz;
    const viz_step *st = viz_nav_current(&ss->nav, 0);
    q->asking = false;
    if (!st || !q->guess[0])
        return;
    q->last_guess = atoi(q->guess);
    q->last_answer = viz_step_answer(st);
    q->last_shared = st->space == WS_SPACE_SHARED;
    q->have_last = true;
    q->tries++;
    bool ok = q->last_guess == q->last_answer;
    q->right += ok;
    snprintf(ss->st.message, sizeof ss->st.message, "%s you said %d, it takes %d %s \xC2\xB7 score %d/%d",
             ok ? "right:" : "not quite:", q->last_guess, q->last_answer, viz_step_unit(st), q->right, q->tries);
}

static void quiz_key(viz_session *ss, int sym)
{
    viz_quiz *q = &ss->st.quiz;
    size_t n = strlen(q->guess);
    int digit = sym >= SDLK_0 && sym <= SDLK_9 ? sym - SDLK_0
                : sym >= SDLK_KP_1 && sym <= SDLK_KP_9 ? sym - SDLK_KP_1 + 1 : sym == SDLK_KP_0 ? 0 : -1;
    if (digit >= 0 && n + 1 < sizeof q->guess && n < 6) {
        q->guess[n] = (char)('0' + digit);
        q->guess[n + 1] = 0;
    } else if (sym == SDLK_BACKSPACE && n) {
        q->guess[n - 1] = 0;
    } else if (sym == SDLK_RETURN || sym == SDLK_KP_ENTER) {
        if (n)
            answer(ss);
    } else if (sym == SDLK_ESCAPE) {
        q->asking = false;
        snprintf(ss->st.message, sizeof ss->st.message, "skipped (not scored)");
    } else if (sym == SDLK_p) {
        q->on = q->asking = false;
    } else if (sym == SDLK_q) {
        ss->quit = true;
    } else {
        snprintf(ss->st.message, sizeof ss->st.message, "type your guess, then Enter (Esc skips, p leaves the quiz)");
    }
}

/* The heat map's line k rows after the current one (k = +1 / -1). */
static int heat_neighbour(const viz_recording *r, int cur, int dir)
{
    if (dir > 0) {
        for (int l = cur + 1; l < r->nheat; l++)
            if (r->heat[l].instructions)
                return l;
    } else {
        for (int l = (cur < r->nheat ? cur : r->nheat) - 1; l > 0; l--)
            if (r->heat[l].instructions)
                return l;
    }
    return 0;
}

static void jump_line(viz_session *ss, int line)
{
    if (!line)
        return;
    if (viz_nav_jump_line(&ss->nav, line)) {
        stepped(ss);
        int got = viz_nav_current(&ss->nav, 0)->src_line;
        if (got == line)
            snprintf(ss->st.message, sizeof ss->st.message, "jumped to line %d", got);
        else
            snprintf(ss->st.message, sizeof ss->st.message, "line %d has no step in this %s; jumped to line %d", line,
                     viz_scope_name(ss->nav.scope), got);
        ask(ss);
    } else {
        snprintf(ss->st.message, sizeof ss->st.message, "no memory instruction of this %s at or after line %d",
                 viz_scope_name(ss->nav.scope), line);
    }
}

void viz_session_key(viz_session *ss, int sym, unsigned mod)
{
    viz_state *st = &ss->st;
    viz_nav *nav = &ss->nav;
    bool shift = (mod & KMOD_SHIFT) != 0;
    if (st->quiz.on && st->quiz.asking) {
        quiz_key(ss, sym);
        return;
    }
    if (st->jump_mode) {
        size_t n = strlen(st->jump_text);
        if (sym >= SDLK_0 && sym <= SDLK_9 && n + 1 < sizeof st->jump_text) {
            st->jump_text[n] = (char)('0' + (sym - SDLK_0));
            st->jump_text[n + 1] = 0;
        } else if (sym >= SDLK_KP_1 && sym <= SDLK_KP_0 && n + 1 < sizeof st->jump_text) {
            st->jump_text[n] = (char)(sym == SDLK_KP_0 ? '0' : '1' + (sym - SDLK_KP_1));
            st->jump_text[n + 1] = 0;
        } else if (sym == SDLK_BACKSPACE && n) {
            st->jump_text[n - 1] = 0;
        } else if (sym == SDLK_RETURN || sym == SDLK_KP_ENTER) {
            st->jump_mode = false;
            jump_line(ss, atoi(st->jump_text));
        } else if (sym == SDLK_ESCAPE) {
            st->jump_mode = false;
        }
        return;
    }
    const viz_step *cur = viz_nav_current(nav, 0);
    switch (sym) {
    case SDLK_ESCAPE:
        if (st->show_help)
            st->show_help = false;
        else
            ss->quit = true;
        break;
    case SDLK_q: ss->quit = true; break;
    case SDLK_SPACE:
        st->playing = !st->playing;
        if (st->playing && nav->ordinal + 1 >= viz_nav_length(nav) &&
            !(nav->scope == VIZ_SCOPE_WARP && viz_nav_advance(nav))) { /* replay from the start */
            nav->ordinal = 0;
        }
        stepped(ss);
        break;
    case SDLK_RIGHT: case SDLK_DOWN: case SDLK_PERIOD:
        st->playing = false;
        forward(ss, shift ? 10 : 1);
        break;
    case SDLK_LEFT: case SDLK_UP: case SDLK_COMMA:
        st->playing = false;
        if (viz_nav_step(nav, shift ? -10 : -1))
            stepped(ss);
        break;
    case SDLK_HOME: nav->ordinal = 0; stepped(ss); break;
    case SDLK_END: forward(ss, (long)viz_nav_length(nav)); break;
    case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS:
        st->speed = st->speed * 1.5 > 120 ? 120 : st->speed * 1.5;
        break;
    case SDLK_MINUS: case SDLK_KP_MINUS:
        st->speed = st->speed / 1.5 < 0.25 ? 0.25 : st->speed / 1.5;
        break;
    case SDLK_w: viz_nav_cycle_warp(nav, shift ? -1 : 1); stepped(ss); break;
    case SDLK_b: viz_nav_cycle_block(nav, shift ? -1 : 1); stepped(ss); break;
    case SDLK_a:
        viz_nav_set_scope(nav, (viz_scope)((nav->scope + 1) % VIZ_SCOPE_COUNT));
        stepped(ss);
        snprintf(st->message, sizeof st->message, "scope: %s", nav->scope == VIZ_SCOPE_WARP ? "one warp"
                                                               : nav->scope == VIZ_SCOPE_BLOCK ? "the block, every warp"
                                                                                               : "every recorded block");
        break;
    case SDLK_g: st->jump_mode = true; st->jump_text[0] = 0; break;
    case SDLK_j: if (cur) jump_line(ss, heat_neighbour(nav->rec[0], cur->src_line, 1)); break;
    case SDLK_k: if (cur) jump_line(ss, heat_neighbour(nav->rec[0], cur->src_line, -1)); break;
    case SDLK_r: jump_line(ss, viz_recording_worst_line(nav->rec[0])); break;
    case SDLK_p:
        st->quiz.on = !st->quiz.on;
        st->playing = false;
        snprintf(st->message, sizeof st->message, st->quiz.on ? "quiz: predict each step before it is shown"
                                                              : "quiz off");
        if (st->quiz.on)
            ask(ss);
        break;
    case SDLK_h: st->show_help = !st->show_help; break;
    case SDLK_SLASH: if (shift) st->show_help = !st->show_help; break;
    case SDLK_s: ss->want_shot = true; break;
    default: break;
    }
}

void viz_session_click(viz_session *ss, const viz_layout *L, int x, int y)
{
    viz_nav_apply(&ss->nav, &ss->st);
    if (ss->st.quiz.on && ss->st.quiz.asking)
        return;
    viz_hit h = viz_hit_test(L, &ss->st, x, y);
    if (h.kind == VIZ_HIT_SOURCE || h.kind == VIZ_HIT_HEAT)
        jump_line(ss, h.src_line);
    else if (h.kind == VIZ_HIT_TIMELINE && viz_nav_jump_timeline(&ss->nav, h.pane, h.tl_pos))
        stepped(ss);
}

bool viz_session_play_tick(viz_session *ss)
{
    if (ss->st.quiz.on && ss->st.quiz.asking)
        return true;
    if (!viz_nav_advance(&ss->nav))
        return false;
    stepped(ss);
    ask(ss);
    return true;
}

int viz_session_keys(viz_session *ss, const char *script, char *err, size_t cap)
{
    const char *p = script;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        char name[40];
        size_t n = strcspn(p, " ");
        if (n >= sizeof name) {
            snprintf(err, cap, "--keys: '%.*s' is not a key name", (int)n, p);
            return -1;
        }
        memcpy(name, p, n);
        name[n] = 0;
        p += n;
        unsigned mod = 0;
        const char *k = name;
        if (!strncmp(k, "S-", 2) && k[2]) {
            mod = KMOD_SHIFT;
            k += 2;
        }
        SDL_Keycode sym = SDL_GetKeyFromName(k);
        if (sym == SDLK_UNKNOWN && !strcmp(k, "?")) {
            sym = SDLK_SLASH;
            mod = KMOD_SHIFT;
        }
        if (sym == SDLK_UNKNOWN) {
            snprintf(err, cap, "--keys: unknown key '%s' (names as SDL writes them: a, 3, Right, Return, Space, "
                               "Escape; S-Right for Shift+Right)", name);
            return -1;
        }
        viz_session_key(ss, (int)sym, mod);
    }
    viz_nav_apply(&ss->nav, &ss->st);
    return 0;
}

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

static double scale_for(const viz_app_opts *o, int w, int h)
{
    return o->font_scale > 0 ? o->font_scale : viz_font_scale_for(w, h);
}

static int run_headless(const viz_app_opts *o, viz_session *ss, char *err, size_t cap)
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
    viz_gif *gif = NULL;
    if (viz_fonts_open(r, scale_for(o, o->width, o->height), &fonts, err, cap)) {
        rc = WS_EXIT_USAGE;  /* no usable font (WARPSCOPE_FONT or fontconfig's): an input error */
        goto out;
    }
    viz_state *st = &ss->st;
    if (o->first_frame_only) {                   /* its time is what --first-frame-time reports */
        viz_nav_apply(&ss->nav, st);
        viz_render_frame(r, &fonts, st);
        SDL_RenderPresent(r);
        if (o->tick)
            o->tick(o->tick_ctx, st->message, sizeof st->message);
    }
    if (o->screenshot) {
        viz_nav_apply(&ss->nav, st);
        viz_render_frame(r, &fonts, st);
        SDL_RenderPresent(r);
        if (viz_png_write(surf, o->screenshot, SHOT_PNG_LEVEL, err, cap))
            rc = WS_EXIT_USAGE; /* an unwritable path the user gave */
        else
            printf("viz: wrote %s (%dx%d)\n", o->screenshot, o->width, o->height);
    }
    if (rc == WS_EXIT_OK && (o->out_dir || o->gif)) {
        /* the range: --frames N, or --from A --to B, or to the end */
        size_t start = ss->nav.ordinal;
        long want = o->frames > 0 ? o->frames : o->has_last ? (long)o->last_step - (long)start + 1 : -1;
        if (o->has_last && o->last_step < start) {
            snprintf(err, cap, "--to %zu is before the first step (%zu)", o->last_step, start);
            rc = WS_EXIT_USAGE;
            goto fonts;
        }
        if (o->out_dir && ensure_dir(o->out_dir, err, cap)) {
            rc = WS_EXIT_USAGE;
            goto fonts;
        }
        if (o->gif && !(gif = viz_gif_open(o->gif, o->width, o->height, err, cap))) {
            rc = WS_EXIT_USAGE;
            goto fonts;
        }
        size_t dl = o->out_dir ? strlen(o->out_dir) : 0;
        const char *sep = dl && o->out_dir[dl - 1] == '/' ? "" : "/"; /* "frames/" gives frames/frame_0000.png */
        int delay = (int)lround(100.0 / st->speed);
        delay = delay < 2 ? 2 : delay;
        long i = 0;
        bool more = viz_nav_current(&ss->nav, 0) != NULL;
        st->playing = false;
        for (; more && (want < 0 || i < want); i++) {
            viz_nav_apply(&ss->nav, st);
            viz_render_frame(r, &fonts, st);
            SDL_RenderPresent(r);
            if (o->out_dir) {
                char path[1024];
                snprintf(path, sizeof path, "%s%sframe_%04ld.png", o->out_dir, sep, i);
                if (viz_png_write(surf, path, FRAME_PNG_LEVEL, err, cap)) {
                    rc = WS_EXIT_USAGE;
                    goto fonts;
                }
            }
            if (gif && viz_gif_add(gif, surf, delay, err, cap)) {
                rc = WS_EXIT_USAGE;
                goto fonts;
            }
            more = viz_nav_advance(&ss->nav);
        }
        if (want > 0 && i < want)
            fprintf(stderr, "viz: the %s ends after %ld step%s: wrote %ld frame%s, not %ld\n",
                    viz_scope_name(ss->nav.scope), i, i == 1 ? "" : "s", i, i == 1 ? "" : "s", want);
        if (o->out_dir)
            printf("viz: wrote %ld frames to %s%sframe_0000.png ... (%dx%d, steps %zu-%zu, one each)\n", i,
                   o->out_dir, sep, o->width, o->height, start, start + (size_t)(i ? i - 1 : 0));
        if (gif) {
            viz_gif *g = gif;
            gif = NULL;
            if (viz_gif_close(g, err, cap)) {
                rc = WS_EXIT_USAGE;
                goto fonts;
            }
            printf("viz: wrote %s (%ld frames, %dx%d, %.2f s each)\n", o->gif, i, o->width, o->height, delay / 100.0);
        }
    }
fonts:
    if (gif)                                   /* a failed export: the earlier GIF stays whole */
        viz_gif_abort(gif);
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
    int rc = viz_png_write(s, path, SHOT_PNG_LEVEL, err, cap);
    SDL_FreeSurface(s);
    return rc;
}

static int run_window(const viz_app_opts *o, viz_session *ss, char *err, size_t cap)
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
    char title[200];                             /* a window title: long template names are cut */
    snprintf(title, sizeof title, "warpscope viz \xE2\x80\x94 %.*s%s%.*s", 80, o->rec[0]->kernel, o->npanes == 2 ? " vs " : "",
             80, o->npanes == 2 ? o->rec[1]->kernel : "");
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
    int rc = WS_EXIT_OK, ow, oh;
    SDL_GetRendererOutputSize(r, &ow, &oh);
    double scale = scale_for(o, ow, oh);
    if (viz_fonts_open(r, scale, &fonts, err, cap)) {
        rc = WS_EXIT_USAGE;  /* no usable font (WARPSCOPE_FONT or fontconfig's): an input error */
        goto out;
    }
    viz_state *st = &ss->st;
    double since_step = 10, accum = 0;
    int shots = 0;
    uint64_t freq = SDL_GetPerformanceFrequency(), last = SDL_GetPerformanceCounter();
    bool first = true;
    while (!ss->quit) {
        /* update: input */
        SDL_Event ev;
        bool idle = !st->playing && since_step > 1.0;
        if (idle && !first ? SDL_WaitEventTimeout(&ev, 250) : SDL_PollEvent(&ev)) {
            do {
                switch (ev.type) {
                case SDL_QUIT: ss->quit = true; break;
                case SDL_KEYDOWN:
                    viz_session_key(ss, ev.key.keysym.sym, ev.key.keysym.mod);
                    accum = 0;
                    break;
                case SDL_MOUSEMOTION:
                    st->mouse_in = true;
                    st->mouse_x = ev.motion.x;
                    st->mouse_y = ev.motion.y;
                    break;
                case SDL_WINDOWEVENT:
                    if (ev.window.event == SDL_WINDOWEVENT_LEAVE)
                        st->mouse_in = false;
                    if (ev.window.event == SDL_WINDOWEVENT_SIZE_CHANGED && o->font_scale <= 0) {
                        SDL_GetRendererOutputSize(r, &ow, &oh);
                        double k = viz_font_scale_for(ow, oh);
                        if (fabs(k - scale) > 0.02) { /* new sizes: rasterise the fonts again */
                            viz_fonts nf;
                            char e2[256];
                            if (viz_fonts_open(r, k, &nf, e2, sizeof e2) == 0) {
                                viz_fonts_close(&fonts);
                                fonts = nf;
                                scale = k;
                            }
                        }
                    }
                    break;
                case SDL_MOUSEBUTTONDOWN: {
                    SDL_GetRendererOutputSize(r, &ow, &oh);
                    viz_layout L;
                    viz_layout_compute(ow, oh, st->npanes, &fonts, &L);
                    viz_session_click(ss, &L, ev.button.x, ev.button.y);
                    break;
                }
                default: break;
                }
            } while (SDL_PollEvent(&ev));
        }
        if (ss->stepped) {
            since_step = 0;
            ss->stepped = false;
        }
        /* update: time */
        uint64_t now = SDL_GetPerformanceCounter();
        double dt = (double)(now - last) / (double)freq;
        last = now;
        if (dt > 0.25)
            dt = 0.25;
        since_step += dt;
        if (st->playing) {
            accum += dt * st->speed;
            while (accum >= 1.0) {
                accum -= 1.0;
                if (!viz_session_play_tick(ss)) {
                    st->playing = false;
                    snprintf(st->message, sizeof st->message, "end of the %s (Home to restart, a to widen the scope)",
                             viz_scope_name(ss->nav.scope));
                    break;
                }
                if (ss->stepped) {
                    since_step = 0;
                    ss->stepped = false;
                }
            }
        }
        /* the animation settles in 0.35 s, or faster when playing fast */
        double settle = st->playing && 0.8 / st->speed < 0.35 ? 0.8 / st->speed : 0.35;
        st->phase = o->screenshot ? 1.0 : since_step / settle;
        if (st->phase > 1)
            st->phase = 1;
        /* draw */
        viz_nav_apply(&ss->nav, st);
        viz_render_frame(r, &fonts, st);
        if (o->screenshot && first) {
            if (screenshot(r, o->screenshot, err, cap))
                rc = WS_EXIT_USAGE;
            else
                printf("viz: wrote %s\n", o->screenshot);
            ss->quit = true;
        } else if (ss->want_shot) {
            ss->want_shot = false;
            char path[100];
            snprintf(path, sizeof path, "warpscope-%.60s-%03d.png", o->rec[0]->kernel, shots++);
            if (screenshot(r, path, err, cap) == 0)
                snprintf(st->message, sizeof st->message, "saved %s", path);
            else
                snprintf(st->message, sizeof st->message, "%.150s", err);
        }
        SDL_RenderPresent(r);
        first = false;
        /* the totals and the rest of the steps, once their background runs are done */
        if (o->tick && o->tick(o->tick_ctx, st->message, sizeof st->message) && viz_nav_refresh(&ss->nav)) {
            snprintf(err, cap, "out of memory for the recording's steps");
            rc = WS_EXIT_INTERNAL;
            break;
        }
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
    viz_session ss;
    if (viz_session_init(&ss, o)) {
        snprintf(err, cap, "out of memory");
        return WS_EXIT_INTERNAL;
    }
    size_t len = viz_nav_length(&ss.nav);
    if (len && o->start_step >= len) {
        snprintf(err, cap, "--step/--from %zu: the %s of %s holds %zu step%s (0..%zu)", o->start_step,
                 viz_scope_name(ss.nav.scope), o->rec[0]->kernel, len, len == 1 ? "" : "s", len - 1);
        viz_session_free(&ss);
        return WS_EXIT_USAGE;
    }
    if (o->keys && viz_session_keys(&ss, o->keys, err, cap)) {
        viz_session_free(&ss);
        return WS_EXIT_USAGE;
    }
    ss.want_shot = false; /* an 's' in a script: the --screenshot option says where */
    int rc = o->headless ? run_headless(o, &ss, err, cap) : run_window(o, &ss, err, cap);
    viz_session_free(&ss);
    return rc;
}
