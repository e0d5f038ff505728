/* ptxgen.c - CUDA C to PTX with line information, compiled as the user's build would
 * (see ptxgen.h): NVRTC through dlopen with the toolkit's include folders, else - or when
 * NVRTC cannot - `nvcc -ptx` on a temporary copy of the source. WARPSCOPE_PTXGEN=nvrtc|nvcc|
 * none restricts the choice.
 * Invariant: success returns malloc'd text whose first line is
 * "// warpscope-source-hash: <16 hex>" of the exact source bytes given, and whose
 * "// warpscope-name:" lines carry the compiler's own lowered name for each job name. */
#include "ptxgen.h"
#include "child.h"
#include "ptxgen_cache.h"
#include "toolkit.h"
#include "demangle.h"
#include "files.h"

#include <ctype.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
#define NAME_VAR "ws__name_"    /* the nvcc path's address-taking variables: ws__name_<i> */

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

static bool is_dir(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool is_file(const char *p)
{
    struct stat st;
    return p && stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* ---- compiler options ---------------------------------------------------------------- */

static const char *const KNOWN_OPTS = "-I DIR, -D NAME[=VALUE], -U NAME, -std=c++11|14|17|20, --use_fast_math, "
                                      "-ftz=, -prec-div=, -prec-sqrt=, -fmad= (true or false), "
                                      "--expt-relaxed-constexpr, --expt-extended-lambda, -lineinfo, "
                                      "-Xptxas -v|-O0..-O3|--warn-on-spills|--warn-on-local-memory-usage";



static bool ident_ok(const char *s, size_t n)
{
    if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return false;
    for (size_t i = 1; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_')) return false;
    return true;
}

static int push_opt(ws_compile_opts *o, ws_error *err, const char *fmt, const char *a, const char *b)
{
    if (o->n >= WS_COMPILE_MAX_OPTS) {
        ws_error_set(err, "", 0, 0, "too many compiler options (at most %d)", WS_COMPILE_MAX_OPTS);
        return -1;
    }
    int w = snprintf(o->opt[o->n], WS_COMPILE_OPT_MAX, fmt, a, b);
    if (w < 0 || w >= WS_COMPILE_OPT_MAX) {
        ws_error_set(err, "", 0, 0, "compiler option too long (at most %d characters)", WS_COMPILE_OPT_MAX - 1);
        return -1;
    }
    o->n++;
    return 0;
}

/* ptxas options a build may pass (-Xptxas a,b): recorded, never given to the PTX compilers
 * (they act on ptxas, after the PTX warpscope simulates). A fixed list: each is a plain word. */
static const char *const PTXAS_OPTS[] = {"-v", "--verbose", "-O0", "-O1", "-O2", "-O3", "--warn-on-spills",
                                         "-warn-spills", "--warn-on-local-memory-usage", "-warn-lmem-usage",
                                         "--warn-on-double-precision-use", "-warn-double-usage", NULL};

/* "-v,-O3" -> each a known ptxas option, pushed as "-Xptxas=-v" ... */
static int push_ptxas(ws_compile_opts *o, const char *list, ws_error *err)
{
    if (!*list) {
        ws_error_set(err, "", 0, 0, "-Xptxas needs ptxas options after it (-Xptxas -v)");
        return -1;
    }
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        int k = 0;
        while (PTXAS_OPTS[k] && (strlen(PTXAS_OPTS[k]) != n || strncmp(PTXAS_OPTS[k], p, n))) k++;
        if (!PTXAS_OPTS[k]) {
            ws_error_set(err, "", 0, 0, "unknown ptxas option '%.*s' in -Xptxas (known: -v, -O0..-O3, --warn-on-spills, "
                         "--warn-on-local-memory-usage, --warn-on-double-precision-use)", (int)(n < 60 ? n : 60), p);
            return -1;
        }
        if (push_opt(o, err, "-Xptxas=%s%s", PTXAS_OPTS[k], "")) return -1;
        p += n;
        if (*p == ',') p++;
    }
    return 0;
}

bool ws_compile_opt_is_ptxas(const char *opt) { return !strncmp(opt, "-Xptxas=", 8); }

/* Does opt start with one of the spellings of a "name=value" flag? Returns the value. */
static const char *flag_value(const char *opt, const char *name)
{
    const char *p = opt;
    if (p[0] == '-' && p[1] == '-') p += 2;
    else if (p[0] == '-') p += 1;
    else return NULL;
    size_t n = strlen(name);
    if (strncmp(p, name, n) || p[n] != '=') return NULL;
    return p + n + 1;
}

int ws_compile_opts_add(ws_compile_opts *o, const char *opt, const char *base_dir, ws_error *err)
{
    const char *v;
    if (!opt || !*opt) {
        ws_error_set(err, "", 0, 0, "empty compiler option");
        return -1;
    }
    /* a newline would end the "// warpscope-options:" comment of the PTX header (and a macro's
     * #define line): no control character reaches a compiler or the PTX text */
    for (const char *c = opt; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            ws_error_set(err, "", 0, 0, "compiler option '%.40s...' holds a control character (byte 0x%02x): refused",
                         opt, (unsigned char)*c);
            for (char *q = err ? err->msg : NULL; q && *q; q++)
                if ((unsigned char)*q < 0x20 || *q == 0x7f) *q = '?';
            return -1;
        }
    if (!strncmp(opt, "-I", 2) || (v = flag_value(opt, "include-path"))) {
        const char *dir = !strncmp(opt, "-I", 2) ? opt + 2 : v;
        if (!*dir) { ws_error_set(err, "", 0, 0, "-I needs a folder"); return -1; }
        if (dir[0] != '/' && base_dir && *base_dir && strcmp(base_dir, "."))
            return push_opt(o, err, "-I%s/%s", base_dir, dir);
        return push_opt(o, err, "-I%s%s", dir, "");
    }
    if (!strncmp(opt, "-D", 2) || !strncmp(opt, "-U", 2)) {
        const char *def = opt + 2;
        size_t nl = strcspn(def, "=");
        if (!ident_ok(def, nl)) {
            ws_error_set(err, "", 0, 0, "%.2s needs a macro name (a C identifier), got '%.60s'", opt, def);
            return -1;
        }
        if (opt[1] == 'U' && def[nl]) {
            ws_error_set(err, "", 0, 0, "-U takes a name, not NAME=VALUE ('%.60s')", def);
            return -1;
        }
        if (def[nl] && def[strlen(def) - 1] == '\\') {   /* it would continue the #define onto the next line */
            ws_error_set(err, "", 0, 0, "-D%.60s: a macro value may not end in a backslash", def);
            return -1;
        }
        return push_opt(o, err, "-%s%s", opt[1] == 'D' ? "D" : "U", def);
    }
    if ((v = flag_value(opt, "std"))) {
        static const char *const stds[] = {"c++03", "c++11", "c++14", "c++17", "c++20"};
        for (size_t i = 0; i < sizeof stds / sizeof stds[0]; i++)
            if (!strcmp(v, stds[i])) return push_opt(o, err, "-std=%s%s", v, "");
        ws_error_set(err, "", 0, 0, "-std=%.40s: both NVRTC and nvcc take c++03, c++11, c++14, c++17 or c++20", v);
        return -1;
    }
    if (!strcmp(opt, "--use_fast_math") || !strcmp(opt, "-use_fast_math")) return push_opt(o, err, "%s%s", "--use_fast_math", "");
    /* the language extensions PyTorch and CUTLASS builds pass: both compilers take these spellings */
    if (!strcmp(opt, "--expt-relaxed-constexpr") || !strcmp(opt, "-expt-relaxed-constexpr"))
        return push_opt(o, err, "%s%s", "--expt-relaxed-constexpr", "");
    if (!strcmp(opt, "--expt-extended-lambda") || !strcmp(opt, "-expt-extended-lambda") ||
        !strcmp(opt, "--extended-lambda") || !strcmp(opt, "-extended-lambda"))
        return push_opt(o, err, "%s%s", "--extended-lambda", "");
    if (!strcmp(opt, "-lineinfo") || !strcmp(opt, "--generate-line-info")) return 0; /* always on: nothing to add */
    if (!strcmp(opt, "-G") || !strcmp(opt, "--device-debug")) {
        ws_error_set(err, "", 0, 0, "%s (device debug) is refused: it compiles other code than the build measures "
                     "(no optimisation, values kept in local memory); warpscope always compiles with -lineinfo, "
                     "which gives the source lines without changing the code", opt);
        return -1;
    }
    if ((v = flag_value(opt, "Xptxas")) || (v = flag_value(opt, "ptxas-options"))) return push_ptxas(o, v, err);
    static const char *const bools[] = {"ftz", "prec-div", "prec-sqrt", "fmad"};
    for (size_t i = 0; i < sizeof bools / sizeof bools[0]; i++)
        if ((v = flag_value(opt, bools[i]))) {
            if (strcmp(v, "true") && strcmp(v, "false")) {
                ws_error_set(err, "", 0, 0, "-%s= takes true or false, not '%.40s'", bools[i], v);
                return -1;
            }
            return push_opt(o, err, "-%s=%s", bools[i], v);
        }
    ws_error_set(err, "", 0, 0, "unknown compiler option '%.60s' (known: %s)", opt, KNOWN_OPTS);
    return -1;
}

int ws_compile_opts_parse(const char *text, const char *base_dir, const char *file, int line, int col,
                          ws_compile_opts *o, ws_error *err)
{
    const char *p = text ? text : "";
    char word[WS_COMPILE_OPT_MAX + 8];
    while (*p) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        const char *st = p;
        while (*p && *p != ' ' && *p != '\t') p++;
        size_t n = (size_t)(p - st);
        int wcol = col + (int)(st - text);
        if (n >= WS_COMPILE_OPT_MAX) {
            ws_error_set(err, file, line, wcol, "compiler option too long (at most %d characters)", WS_COMPILE_OPT_MAX - 1);
            return -1;
        }
        memcpy(word, st, n);
        word[n] = 0;
        if (word[0] != '-') {
            ws_error_set(err, file, line, wcol, "expected a compiler option starting with '-', got '%.60s' (known: %s)",
                         word, KNOWN_OPTS);
            return -1;
        }
        /* "-I dir", "-D NAME", "-U NAME", "-std c++17": the value is the next word */
        bool split = !strcmp(word, "-I") || !strcmp(word, "-D") || !strcmp(word, "-U") || !strcmp(word, "-std") ||
                     !strcmp(word, "--std") || !strcmp(word, "-Xptxas") || !strcmp(word, "--ptxas-options");
        if (split) {
            while (*p == ' ' || *p == '\t') p++;
            const char *vs = p;
            while (*p && *p != ' ' && *p != '\t') p++;
            size_t vn = (size_t)(p - vs);
            if (!vn) {
                ws_error_set(err, file, line, wcol, "%s needs a value after it", word);
                return -1;
            }
            if (n + vn + 2 >= sizeof word) {
                ws_error_set(err, file, line, wcol, "compiler option too long (at most %d characters)", WS_COMPILE_OPT_MAX - 1);
                return -1;
            }
            if (word[1] == '-' || !strcmp(word, "-std") || !strcmp(word, "-Xptxas")) word[n++] = '=';
            memcpy(word + n, vs, vn);
            word[n + vn] = 0;
        }
        ws_error e;
        if (ws_compile_opts_add(o, word, base_dir, &e)) {
            ws_error_set(err, file, line, wcol, "%s", e.msg);
            return -1;
        }
    }
    return 0;
}

void ws_compile_opts_text(const ws_compile_opts *o, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = 0;
    size_t n = 0;
    for (int i = 0; o && i < o->n; i++) {
        int w = snprintf(out + n, cap - n, "%s%s", n ? " " : "", o->opt[i]);
        if (w < 0 || (size_t)w >= cap - n) { out[n] = 0; return; }
        n += (size_t)w;
    }
}

/* ---- results --------------------------------------------------------------------------- */

typedef struct {
    char mangled[WS_COMPILE_OPT_MAX * 2];
} lowered;

/* The header lines + ptx. */
static char *with_header(const ws_ptxgen_job *job, const ws_ptxgen_info *info, const lowered *low, const char *ptx,
                         size_t ptx_len)
{
    char opts[WS_COMPILE_MAX_OPTS * WS_COMPILE_OPT_MAX];
    ws_compile_opts_text(job->opts, opts, sizeof opts);
    size_t cap = 256 + strlen(info->how) + strlen(opts) + ptx_len;
    for (int i = 0; i < job->nnames; i++) cap += 32 + strlen(job->names[i]) + strlen(low[i].mangled);
    char *out = malloc(cap);
    if (!out) return NULL;
    size_t n = (size_t)snprintf(out, cap, "// warpscope-source-hash: %016llx\n// warpscope-compiler: %s\n",
                                ws_source_hash(job->source, job->len), info->how);
    if (opts[0]) n += (size_t)snprintf(out + n, cap - n, "// warpscope-options: %s\n", opts);
    for (int i = 0; i < job->nnames; i++)
        n += (size_t)snprintf(out + n, cap - n, "// warpscope-name: %s = %s\n", job->names[i], low[i].mangled);
    memcpy(out + n, ptx, ptx_len);
    out[n + ptx_len] = 0;
    return out;
}

/* Calls each "// warpscope-<key>: value" line at the top of text until fn returns true. */
static bool each_header(const char *text, const char *key, bool (*fn)(const char *v, size_t len, void *ctx), void *ctx)
{
    char tag[64];
    snprintf(tag, sizeof tag, "// warpscope-%s: ", key);
    size_t tl = strlen(tag);
    for (const char *p = text; p && !strncmp(p, "// warpscope-", 13);) {
        const char *eol = strchr(p, '\n');
        size_t ln = eol ? (size_t)(eol - p) : strlen(p);
        if (ln && p[ln - 1] == '\r') ln--;
        if (ln >= tl && !strncmp(p, tag, tl) && fn(p + tl, ln - tl, ctx)) return true;
        p = eol ? eol + 1 : NULL;
    }
    return false;
}

typedef struct {
    const char *name;
    char *out;
    size_t cap;
} name_query;

static bool match_name(const char *v, size_t len, void *ctx)
{
    name_query *q = ctx;
    size_t nl = strlen(q->name);
    if (len <= nl + 3 || strncmp(v, q->name, nl) || strncmp(v + nl, " = ", 3)) return false;
    snprintf(q->out, q->cap, "%.*s", (int)(len - nl - 3), v + nl + 3);
    return true;
}

bool ws_ptxgen_lowered_name(const char *ptx_text, const char *name, char *out, size_t cap)
{
    if (!ptx_text || !name || !cap) return false;
    name_query q = {name, out, cap};
    return each_header(ptx_text, "name", match_name, &q);
}

static bool copy_value(const char *v, size_t len, void *ctx)
{
    name_query *q = ctx;
    snprintf(q->out, q->cap, "%.*s", (int)len, v);
    return true;
}

void ws_ptxgen_text_options(const char *ptx_text, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = 0;
    name_query q = {NULL, out, cap};
    if (ptx_text) each_header(ptx_text, "options", copy_value, &q);
}

/* First line of a compiler log (without blank lines before it). */
static void first_line(const char *log, char *out, size_t cap)
{
    const char *first = log ? log : "";
    while (*first == '\n' || *first == '\r') first++;
    size_t n = strcspn(first, "\r\n");
    if (n >= cap) n = cap - 1;
    memcpy(out, first, n);
    out[n] = 0;
}

/* First line of a compiler log, for err->msg; the whole log goes to stderr. */
static void log_to_error(ws_error *err, const char *path, const char *tool, const char *log)
{
    char first[320];
    first_line(log, first, sizeof first);
    ws_error_set(err, path, 0, 0, "%s failed: %s", tool, first);
    if (*log) fprintf(stderr, "warpscope: %s output for %s:\n%s%s", tool, path, log,
                      log[strlen(log) - 1] == '\n' ? "" : "\n");
}

/* LeakSanitizer hook (used only in sanitizer builds): NVRTC keeps allocations for
 * the life of the process, and it stays loaded on purpose, so `make test` and the
 * ASan build of warpscope would otherwise report them as our leaks. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void) { return "leak:libnvrtc\n"; }

/* The address-of expression for a job name, as the compiler's name lookup wants it:
 * "scale<4>" -> "&scale<4>"; "k(const int*, int*, int)" -> "(void(*)(const int*, int*, int))&k". */
static int name_expression(const char *name, char *out, size_t cap)
{
    ws_cxx_name cn;
    if (ws_cxx_name_split(name, &cn) || !cn.base[0]) return -1;
    char targs[600] = "";
    if (cn.has_targs) snprintf(targs, sizeof targs, "<%s>", cn.targs);
    int w = cn.has_params ? snprintf(out, cap, "(void(*)(%s))&%s%s", cn.params, cn.base, targs)
                          : snprintf(out, cap, "&%s%s", cn.base, targs);
    return w < 0 || (size_t)w >= cap ? -1 : 0;
}

/* ---- NVRTC ---------------------------------------------------------------------------- */

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
    nvrtc_result (*version)(int *, int *);
    nvrtc_result (*add_name)(nvrtc_program, const char *);               /* NVRTC 8.0+ */
    nvrtc_result (*lowered_name)(nvrtc_program, const char *, const char **);
    char lib_path[WS_PATH_MAX];   /* where the library was loaded from (dladdr), "" unknown */
} nvrtc_api;

/* The first NVRTC that loads from common/toolkit.h's candidates. */
static void *open_nvrtc(void)
{
    char paths[12][WS_PATH_MAX];
    int n = ws_tool_nvrtc_candidates(paths, 12);
    for (int i = 0; i < n; i++) {
        void *h = dlopen(paths[i], RTLD_NOW | RTLD_LOCAL);
        if (h) return h;
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
#define OPT_SYM(field, name) do { void *p = dlsym(a->lib, name); if (p) memcpy(&a->field, &p, sizeof p); } while (0)
    SYM(create, "nvrtcCreateProgram");
    SYM(compile, "nvrtcCompileProgram");
    SYM(log_size, "nvrtcGetProgramLogSize");
    SYM(get_log, "nvrtcGetProgramLog");
    SYM(ptx_size, "nvrtcGetPTXSize");
    SYM(get_ptx, "nvrtcGetPTX");
    SYM(destroy, "nvrtcDestroyProgram");
    SYM(error_string, "nvrtcGetErrorString");
    OPT_SYM(version, "nvrtcVersion");
    OPT_SYM(add_name, "nvrtcAddNameExpression");
    OPT_SYM(lowered_name, "nvrtcGetLoweredName");
#undef SYM
#undef OPT_SYM
    {
        Dl_info dli;
        void *p = dlsym(a->lib, "nvrtcCompileProgram");
        if (p && dladdr(p, &dli) && dli.dli_fname) snprintf(a->lib_path, sizeof a->lib_path, "%s", dli.dli_fname);
    }
    cached = *a;
    state = 1;
    return true;
missing:
    dlclose(a->lib);
    a->lib = NULL;
    return false;
}

/* <toolkit>/include from a library path: .../lib64/libnvrtc.so or .../targets/<t>/lib/... */
static bool toolkit_of_lib(const char *lib, char *out, size_t cap)
{
    char dir[WS_PATH_MAX];
    snprintf(dir, sizeof dir, "%s", lib);
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(dir, '/');
        if (!slash) return false;
        *slash = 0;
        char cand[WS_PATH_MAX + 32];
        snprintf(cand, sizeof cand, "%s/include/cuda_runtime.h", dir);
        if (is_file(cand)) {
            snprintf(out, cap, "%.*s/include", (int)(cap > 10 ? cap - 10 : 1), dir);
            return true;
        }
    }
    return false;
}

int ws_ptxgen_toolkit_includes(char dirs[][WS_PATH_MAX], int max)
{
    char inc[WS_PATH_MAX] = "";
    nvrtc_api api;
    if (load_nvrtc(&api) && api.lib_path[0]) toolkit_of_lib(api.lib_path, inc, sizeof inc);
    const char *homes[] = {getenv("CUDA_HOME"), "/usr/local/cuda"};
    for (int i = 0; i < 2 && !inc[0]; i++) {
        if (!homes[i] || !*homes[i]) continue;
        char cand[WS_PATH_MAX + 32];
        snprintf(cand, sizeof cand, "%s/include/cuda_runtime.h", homes[i]);
        if (is_file(cand)) snprintf(inc, sizeof inc, "%.*s/include", WS_PATH_MAX - 10, homes[i]);
    }
    int n = 0;
    if (!inc[0] || max < 1) return 0;
    snprintf(dirs[n++], WS_PATH_MAX, "%s", inc);
    char cccl[WS_PATH_MAX + 8];
    snprintf(cccl, sizeof cccl, "%s/cccl", inc);
    if (n < max && is_dir(cccl)) snprintf(dirs[n++], WS_PATH_MAX, "%.*s", WS_PATH_MAX - 1, cccl);
    return n;
}

/* "-I<folder of path>" so the .cu's own #include "..." files are found */
static void own_folder_opt(const char *path, char *out, size_t cap)
{
    const char *slash = strrchr(path, '/');
    if (slash) snprintf(out, cap, "-I%.*s", (int)(slash - path), path);
    else snprintf(out, cap, "-I.");
}

/* The name expression whose error the log reports first, or -1. */
static int failing_name(const char *log, char exprs[][WS_COMPILE_OPT_MAX * 2], int n)
{
    const char *p = log ? strstr(log, "nv_mangled_name ") : NULL;
    if (!p) return -1;
    p += strlen("nv_mangled_name ");
    size_t len = strcspn(p, "\r\n");
    for (int i = 0; i < n; i++)
        if (strlen(exprs[i]) == len && !strncmp(p, exprs[i], len)) return i;
    return -1;
}

/* Returns PTX (with header) or NULL with err set; *first_error gets the log's first line. */
static char *compile_nvrtc(nvrtc_api *a, const ws_ptxgen_job *job, int sm, const char *suffix,
                           ws_ptxgen_info *info, char *first_error, size_t fe_cap, char **log_out, ws_error *err)
{
    first_error[0] = 0;
    *log_out = NULL;
    char *src = malloc(job->len + 1);
    if (!src) { ws_error_set(err, job->path, 0, 0, "out of memory"); return NULL; }
    memcpy(src, job->source, job->len);
    src[job->len] = 0;
    static char arch_opt[48], own[WS_PATH_MAX + 8], tk[4][WS_PATH_MAX + 4];
    const char *opts[3 * WS_COMPILE_MAX_OPTS + 12];
    int nopt = 0;
    snprintf(arch_opt, sizeof arch_opt, "-arch=compute_%d%s", sm, suffix);
    opts[nopt++] = arch_opt;
    opts[nopt++] = "-lineinfo";
    bool has_std = false;
    for (int i = 0; job->opts && i < job->opts->n; i++) has_std |= !strncmp(job->opts->opt[i], "-std=", 5);
    if (!has_std) opts[nopt++] = "-std=c++17";    /* nvcc 13's default dialect */
    own_folder_opt(job->path, own, sizeof own);
    opts[nopt++] = own;
    for (int i = 0; job->opts && i < job->opts->n; i++) {
        const char *o = job->opts->opt[i];
        if (ws_compile_opt_is_ptxas(o)) continue;
        /* NVRTC has no --expt-relaxed-constexpr / --extended-lambda of its own: it is given what
           nvcc gives its front end for them (nvcc -dryrun): the cudafe flag and the macro */
        if (!strcmp(o, "--expt-relaxed-constexpr")) {
            opts[nopt++] = "-Xcudafe";
            opts[nopt++] = "--relaxed_constexpr";
            opts[nopt++] = "-D__CUDACC_RELAXED_CONSTEXPR__";
        } else if (!strcmp(o, "--extended-lambda")) {
            opts[nopt++] = "-Xcudafe";
            opts[nopt++] = "--extended-lambda";
            opts[nopt++] = "-D__CUDACC_EXTENDED_LAMBDA__";
        } else {
            opts[nopt++] = o;
        }
    }
    char dirs[2][WS_PATH_MAX];
    int nd = ws_ptxgen_toolkit_includes(dirs, 2);
    for (int i = 0; i < nd; i++) {           /* after the user's -I, as nvcc searches its own headers last */
        snprintf(tk[i], sizeof tk[i], "-I%.*s", WS_PATH_MAX - 1, dirs[i]);
        opts[nopt++] = tk[i];
    }
    nvrtc_program prog = NULL;
    char *out = NULL;
    lowered *low = calloc((size_t)(job->nnames ? job->nnames : 1), sizeof *low);
    char (*exprs)[WS_COMPILE_OPT_MAX * 2] = calloc((size_t)(job->nnames ? job->nnames : 1), sizeof *exprs);
    if (!low || !exprs) {
        ws_error_set(err, job->path, 0, 0, "out of memory");
        goto done;
    }
    nvrtc_result r = a->create(&prog, src, job->path, 0, NULL, NULL);
    if (r) {
        ws_error_set(err, job->path, 0, 0, "nvrtcCreateProgram: %s", a->error_string(r));
        snprintf(first_error, fe_cap, "nvrtcCreateProgram: %s", a->error_string(r));
        prog = NULL;
        goto done;
    }
    if (job->nnames && (!a->add_name || !a->lowered_name)) {
        ws_error_set(err, job->path, 0, 0, "this NVRTC has no nvrtcAddNameExpression: cannot name '%s'", job->names[0]);
        snprintf(first_error, fe_cap, "no nvrtcAddNameExpression in this NVRTC");
        goto done;
    }
    for (int i = 0; i < job->nnames; i++) {
        if (name_expression(job->names[i], exprs[i], sizeof exprs[i])) {
            ws_error_set(err, job->path, 0, 0, "'%s' is not a kernel name (name<args> or name(types))", job->names[i]);
            snprintf(first_error, fe_cap, "bad name '%s'", job->names[i]);
            goto done;
        }
        if ((r = a->add_name(prog, exprs[i]))) {
            ws_error_set(err, job->path, 0, 0, "nvrtcAddNameExpression(%s): %s", exprs[i], a->error_string(r));
            snprintf(first_error, fe_cap, "nvrtcAddNameExpression: %s", a->error_string(r));
            goto done;
        }
    }
    r = a->compile(prog, nopt, opts);
    size_t log_n = 0;
    char *log = NULL;
    if (!a->log_size(prog, &log_n) && log_n > 0 && (log = malloc(log_n + 1))) {
        if (a->get_log(prog, log)) log[0] = 0;
        log[log_n] = 0;
    }
    if (r) {
        const char *text = log && *log ? log : a->error_string(r);
        first_line(text, first_error, fe_cap);
        int bad = failing_name(log, exprs, job->nnames);
        char fl[320];
        first_line(text, fl, sizeof fl);
        if (bad >= 0) ws_error_set(err, job->path, 0, 0, "nvrtc failed on the entry '%s': %s", job->names[bad], fl);
        else ws_error_set(err, job->path, 0, 0, "nvrtc failed: %s", fl);
        *log_out = log;
        log = NULL;
    } else {
        bool names_ok = true;
        for (int i = 0; i < job->nnames && names_ok; i++) {
            const char *ln = NULL;
            if (a->lowered_name(prog, exprs[i], &ln) || !ln) {
                ws_error_set(err, job->path, 0, 0, "NVRTC has no lowered name for '%s'", job->names[i]);
                names_ok = false;
            } else {
                snprintf(low[i].mangled, sizeof low[i].mangled, "%s", ln);
            }
        }
        size_t n = 0;
        char *ptx = NULL;
        if (!names_ok) {
            snprintf(first_error, fe_cap, "%.200s", err ? err->msg : "no lowered name");
        } else if (!a->ptx_size(prog, &n) && n > 0 && (ptx = malloc(n + 1)) && !a->get_ptx(prog, ptx)) {
            ptx[n] = 0;
            out = with_header(job, info, low, ptx, strlen(ptx));
            if (!out) ws_error_set(err, job->path, 0, 0, "out of memory");
        } else {
            ws_error_set(err, job->path, 0, 0, "nvrtc produced no PTX");
            snprintf(first_error, fe_cap, "nvrtc produced no PTX");
        }
        free(ptx);
    }
    free(log);
done:
    if (prog) a->destroy(&prog);
    free(low);
    free(exprs);
    free(src);
    return out;
}

/* ---- nvcc ------------------------------------------------------------------------------- */

static bool write_all(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, len, f) == len;
    return fclose(f) == 0 && ok;
}

/* Runs argv with stdout and stderr into logp; returns the exit status (-1: not started). Bounded
 * like every child (common/child.h); when a limit stopped it, the log says which. */
static int run_logged(char *const argv[], const char *logp, const char *tmpdir)
{
    ws_child_limits lim = {.wall_s = WS_PTXGEN_NVCC_WALL_S, .cpu_s = WS_PTXGEN_NVCC_CPU_S,
                           .mem_bytes = WS_PTXGEN_NVCC_MEM_BYTES, .tmpdir = tmpdir};
    ws_child_result r;
    ws_error err;
    if (ws_child_run(argv, &lim, &r, &err)) return -1;
    FILE *f = fopen(logp, "w");
    if (f) {
        if (r.limit) fprintf(f, "%s did not finish: %s\n", argv[0], r.why);
        else fputs(r.output, f);
        fclose(f);
    }
    free(r.output);
    return r.limit ? 128 : r.status >= 0 ? r.status : 128;
}

/* nvcc's release ("13.0") from common/toolkit.h's version ("13.0.88"), asked once per nvcc file. */
static void nvcc_version(const char *nvcc, char *out, size_t cap)
{
    char full[64];
    ws_tool_version_of(nvcc, full, sizeof full);
    const char *dot = strchr(full, '.');
    const char *dot2 = dot ? strchr(dot + 1, '.') : NULL;
    if (!strcmp(full, "unknown")) snprintf(out, cap, "?");
    else snprintf(out, cap, "%.*s", dot2 ? (int)(dot2 - full) : (int)strlen(full), full);
}

/* Removes the nvcc path's ws__name_ variables and the prototypes nvcc emits for the
 * kernels they name, collecting the lowered names. Returns malloc'd text. */
static char *tidy_nvcc_ptx(const char *ptx, lowered *low, int nnames)
{
    char *out = malloc(strlen(ptx) + 1);
    if (!out) return NULL;
    size_t n = 0;
    const char *p = ptx;
    /* first pass: the variables, so the prototypes of what they name can be recognised */
    for (const char *q = strstr(ptx, NAME_VAR); q; q = strstr(q + 1, NAME_VAR)) {
        char *end;
        long i = strtol(q + strlen(NAME_VAR), &end, 10);
        if (end == q + strlen(NAME_VAR) || i < 0 || i >= nnames) continue;
        const char *eq = end;
        while (*eq == ' ' || *eq == '\t') eq++;
        if (*eq != '=') continue;
        eq++;
        while (*eq == ' ' || *eq == '\t') eq++;
        if (!strncmp(eq, "generic(", 8)) eq += 8;
        size_t m = strcspn(eq, " \t;)\n");
        if (m < sizeof low[i].mangled) snprintf(low[i].mangled, sizeof low[i].mangled, "%.*s", (int)m, eq);
    }
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t ln = eol ? (size_t)(eol - p) + 1 : strlen(p);
        /* ".global .align 8 .u64 ws__name_3 = ...;" */
        const char *v = strstr(p, NAME_VAR);
        if (v && v < p + ln && !strncmp(p, ".global", 7)) { p += ln; continue; }
        /* ".visible .entry NAME" + "(" ... ")" + ";" for a named kernel: a prototype */
        if (!strncmp(p, ".visible .entry ", 16) || !strncmp(p, ".entry ", 7)) {
            const char *nm = p + (p[1] == 'v' ? 16 : 7);
            size_t nl = strcspn(nm, " \t(\r\n");
            bool named = false;
            for (int i = 0; i < nnames && !named; i++)
                named = strlen(low[i].mangled) == nl && !strncmp(low[i].mangled, nm, nl);
            if (named) {
                const char *close = strstr(p, ")");
                const char *after = close ? close + 1 : NULL;
                while (after && (*after == ' ' || *after == '\t' || *after == '\n' || *after == '\r')) after++;
                if (after && *after == ';') {
                    p = after + 1;
                    if (*p == '\n') p++;
                    continue;
                }
            }
        }
        memcpy(out + n, p, ln);
        n += ln;
        p += ln;
    }
    out[n] = 0;
    return out;
}

/* ---- nvcc: none of the user's text on its command line --------------------------------------
 * nvcc runs its sub-steps (cudafe++, cicc, ptxas) through sh, pasting the options and file
 * names it was given into the command in double quotes: a `$(...)`, a backtick or a `"` in a
 * -D value, an -I folder, a file name or TMPDIR would run as a command. So nvcc sees only names
 * of warpscope's making: the source as <tmp>/k/kernel.cu (alone in its folder, so a quoted
 * #include finds nothing of ours first), the .cu's folder and each -I folder as symbolic links
 * <tmp>/src and <tmp>/inc<i>, the -D/-U options as #define/#undef lines of <tmp>/macros.h
 * given to -include, and TMPDIR=<tmp>; each word is checked once more before nvcc runs
 * (shell_plain). Its messages and the PTX's .file lines are mapped back to the user's names. */

#define NVCC_MAX_MAPS (WS_COMPILE_MAX_OPTS + 2)

typedef struct {
    char tmp[WS_PATH_MAX];        /* a name nvcc saw: "<tmp>/k/kernel.cu", "<tmp>/src/" */
    char real[WS_PATH_MAX * 2];   /* the user's: "dir/k.cu", "dir/" */
} path_map;

/* Characters no shell gives a meaning to inside double quotes or outside them. */
static bool shell_plain(const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (!(isalnum(*c) || strchr("_-./=+,:", *c))) return false;
    return *s != 0;
}

/* Whatever nvcc left in its TMPDIR (it cleans up after itself; a killed nvcc may not). */
static void remove_leftovers(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return;
    for (struct dirent *e; (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char p[WS_PATH_MAX + 300];
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        unlink(p);
    }
    closedir(d);
}

/* text with every m[i].tmp replaced by m[i].real (all of them, in order); malloc'd or NULL. */
static char *map_back(const char *text, const path_map *m, int nm)
{
    size_t cap = strlen(text) + 1, n = 0;
    for (int i = 0; i < nm; i++)
        for (const char *q = strstr(text, m[i].tmp); q && m[i].tmp[0]; q = strstr(q + 1, m[i].tmp))
            cap += strlen(m[i].real);
    char *out = malloc(cap);
    if (!out) return NULL;
    for (const char *p = text; *p;) {
        int hit = -1;
        for (int i = 0; i < nm && hit < 0; i++)
            if (m[i].tmp[0] && !strncmp(p, m[i].tmp, strlen(m[i].tmp))) hit = i;
        if (hit >= 0) {
            n += (size_t)snprintf(out + n, cap - n, "%s", m[hit].real);
            p += strlen(m[hit].tmp);
        } else {
            out[n++] = *p++;
        }
    }
    out[n] = 0;
    return out;
}

/* path made absolute from the working folder, into out. */
static void absolute(const char *path, char *out, size_t cap)
{
    char cwd[WS_PATH_MAX];
    if (path[0] != '/' && getcwd(cwd, sizeof cwd)) snprintf(out, cap, "%s/%s", cwd, path);
    else snprintf(out, cap, "%s", path);
}

/* <dir>/<link> -> folder (absolute); the map entry "<dir>/<link>/" -> "folder/" as given. */
static int link_folder(const char *dir, const char *link, const char *folder, path_map *m, ws_error *err,
                       const char *path)
{
    char target[WS_PATH_MAX * 2], at[128];     /* dir is "/tmp/warpscope-ptx-XXXXXX" */
    absolute(folder, target, sizeof target);
    snprintf(at, sizeof at, "%s/%s", dir, link);
    if (symlink(target, at)) {
        ws_error_set(err, path, 0, 0, "cannot make a temporary link to the folder %s: %s", folder, strerror(errno));
        return -1;
    }
    snprintf(m->tmp, sizeof m->tmp, "%s/", at);
    snprintf(m->real, sizeof m->real, "%s/", folder);
    return 0;
}

/* The nvcc command for job in dir (see above): argv (pointing into words) and the maps of the
 * names nvcc will say back to the user's names; the macros file written. -1 with err set. */
static int nvcc_command(const char *nvcc, const ws_ptxgen_job *job, const char *dir, const char *in,
                        const char *outp, char words[][WS_PATH_MAX + 16], char **argv, path_map *maps, int *nmaps,
                        ws_error *err)
{
    int ac = 0, nw = 0, nm = 0;
    char macros[WS_PATH_MAX], folder[WS_PATH_MAX];
    snprintf(macros, sizeof macros, "%s/macros.h", dir);
    const char *slash = strrchr(job->path, '/');
    snprintf(folder, sizeof folder, "%.*s", slash ? (int)(slash - job->path) : 1, slash ? job->path : ".");
    snprintf(maps[nm].tmp, sizeof maps[nm].tmp, "%s", in);
    snprintf(maps[nm++].real, sizeof maps[nm].real, "%s", job->path);
    if (link_folder(dir, "src", folder, &maps[nm++], err, job->path)) return -1;
    argv[ac++] = (char *)nvcc;
    argv[ac++] = "-ptx";
    snprintf(words[nw], sizeof words[nw], "-arch=%s", job->arch);
    argv[ac++] = words[nw++];
    argv[ac++] = "-lineinfo";
    argv[ac++] = "-O3";
    snprintf(words[nw], sizeof words[nw], "-I%s/src", dir);
    argv[ac++] = words[nw++];
    FILE *mf = NULL;
    for (int i = 0; job->opts && i < job->opts->n; i++) {
        const char *o = job->opts->opt[i];
        if (ws_compile_opt_is_ptxas(o)) continue;            /* ptxas's, not the PTX compiler's */
        if (o[0] == '-' && (o[1] == 'D' || o[1] == 'U')) {   /* ws_compile_opts_add checked the name */
            if (!mf && !(mf = fopen(macros, "w"))) {
                ws_error_set(err, job->path, 0, 0, "cannot write %s: %s", macros, strerror(errno));
                return -1;
            }
            const char *eq = strchr(o + 2, '=');
            if (o[1] == 'U') fprintf(mf, "#undef %s\n", o + 2);
            else if (eq) fprintf(mf, "#define %.*s %s\n", (int)(eq - o - 2), o + 2, eq + 1);
            else fprintf(mf, "#define %s 1\n", o + 2);
        } else if (!strncmp(o, "-I", 2)) {
            char link[16];
            snprintf(link, sizeof link, "inc%d", i);
            if (link_folder(dir, link, o + 2, &maps[nm++], err, job->path)) {
                if (mf) fclose(mf);
                return -1;
            }
            snprintf(words[nw], sizeof words[nw], "-I%s/%s", dir, link);
            argv[ac++] = words[nw++];
        } else {
            argv[ac++] = (char *)o;                          /* -std=, --use_fast_math, -ftz=...: fixed words */
        }
    }
    if (mf) {
        if (fclose(mf)) {
            ws_error_set(err, job->path, 0, 0, "cannot write %s", macros);
            return -1;
        }
        argv[ac++] = "-include";
        snprintf(words[nw], sizeof words[nw], "%s", macros);
        argv[ac++] = words[nw++];
    }
    argv[ac++] = "-o";
    argv[ac++] = (char *)outp;
    argv[ac++] = (char *)in;
    argv[ac] = NULL;
    for (int i = 0; i < ac; i++)
        if (!shell_plain(argv[i])) {             /* a last guard: nothing above should allow it */
            ws_error_set(err, job->path, 0, 0,
                         "refusing to run nvcc with '%.80s': it holds a character a shell would act on, and nvcc "
                         "runs its steps through sh%s",
                         argv[i], i == 0 ? " (move the toolkit to a plain path, or set WARPSCOPE_NVCC)" : "");
            return -1;
        }
    *nmaps = nm;
    return 0;
}

static char *compile_nvcc(const char *nvcc, const ws_ptxgen_job *job, ws_ptxgen_info *info, ws_error *err)
{
    char dir[] = "/tmp/warpscope-ptx-XXXXXX";
    if (!mkdtemp(dir)) {
        ws_error_set(err, job->path, 0, 0, "cannot make a temporary folder: %s", strerror(errno));
        return NULL;
    }
    char kdir[64], in[96], outp[64], logp[64], macros[64];
    snprintf(kdir, sizeof kdir, "%s/k", dir);
    snprintf(in, sizeof in, "%s/kernel.cu", kdir);
    snprintf(outp, sizeof outp, "%s/out.ptx", dir);
    snprintf(logp, sizeof logp, "%s/log.txt", dir);
    snprintf(macros, sizeof macros, "%s/macros.h", dir);
    char *result = NULL, *unit = NULL;
    static char words[WS_COMPILE_MAX_OPTS + 4][WS_PATH_MAX + 16];
    char *argv[WS_COMPILE_MAX_OPTS + 16];
    static path_map maps[NVCC_MAX_MAPS];
    int nmaps = 0;
    lowered *low = calloc((size_t)(job->nnames ? job->nnames : 1), sizeof *low);
    /* the source, then one address-taking variable per name: nvcc instantiates what it names
     * and the PTX initialiser spells the lowered name */
    size_t ucap = strlen(job->path) + 16 + job->len + 2 + (size_t)job->nnames * (WS_COMPILE_OPT_MAX * 2 + 64);
    unit = malloc(ucap);
    if (!low || !unit) {
        ws_error_set(err, job->path, 0, 0, "out of memory");
        goto done;
    }
    /* #line: __FILE__ (an assert's message) and nvcc's messages name the user's file, as under
     * NVRTC, not <tmp>/k/kernel.cu; the lines keep their numbers. The path holds no '"', '\\' or
     * control byte (ws_ptxgen_run refuses those). */
    size_t un = (size_t)snprintf(unit, ucap, "#line 1 \"%s\"\n", job->path);
    memcpy(unit + un, job->source, job->len);
    un += job->len;
    int first_name_line = 1;
    for (size_t i = 0; i < job->len; i++) first_name_line += job->source[i] == '\n';
    if (job->nnames) {
        if (un && unit[un - 1] != '\n') { unit[un++] = '\n'; first_name_line++; }
    }
    for (int i = 0; i < job->nnames; i++) {
        char ex[WS_COMPILE_OPT_MAX * 2];
        if (name_expression(job->names[i], ex, sizeof ex)) {
            ws_error_set(err, job->path, 0, 0, "'%s' is not a kernel name (name<args> or name(types))", job->names[i]);
            goto done;
        }
        un += (size_t)snprintf(unit + un, ucap - un, "__device__ void *%s%d = (void *)(%s);\n", NAME_VAR, i, ex);
    }
    if (mkdir(kdir, 0700) || !write_all(in, unit, un)) {
        ws_error_set(err, job->path, 0, 0, "cannot write %s: %s", in, strerror(errno));
        goto done;
    }
    if (nvcc_command(nvcc, job, dir, in, outp, words, argv, maps, &nmaps, err)) goto done;
    int st = run_logged(argv, logp, dir);
    if (st != 0) {
        char *raw = ws_read_file(logp, 0, NULL, NULL);
        char *log = raw ? map_back(raw, maps, nmaps) : NULL;
        free(raw);
        const char *text = log && *log ? log : st < 0 ? "cannot start nvcc" : "nvcc exited with an error and no message";
        /* an error on a line past the source is about a name's variable */
        int bad = -1;
        const char *paren = strstr(text, "(");
        if (paren && job->nnames) {
            int line = atoi(paren + 1);
            if (line >= first_name_line && line < first_name_line + job->nnames) bad = line - first_name_line;
        }
        if (bad >= 0) {
            char fl[320];
            first_line(text, fl, sizeof fl);
            ws_error_set(err, job->path, 0, 0, "nvcc failed on the entry '%s': %s", job->names[bad], fl);
            fprintf(stderr, "warpscope: nvcc output for %s:\n%s\n", job->path, text);
        } else {
            log_to_error(err, job->path, "nvcc", text);
        }
        free(log);
        goto done;
    }
    size_t n = 0;
    char *ptx = ws_read_file(outp, 0, &n, NULL);
    if (!ptx) {
        ws_error_set(err, job->path, 0, 0, "nvcc wrote no PTX");
        goto done;
    }
    /* .file names the .cu as NVRTC does: absolute, from the working folder */
    absolute(job->path, maps[0].real, sizeof maps[0].real);
    char *named = map_back(ptx, maps, nmaps);
    free(ptx);
    char *tidy = named ? tidy_nvcc_ptx(named, low, job->nnames) : NULL;
    free(named);
    for (int i = 0; tidy && i < job->nnames; i++)
        if (!low[i].mangled[0]) {
            ws_error_set(err, job->path, 0, 0, "nvcc gave no lowered name for '%s'", job->names[i]);
            free(tidy);
            goto done;
        }
    if (tidy) result = with_header(job, info, low, tidy, strlen(tidy));
    free(tidy);
    if (!result) ws_error_set(err, job->path, 0, 0, "out of memory");
done:
    free(unit);
    free(low);
    unlink(in);
    rmdir(kdir);
    unlink(outp);
    unlink(logp);
    unlink(macros);
    for (int i = 1; i < nmaps; i++) {            /* the folder links: "<dir>/src/" */
        maps[i].tmp[strlen(maps[i].tmp) - 1] = 0;
        unlink(maps[i].tmp);
    }
    remove_leftovers(dir);
    rmdir(dir);
    return result;
}

/* ---- choosing ------------------------------------------------------------------------------- */

char *ws_ptxgen_run(const ws_ptxgen_job *job, ws_ptxgen_info *info, ws_error *err)
{
    ws_ptxgen_info scratch;
    if (!info) info = &scratch;
    memset(info, 0, sizeof *info);
    char suffix[8];
    const char *path = job->path ? job->path : "<source>";
    ws_ptxgen_job j = *job;
    j.path = path;
    int sm = arch_number(job->arch, suffix, sizeof suffix);
    if (sm < 0) {
        ws_error_set(err, "<command line>", 0, 0, "architecture '%s' is not of the form sm_XX (e.g. sm_90)",
                     job->arch ? job->arch : "(none)");
        return NULL;
    }
    if (!job->source) { ws_error_set(err, path, 0, 0, "no source text"); return NULL; }
    for (const char *c = path; *c; c++)         /* it is written into PTX as .file "<path>" */
        if ((unsigned char)*c < 0x20 || *c == 0x7f || *c == '"' || *c == '\\') {
            ws_error_set(err, "<command line>", 0, 0,
                         "the file name holds %s (byte 0x%02x), which cannot be written into PTX's .file line: "
                         "rename the file", *c == '"' ? "a double quote" : *c == '\\' ? "a backslash" : "a control character",
                         (unsigned char)*c);
            return NULL;
        }
    const char *only = getenv("WARPSCOPE_PTXGEN");
    bool try_nvrtc = !only || !*only || !strcmp(only, "nvrtc");
    bool try_nvcc = !only || !*only || !strcmp(only, "nvcc");
    if (only && *only && !try_nvrtc && !try_nvcc && strcmp(only, "none")) {
        ws_error_set(err, "<environment>", 0, 0, "WARPSCOPE_PTXGEN='%s': expected nvrtc, nvcc or none", only);
        return NULL;
    }
    /* the compilers this run would use, found first: they are part of the cache key */
    nvrtc_api api;
    bool have_nvrtc = try_nvrtc && load_nvrtc(&api);
    int ma = 0, mi = 0;
    if (have_nvrtc && api.version) api.version(&ma, &mi);
    char nvcc[1024], nvcc_ver[32] = "";
    bool have_nvcc = try_nvcc && ws_tool_find(WS_TOOL_NVCC, nvcc, sizeof nvcc, NULL) == 0;
    bool nvcc_plain = have_nvcc && shell_plain(nvcc);
    if (nvcc_plain) nvcc_version(nvcc, nvcc_ver, sizeof nvcc_ver);  /* its own process, argv only */
    char compilers[2 * WS_PATH_MAX + 1200], tk[2][WS_PATH_MAX];
    struct stat lst;
    bool lib_id = have_nvrtc && api.lib_path[0] && stat(api.lib_path, &lst) == 0;
    snprintf(compilers, sizeof compilers, "nvrtc=%s %d.%d %llu:%lld:%lld\nnvcc=%s %s\n",
             have_nvrtc ? api.lib_path : "none", ma, mi, lib_id ? (unsigned long long)lst.st_ino : 0ull,
             lib_id ? (long long)lst.st_size : 0ll, lib_id ? (long long)lst.st_mtim.tv_sec : 0ll,
             have_nvcc ? nvcc : "none", nvcc_ver);
    int ntk = have_nvrtc ? ws_ptxgen_toolkit_includes(tk, 2) : 0;
    char *key = have_nvrtc || have_nvcc ? ws_ptxgen_cache_key(&j, compilers, tk, ntk) : NULL;
    char *hit = ws_ptxgen_cache_get(key, info);
    if (hit) {
        free(key);
        return hit;
    }
    char nvrtc_first[300] = "";
    char *nvrtc_log = NULL;
    ws_error nvrtc_err;
    bool nvrtc_tried = false;
    if (have_nvrtc) {
        nvrtc_tried = true;
        info->tool = WS_PTXGEN_NVRTC;
        snprintf(info->version, sizeof info->version, "%d.%d", ma, mi);
        snprintf(info->tool_text, sizeof info->tool_text, "NVRTC %d.%d", ma, mi);
        snprintf(info->how, sizeof info->how, "compiled with NVRTC %d.%d", ma, mi);
        char *ptx = compile_nvrtc(&api, &j, sm, suffix, info, nvrtc_first, sizeof nvrtc_first, &nvrtc_log,
                                  &nvrtc_err);
        if (ptx) {
            ws_ptxgen_cache_put(key, info, ptx);
            free(key);
            return ptx;
        }
    }
    if (have_nvcc) {
        if (!nvcc_plain) {
            ws_error_set(err, path, 0, 0,
                         "refusing to run nvcc from '%.200s': its path holds a character a shell would act on, and "
                         "nvcc runs its steps through sh (install the toolkit under a plain path, or set "
                         "WARPSCOPE_NVCC)", nvcc);
            free(nvrtc_log);
            free(key);
            return NULL;
        }
        info->tool = WS_PTXGEN_NVCC;
        snprintf(info->version, sizeof info->version, "%s", nvcc_ver);
        snprintf(info->tool_text, sizeof info->tool_text, "nvcc -ptx %s", info->version);
        if (nvrtc_tried) snprintf(info->why, sizeof info->why, "NVRTC could not: %.200s", nvrtc_first);
        else if (try_nvrtc) snprintf(info->why, sizeof info->why, "no NVRTC library found");
        else snprintf(info->why, sizeof info->why, "WARPSCOPE_PTXGEN=nvcc");
        snprintf(info->how, sizeof info->how, "%s (%s)", info->tool_text, info->why);
        char *ptx = compile_nvcc(nvcc, &j, info, err);
        if (ptx) ws_ptxgen_cache_put(key, info, ptx);
        free(nvrtc_log);
        free(key);
        return ptx;
    }
    free(key);
    if (nvrtc_tried) {
        /* a compile error from NVRTC is the answer when there is no nvcc to try */
        if (nvrtc_log && *nvrtc_log)
            fprintf(stderr, "warpscope: nvrtc output for %s:\n%s%s", path, nvrtc_log,
                    nvrtc_log[strlen(nvrtc_log) - 1] == '\n' ? "" : "\n");
        free(nvrtc_log);
        if (err) *err = nvrtc_err;
        return NULL;
    }
    char missing[WS_MSG_MAX];
    ws_tool_missing(WS_TOOL_NVCC, missing, sizeof missing);
    ws_error_set(err, path, 0, 0,
                 "cannot compile to PTX: neither libnvrtc (libnvrtc.so, .so.13, .so.12, also under $CUDA_HOME/lib64 "
                 "and /usr/local/cuda/lib64) nor nvcc was found%s: %.300s",
                 only && *only ? " (WARPSCOPE_PTXGEN restricts the choice)" : "", missing);
    return NULL;
}

char *ws_ptxgen_compile(const char *path, const char *source, size_t len, const char *arch, const char **how,
                        ws_error *err)
{
    ws_ptxgen_job job = {path, source, len, arch, NULL, 0, NULL};
    ws_ptxgen_info info;
    char *ptx = ws_ptxgen_run(&job, &info, err);
    if (ptx && how) *how = info.tool == WS_PTXGEN_NVRTC ? "nvrtc" : "nvcc";
    return ptx;
}
