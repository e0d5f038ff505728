/* ptxgen.c - CUDA C to PTX with line information: NVRTC through dlopen (so the
 * binary runs where no toolkit is installed), else `nvcc -ptx` on a temporary
 * copy of the source. WARPSCOPE_PTXGEN=nvrtc|nvcc|none restricts the choice.
 * Invariant: success returns malloc'd text whose first line is
 * "// warpscope-source-hash: <16 hex>" of the exact source bytes compiled. */
#include "ptxgen.h"
#include "child.h"
#include "files.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

unsigned long long ws_source_hash(const char *text, size_t len)
{
    unsigned long long h = 0xcbf29ce484222325ull; /* FNV-1a 64 offset basis */
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)text[i];
        h *= 0x100000001b3ull;                    /* FNV 64 prime */
    }
    return h;
}

/* "sm_90" / "sm_90a" -> 90 (and the suffix); -1 when it is not an sm_ name. */
static int arch_number(const char *arch, char *suffix, size_t cap)
{
    if (!arch || strncmp(arch, "sm_", 3)) return -1;
    const char *p = arch + 3;
    int n = 0, digits = 0;
    while (*p >= '0' && *p <= '9' && digits < 4) { n = n * 10 + (*p - '0'); p++; digits++; }
    if (digits < 2 || (*p && strcmp(p, "a") && strcmp(p, "f"))) return -1;
    snprintf(suffix, cap, "%s", p);
    return n;
}

/* "// warpscope-source-hash: ...\n" + ptx */
static char *with_hash(const char *source, size_t len, const char *ptx, size_t ptx_len)
{
    char head[64];
    int hn = snprintf(head, sizeof head, "// warpscope-source-hash: %016llx\n", ws_source_hash(source, len));
    char *out = malloc((size_t)hn + ptx_len + 1);
    if (!out) return NULL;
    memcpy(out, head, (size_t)hn);
    memcpy(out + hn, ptx, ptx_len);
    out[hn + ptx_len] = 0;
    return out;
}

/* First line of a compiler log, for err->msg; the whole log goes to stderr. */
static void log_to_error(ws_error *err, const char *path, const char *tool, const char *log)
{
    const char *first = log;
    while (*first == '\n' || *first == '\r') first++;
    const char *eol = strchr(first, '\n');
    int n = eol ? (int)(eol - first) : (int)strlen(first);
    if (n > 300) n = 300;
    ws_error_set(err, path, 0, 0, "%s failed: %.*s", tool, n, first);
    if (*log) fprintf(stderr, "warpscope: %s output for %s:\n%s%s", tool, path, log,
                      log[strlen(log) - 1] == '\n' ? "" : "\n");
}

/* LeakSanitizer hook (used only in sanitizer builds): NVRTC keeps allocations for
 * the life of the process, and it stays loaded on purpose, so `make test` and the
 * ASan build of warpscope would otherwise report them as our leaks. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libnvrtc\n"; }

/* ---- NVRTC ---------------------------------------------------------------------- */

typedef int nvrtc_result;                  /* nvrtcResult: 0 = NVRTC_SUCCESS */
typedef struct nvrtc_prog *nvrtc_program;  /* nvrtcProgram */

typedef struct {
    void *lib;
    nvrtc_result (*create)(nvrtc_program *, const char *, const char *, int, const char *const *, const char *const *);
    nvrtc_result (*compile)(nvrtc_program, int, const char *const *);
    nvrtc_result (*log_size)(nvrtc_program, size_t *);
    nvrtc_result (*get_log)(nvrtc_program, char *);
    nvrtc_result (*ptx_size)(nvrtc_program, size_t *);
    nvrtc_result (*get_ptx)(nvrtc_program, char *);
    nvrtc_result (*destroy)(nvrtc_program *);
    const char *(*error_string)(nvrtc_result);
} nvrtc_api;

static void *open_nvrtc(void)
{
    static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
    for (size_t i = 0; i < 3; i++) {
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
    }
    const char *dirs[2] = {getenv("CUDA_HOME"), "/usr/local/cuda"};
    for (int d = 0; d < 2; d++) {
        if (!dirs[d] || !*dirs[d]) continue;
        for (size_t i = 0; i < 3; i++) {
            char path[1024];
            snprintf(path, sizeof path, "%s/lib64/%s", dirs[d], names[i]);
            void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            if (h) return h;
        }
    }
    return NULL;
}

/* Loaded once and kept: NVRTC keeps internal state that outlives a program,
 * and a library that stays mapped lets leak checkers attribute it. */
static bool load_nvrtc(nvrtc_api *a)
{
    static nvrtc_api cached;
    static int state; /* 0 untried, 1 loaded, -1 unavailable */
    if (state) {
        *a = cached;
        return state > 0;
    }
    state = -1;
    memset(a, 0, sizeof *a);
    a->lib = open_nvrtc();
    if (!a->lib) return false;
    /* POSIX allows converting dlsym's void* to a function pointer; memcpy keeps -Wpedantic quiet */
#define SYM(field, name) do { void *p = dlsym(a->lib, name); if (!p) goto missing; memcpy(&a->field, &p, sizeof p); } while (0)
    SYM(create, "nvrtcCreateProgram");
    SYM(compile, "nvrtcCompileProgram");
    SYM(log_size, "nvrtcGetProgramLogSize");
    SYM(get_log, "nvrtcGetProgramLog");
    SYM(ptx_size, "nvrtcGetPTXSize");
    SYM(get_ptx, "nvrtcGetPTX");
    SYM(destroy, "nvrtcDestroyProgram");
    SYM(error_string, "nvrtcGetErrorString");
#undef SYM
    cached = *a;
    state = 1;
    return true;
missing:
    dlclose(a->lib);
    a->lib = NULL;
    return false;
}

/* Returns PTX (with hash) or NULL with err set. */
static char *compile_nvrtc(nvrtc_api *a, const char *path, const char *source, size_t len, int sm, const char *suffix,
                           ws_error *err)
{
    char *src = malloc(len + 1);
    if (!src) { ws_error_set(err, path, 0, 0, "out of memory"); return NULL; }
    memcpy(src, source, len);
    src[len] = 0;
    char arch_opt[48], inc_opt[1100];
    snprintf(arch_opt, sizeof arch_opt, "-arch=compute_%d%s", sm, suffix);
    /* the .cu's own folder, so its #include "..." files are found */
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(inc_opt, sizeof inc_opt, "-I%.*s", (int)(slash - path), path);
    else snprintf(inc_opt, sizeof inc_opt, "-I.");
    const char *opts[] = {arch_opt, "-lineinfo", "--std=c++17", inc_opt};
    nvrtc_program prog = NULL;
    char *out = NULL;
    nvrtc_result r = a->create(&prog, src, path, 0, NULL, NULL);
    if (r) {
        ws_error_set(err, path, 0, 0, "nvrtcCreateProgram: %s", a->error_string(r));
        free(src);
        return NULL;
    }
    r = a->compile(prog, 4, opts);
    size_t log_n = 0;
    char *log = NULL;
    if (!a->log_size(prog, &log_n) && log_n > 0 && (log = malloc(log_n + 1))) {
        if (a->get_log(prog, log)) log[0] = 0;
        log[log_n] = 0;
    }
    if (r) {
        log_to_error(err, path, "nvrtc", log && *log ? log : a->error_string(r));
    } else {
        size_t n = 0;
        char *ptx = NULL;
        if (!a->ptx_size(prog, &n) && n > 0 && (ptx = malloc(n + 1)) && !a->get_ptx(prog, ptx)) {
            ptx[n] = 0;
            out = with_hash(source, len, ptx, strlen(ptx));
            if (!out) ws_error_set(err, path, 0, 0, "out of memory");
        } else {
            ws_error_set(err, path, 0, 0, "nvrtc produced no PTX");
        }
        free(ptx);
    }
    free(log);
    a->destroy(&prog);
    free(src);
    return out;
}

/* ---- nvcc ------------------------------------------------------------------------- */

static bool executable(const char *p) { return p && *p && access(p, X_OK) == 0; }

static bool find_nvcc(char *out, size_t cap)
{
    const char *env = getenv("NVCC");
    if (executable(env)) { snprintf(out, cap, "%s", env); return true; }
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(out, cap, "%s/bin/nvcc", home);
        if (executable(out)) return true;
    }
    snprintf(out, cap, "/usr/local/cuda/bin/nvcc");
    if (executable(out)) return true;
    const char *path = getenv("PATH");
    if (!path) return false;
    const char *p = path;
    while (*p) {
        const char *c = strchr(p, ':');
        size_t n = c ? (size_t)(c - p) : strlen(p);
        if (n) {
            snprintf(out, cap, "%.*s/nvcc", (int)n, p);
            if (executable(out)) return true;
        }
        p += n + (c ? 1 : 0);
    }
    return false;
}

static bool write_all(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

static char *compile_nvcc(const char *nvcc, const char *path, const char *source, size_t len, const char *arch,
                          ws_error *err)
{
    char dir[] = "/tmp/warpscope-ptx-XXXXXX";
    if (!mkdtemp(dir)) {
        ws_error_set(err, path, 0, 0, "cannot make a temporary folder: %s", strerror(errno));
        return NULL;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char in[1200], outp[1200], arch_opt[64], inc[1100];
    snprintf(in, sizeof in, "%s/%s", dir, *base ? base : "kernel.cu");
    size_t bl = strlen(in);
    if (bl < 3 || strcmp(in + bl - 3, ".cu")) snprintf(in + bl, sizeof in - bl, ".cu");
    snprintf(outp, sizeof outp, "%s/out.ptx", dir);
    snprintf(arch_opt, sizeof arch_opt, "-arch=%s", arch);
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(inc, sizeof inc, "-I%.*s", (int)(slash - path), path);
    else snprintf(inc, sizeof inc, "-I.");
    char *result = NULL;
    if (!write_all(in, source, len)) {
        ws_error_set(err, path, 0, 0, "cannot write %s: %s", in, strerror(errno));
        goto done;
    }
    /* bounded like every child (common/child.h): nvcc runs cicc and ptxas under it */
    char *argv[] = {(char *)nvcc, "-ptx", arch_opt, "-lineinfo", "-O3", inc, "-o", outp, in, NULL};
    ws_child_limits lim = {.wall_s = WS_PTXGEN_NVCC_WALL_S, .cpu_s = WS_PTXGEN_NVCC_CPU_S,
                           .mem_bytes = WS_PTXGEN_NVCC_MEM_BYTES};
    ws_child_result cr;
    if (ws_child_run(argv, &lim, &cr, err)) goto done;
    if (cr.status != 0) {
        if (cr.limit) ws_error_set(err, path, 0, 0, "nvcc -ptx did not finish: %s", cr.why);
        else log_to_error(err, path, "nvcc", *cr.output ? cr.output : "nvcc exited with an error and no message");
        free(cr.output);
        goto done;
    }
    free(cr.output);
    size_t n = 0;
    char *ptx = ws_read_file(outp, 0, &n, NULL);
    if (!ptx) {
        ws_error_set(err, path, 0, 0, "nvcc wrote no PTX");
        goto done;
    }
    result = with_hash(source, len, ptx, n);
    free(ptx);
    if (!result) ws_error_set(err, path, 0, 0, "out of memory");
done:
    unlink(in);
    unlink(outp);
    rmdir(dir);
    return result;
}

char *ws_ptxgen_compile(const char *path, const char *source, size_t len, const char *arch, const char **how,
                        ws_error *err)
{
    char suffix[8];
    if (!path) path = "<source>";
    int sm = arch_number(arch, suffix, sizeof suffix);
    if (sm < 0) {
        ws_error_set(err, "<command line>", 0, 0, "architecture '%s' is not of the form sm_XX (e.g. sm_90)",
                     arch ? arch : "(none)");
        return NULL;
    }
    if (!source) { ws_error_set(err, path, 0, 0, "no source text"); return NULL; }
    const char *only = getenv("WARPSCOPE_PTXGEN");
    bool try_nvrtc = !only || !*only || !strcmp(only, "nvrtc");
    bool try_nvcc = !only || !*only || !strcmp(only, "nvcc");
    if (only && *only && !try_nvrtc && !try_nvcc && strcmp(only, "none")) {
        ws_error_set(err, "<environment>", 0, 0, "WARPSCOPE_PTXGEN='%s': expected nvrtc, nvcc or none", only);
        return NULL;
    }
    if (try_nvrtc) {
        nvrtc_api api;
        if (load_nvrtc(&api)) {
            char *ptx = compile_nvrtc(&api, path, source, len, sm, suffix, err);
            if (ptx && how) *how = "nvrtc";
            return ptx; /* a compile error from NVRTC is the answer: nvcc would say the same */
        }
    }
    char nvcc[1024];
    if (try_nvcc && find_nvcc(nvcc, sizeof nvcc)) {
        char *ptx = compile_nvcc(nvcc, path, source, len, arch, err);
        if (ptx && how) *how = "nvcc";
        return ptx;
    }
    ws_error_set(err, path, 0, 0,
                 "cannot compile to PTX: neither libnvrtc (libnvrtc.so, .so.13, .so.12, also under $CUDA_HOME/lib64 "
                 "and /usr/local/cuda/lib64) nor nvcc ($NVCC, $CUDA_HOME/bin, /usr/local/cuda/bin, $PATH) was found%s",
                 only && *only ? " (WARPSCOPE_PTXGEN restricts the choice)" : "");
    return NULL;
}
