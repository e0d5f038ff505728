/* toolkit.c - finding the CUDA programs in the one order of toolkit.h, their versions, and
 * running them. Why one room: with four finders in three orders, CUDA_HOME=a PATH=b:... gave
 * the register count a/bin/ptxas and the SASS listing b/bin/ptxas in the same run.
 * Invariant: memo[] is the only memory of a search; a tool's version is asked of the tool at
 * most once per tool file (then the disk cache answers). */
#include "toolkit.h"

#include "toolcache.h"

#include <ctype.h>
#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
    const char *name, *env, *hint;
} tools[WS_TOOL_COUNT] = {
    [WS_TOOL_PTXAS] = {"ptxas", "WARPSCOPE_PTXAS", "install the CUDA toolkit (ptxas is in its bin/) or set WARPSCOPE_PTXAS"},
    [WS_TOOL_NVDISASM] = {"nvdisasm", "WARPSCOPE_NVDISASM", NULL},  /* the hint names the cache folder */
    [WS_TOOL_CUOBJDUMP] = {"cuobjdump", "WARPSCOPE_CUOBJDUMP", "install the CUDA toolkit or set WARPSCOPE_CUOBJDUMP"},
    [WS_TOOL_NVCC] = {"nvcc", "WARPSCOPE_NVCC", "install the CUDA toolkit or set WARPSCOPE_NVCC"},
    [WS_TOOL_NCU] = {"ncu", "WARPSCOPE_NCU", "install Nsight Compute or set WARPSCOPE_NCU"},
};

const char *ws_tool_name(ws_tool t) { return t < WS_TOOL_COUNT ? tools[t].name : "?"; }

bool ws_tool_executable(const char *p)
{
    struct stat st;
    return p && *p && stat(p, &st) == 0 && S_ISREG(st.st_mode) && access(p, X_OK) == 0;
}

static bool take(const char *cand, char *out, size_t cap)
{
    if (!ws_tool_executable(cand) || strlen(cand) >= cap) return false;
    snprintf(out, cap, "%s", cand);
    return true;
}

/* <root>/nvidia/<sub>/bin/<name>: where NVIDIA's pip wheels put their programs. */
static bool in_wheel_root(const char *root, size_t rn, const char *name, char *out, size_t cap)
{
    static const char *const sub[] = {"cu13", "cu12", "cuda_nvdisasm", "cuda_nvcc", "cuda_cuobjdump"};
    for (size_t k = 0; k < sizeof sub / sizeof sub[0]; k++) {
        char cand[1024];
        snprintf(cand, sizeof cand, "%.*s/nvidia/%s/bin/%s", (int)rn, root, sub[k], name);
        if (take(cand, out, cap)) return true;
    }
    return false;
}

/* Each folder of a ':' or newline separated list: <folder>/<name>, or its wheels. */
static bool in_list(const char *list, const char *name, bool wheels, char *out, size_t cap)
{
    for (const char *p = list; p && *p;) {
        size_t n = strcspn(p, ":\n");
        if (n) {
            char cand[1024];
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, p, name);
            if (wheels ? in_wheel_root(p, n, name, out, cap) : take(cand, out, cap)) return true;
        }
        p += n;
        if (*p) p++;
    }
    return false;
}

/* ---- python3's site folders: asked once per process, kept on disk -------------------------- */

static char *g_sites;       /* newline-separated folders; "" when python3 gave none */

static const char *python_sites(void)
{
    if (g_sites) return g_sites;
    char py[1024];
    struct stat st;
    if (!in_list(getenv("PATH"), "python3", false, py, sizeof py) || stat(py, &st)) return g_sites = strdup("");
    /* the answer depends on the interpreter file and the variables that move its folders */
    static const char *const vars[] = {"PYTHONPATH", "PYTHONHOME", "PYTHONUSERBASE", "VIRTUAL_ENV", "PYENV_VERSION",
                                       "HOME"};
    char key[4096];
    int k = snprintf(key, sizeof key, "python=%s\nid=%llu:%llu:%lld:%lld.%09ld\n", py, (unsigned long long)st.st_dev,
                     (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec,
                     st.st_mtim.tv_nsec);
    for (size_t i = 0; i < sizeof vars / sizeof vars[0] && k > 0 && (size_t)k < sizeof key; i++) {
        const char *v = getenv(vars[i]);
        k += snprintf(key + k, sizeof key - (size_t)k, "%s=%s\n", vars[i], v ? v : "");
    }
    if ((g_sites = ws_cache_get("pysite", key, NULL))) return g_sites;
    char *argv[] = {py, "-c", "import site,sys;print(\"\\n\".join(site.getsitepackages()+"
                              "[site.getusersitepackages()]+sys.path))", NULL};
    ws_child_limits lim = {.wall_s = 30};
    int status;
    char why[320];
    char *text = ws_tool_run(argv, &lim, &status, why, sizeof why);
    if (text && status == 0) {
        g_sites = text;
        ws_cache_put("pysite", key, text, strlen(text));
    } else {
        free(text);
        g_sites = strdup("");      /* no python3 answer: the wheels under it are not looked for */
    }
    return g_sites ? g_sites : "";
}

/* ---- the search --------------------------------------------------------------------------- */

typedef struct {
    bool done;
    int rc;
    char path[WS_PATH_MAX];
    char why[WS_MSG_MAX];
    bool vdone;
    char version[64];
} memo_entry;

static memo_entry memo[WS_TOOL_COUNT];

/* The sentence listing the places of the order (toolkit.h) for t. */
static void looked_at(ws_tool t, char *out, size_t cap)
{
    char wheels[WS_PATH_MAX] = "<cache>/nvdisasm";
    ws_cache_tools_dir(wheels, sizeof wheels);
    if (t == WS_TOOL_NCU)
        snprintf(out, cap, "$WARPSCOPE_NCU, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, /opt/nvidia/nsight-compute/*");
    else
        snprintf(out, cap, "$%s%s, PATH, $CUDA_HOME/bin, /usr/local/cuda/bin, the pip wheels under %.200s (and the "
                 "default cache's), $PYTHONPATH and python3's site-packages", tools[t].env,
                 t == WS_TOOL_NVCC ? ", $NVCC" : "", wheels);
}

void ws_tool_missing(ws_tool t, char *out, size_t cap)
{
    if (t >= WS_TOOL_COUNT) { snprintf(out, cap, "unknown tool"); return; }
    char where[600], wheels[WS_PATH_MAX] = "<cache>/nvdisasm";
    looked_at(t, where, sizeof where);
    ws_cache_tools_dir(wheels, sizeof wheels);
    /* what to run first, the places looked at last: a caller that embeds the sentence in a
       bounded line (sass_events.h's level, 400 bytes) cuts the list, not the remedy */
    if (t == WS_TOOL_NVDISASM)
        snprintf(out, cap, "nvdisasm not found; run scripts/deps.sh (make demo does), which fetches NVIDIA's "
                 "nvidia-cuda-nvdisasm wheel into %.200s (looked at %s)", wheels, where);
    else
        snprintf(out, cap, "%s not found; %s (looked at %s)", tools[t].name, tools[t].hint, where);
}

static int find_uncached(ws_tool t, char *out, size_t cap, char *why, size_t wcap)
{
    const char *name = tools[t].name;
    const char *env = getenv(tools[t].env);
    const char *var = tools[t].env;
    if (t == WS_TOOL_NVCC && !(env && *env)) { env = getenv("NVCC"); var = "NVCC"; }  /* the old name */
    if (env && *env) {                /* asked for this one: never silently another */
        if (take(env, out, cap)) return 0;
        snprintf(why, wcap, "$%s is '%.200s', which is not an executable file", var, env);
        return -1;
    }
    if (in_list(getenv("PATH"), name, false, out, cap)) return 0;
    char cand[1024];
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(cand, sizeof cand, "%s/bin/%s", home, name);
        if (take(cand, out, cap)) return 0;
    }
    snprintf(cand, sizeof cand, "/usr/local/cuda/bin/%s", name);
    if (take(cand, out, cap)) return 0;
    if (t == WS_TOOL_NCU) {
        glob_t g;
        int found = -1;
        if (glob("/opt/nvidia/nsight-compute/*/ncu", 0, NULL, &g) == 0) {
            for (size_t i = g.gl_pathc; found && i-- > 0;)   /* sorted: the last is the newest */
                if (take(g.gl_pathv[i], out, cap)) found = 0;
            globfree(&g);
        }
        if (!found) return 0;
    } else {
        char root[WS_PATH_MAX], def[WS_PATH_MAX];
        bool own = ws_cache_tools_dir(root, sizeof root);
        if (own && in_wheel_root(root, strlen(root), name, out, cap)) return 0;
        if (ws_cache_default_tools_dir(def, sizeof def) && !(own && !strcmp(def, root)) &&   /* not again */
            in_wheel_root(def, strlen(def), name, out, cap))
            return 0;
        if (in_list(getenv("PYTHONPATH"), name, true, out, cap)) return 0;
        if (in_list(python_sites(), name, true, out, cap)) return 0;
    }
    ws_tool_missing(t, why, wcap);
    return -1;
}

int ws_tool_find(ws_tool t, char *out, size_t cap, ws_error *err)
{
    if (t >= WS_TOOL_COUNT) {
        ws_error_set(err, "<toolkit>", 0, 0, "unknown tool %d", (int)t);
        return -1;
    }
    memo_entry *m = &memo[t];
    if (!m->done) {
        m->rc = find_uncached(t, m->path, sizeof m->path, m->why, sizeof m->why);
        m->done = true;
    }
    if (m->rc) {
        if (cap) out[0] = 0;
        ws_error_set(err, tools[t].name, 0, 0, "%s", m->why);
        return -1;
    }
    if (strlen(m->path) >= cap) {
        ws_error_set(err, tools[t].name, 0, 0, "the path of %s is too long", tools[t].name);
        return -1;
    }
    snprintf(out, cap, "%s", m->path);
    return 0;
}

void ws_tool_forget(void)
{
    memset(memo, 0, sizeof memo);
    free(g_sites);
    g_sites = NULL;
}

/* ---- running ------------------------------------------------------------------------------ */

char *ws_tool_run(char *const argv[], const ws_child_limits *lim, int *status, char *why, size_t cap)
{
    ws_child_result r;
    ws_error e;
    *status = -1;
    if (ws_child_run(argv, lim, &r, &e)) {
        snprintf(why, cap, "%.300s", e.msg);
        return NULL;
    }
    if (r.limit) {                          /* the limit is the news, not the partial output */
        snprintf(why, cap, "%s", r.why);
        free(r.output);
        return NULL;
    }
    *status = r.status;
    return r.output;
}

/* ---- versions ----------------------------------------------------------------------------- */

/* "Cuda compilation tools, release 13.0, V13.0.88" -> "13.0.88"; ncu's "Version 2025.3.1.0". */
static void parse_version(const char *text, char *out, size_t cap)
{
    const char *r = strstr(text, "release "), *v;
    if (r && (v = strstr(r, ", V")) && !memchr(r, '\n', (size_t)(v - r))) v += 3;
    else if ((v = strstr(text, "Version "))) v += 8;
    else if (r) v = r + 8;
    else { snprintf(out, cap, "unknown"); return; }
    size_t n = strcspn(v, " ,\t\r\n");
    snprintf(out, cap, "%.*s", (int)(n ? n : 7), n ? v : "unknown");
}

void ws_tool_version_of(const char *path, char *out, size_t cap)
{
    static struct { char path[WS_PATH_MAX]; char version[64]; } seen[8];
    static int nseen;
    snprintf(out, cap, "unknown");
    struct stat st;
    if (!ws_tool_executable(path) || stat(path, &st)) return;
    for (int i = 0; i < nseen; i++)
        if (!strcmp(seen[i].path, path)) { snprintf(out, cap, "%s", seen[i].version); return; }
    char key[WS_PATH_MAX + 128], version[64] = "";
    snprintf(key, sizeof key, "path=%s\nid=%llu:%llu:%lld:%lld.%09ld\n", path, (unsigned long long)st.st_dev,
             (unsigned long long)st.st_ino, (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
    size_t n = 0;
    char *hit = ws_cache_get("version", key, &n);
    if (hit && n > 0 && n < sizeof version && !memchr(hit, '\n', n)) {
        snprintf(version, sizeof version, "%s", hit);
    } else {
        /* a folder of our own as TMPDIR: nvcc builds shell commands from it (docs/security.md) */
        char dir[] = "/tmp/warpscope-ver-XXXXXX";
        if (mkdtemp(dir)) {
            char *argv[] = {(char *)path, "--version", NULL};
            ws_child_limits lim = {.wall_s = 60, .cpu_s = WS_CHILD_NO_LIMIT, .mem_bytes = WS_CHILD_NO_MEM_LIMIT,
                                   .tmpdir = dir};
            int status;
            char why[320];
            char *text = ws_tool_run(argv, &lim, &status, why, sizeof why);
            if (text && status == 0) {
                parse_version(text, version, sizeof version);
                ws_cache_put("version", key, version, strlen(version));
            }
            free(text);
            rmdir(dir);
        }
    }
    free(hit);
    if (!version[0]) snprintf(version, sizeof version, "unknown");
    if (nseen < 8) {
        snprintf(seen[nseen].path, sizeof seen[nseen].path, "%s", path);
        snprintf(seen[nseen++].version, sizeof seen[0].version, "%s", version);
    }
    snprintf(out, cap, "%s", version);
}

int ws_tool_version(ws_tool t, char *out, size_t cap)
{
    char path[WS_PATH_MAX];
    if (ws_tool_find(t, path, sizeof path, NULL)) {
        if (cap) out[0] = 0;
        return -1;
    }
    memo_entry *m = &memo[t];
    if (!m->vdone) {
        ws_tool_version_of(path, m->version, sizeof m->version);
        m->vdone = true;
    }
    snprintf(out, cap, "%s", m->version);
    return 0;
}

/* ---- NVRTC -------------------------------------------------------------------------------- */

int ws_tool_nvrtc_candidates(char paths[][WS_PATH_MAX], int max)
{
    static const char *const names[] = {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"};
    const char *dirs[] = {NULL, getenv("CUDA_HOME"), "/usr/local/cuda"};
    int n = 0;
    for (int d = 0; d < 3; d++) {
        if (d && !(dirs[d] && *dirs[d])) continue;
        for (size_t i = 0; i < 3 && n < max; i++) {
            if (!d) snprintf(paths[n++], WS_PATH_MAX, "%s", names[i]);   /* the system loader's search */
            else snprintf(paths[n++], WS_PATH_MAX, "%.400s/lib64/%s", dirs[d], names[i]);
        }
    }
    return n;
}
