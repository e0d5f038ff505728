/* resources.c - the ptxas resource report beside a .cu, or an estimate from the PTX
 * (see resources.h). Invariant: a line is used only when its first word is exactly the
 * entry's name and it carries at least "regs=": a partial line is not a report. */
#include "resources.h"

#include "../../common/toolcache.h"
#include "../../common/toolkit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ws_resources_read(const char *cu_path, const char *entry, ws_resources *r)
{
    char path[WS_PATH_MAX];
    size_t n = strlen(cu_path);
    if (n < 3 || strcmp(cu_path + n - 3, ".cu") != 0 || n + 8 >= sizeof path)
        return -1;
    snprintf(path, sizeof path, "%.*s.resources", (int)(n - 3), cu_path);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char line[1024], arch[16] = "";
    int found = -1;
    while (found && fgets(line, sizeof line, f)) {
        char name[512];
        int regs = -1;
        unsigned long shared = 0, local = 0;
        char ver[64], a[16];                     /* `make ptx` heads the file "# ptxas 13.0.88 sm_90" */
        if (!arch[0] && sscanf(line, "# ptxas %63s %15s", ver, a) == 2 && !strncmp(a, "sm_", 3))
            snprintf(arch, sizeof arch, "%s", a);
        if (line[0] == '#' || sscanf(line, "%511s regs=%d shared=%lu local=%lu", name, &regs, &shared, &local) < 2)
            continue;
        if (strcmp(name, entry) != 0)
            continue;
        r->regs = regs;
        r->static_smem = (uint32_t)shared;
        r->local_bytes = local;
        r->from_ptxas = true;
        snprintf(r->arch, sizeof r->arch, "%s", arch);
        snprintf(r->source, sizeof r->source, "ptxas, %s", path);
        found = 0;
    }
    fclose(f);
    return found;
}

/* ptxas -v's report of entry: "Compiling entry function 'E' for 'sm_90'", then "N bytes stack
 * frame, ...", then "Used R registers, ..., S bytes smem, ...". Returns 0 and fills r, or -1. */
static int parse_report(const char *text, const char *entry, ws_resources *r)
{
    char cur[512] = "";
    unsigned long stack = 0;
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *q, *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        char buf[1024];
        snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
        if ((q = strstr(buf, "Compiling entry function '")) != NULL) {
            q += strlen("Compiling entry function '");
            size_t n = strcspn(q, "'");
            snprintf(cur, sizeof cur, "%.*s", (int)(n < sizeof cur ? n : sizeof cur - 1), q);
            stack = 0;
        } else if (strcmp(cur, entry) != 0) {
            continue;
        } else if (strstr(buf, "bytes stack frame")) {
            sscanf(buf, " %lu bytes stack frame", &stack);
        } else if ((q = strstr(buf, "Used ")) != NULL) {
            int regs;
            if (sscanf(q, "Used %d registers", &regs) != 1) continue;
            unsigned long smem = 0;
            const char *sm = strstr(q, " bytes smem");
            if (sm) { /* walk back to the number before " bytes smem" */
                const char *b = sm;
                while (b > q && b[-1] >= '0' && b[-1] <= '9') b--;
                smem = strtoul(b, NULL, 10);
            }
            r->regs = regs;
            r->static_smem = (uint32_t)smem;
            r->local_bytes = stack;
            return 0;
        }
    }
    return -1;
}

/* Fills r from a ptxas -v report text for entry. */
static int take_report(const char *text, const char *arch, const char *entry, const char *ptxas, bool cached,
                       ws_resources *r)
{
    if (parse_report(text, entry, r)) return -1;
    r->from_ptxas = true;
    snprintf(r->arch, sizeof r->arch, "%s", arch);
    snprintf(r->source, sizeof r->source, "ptxas -arch=%s, %s on the PTX (%s)", arch,
             cached ? "run before (cached)" : "run now", ptxas);
    return 0;
}

int ws_resources_ptxas(const char *ptx_text, const char *arch, const char *entry, const ws_child_limits *lim,
                       ws_resources *r)
{
    char ptxas[WS_PATH_MAX];
    if (!ptx_text || !arch || !entry || ws_tool_find(WS_TOOL_PTXAS, ptxas, sizeof ptxas, NULL)) return -1;
    for (const char *c = arch; *c; c++) /* sm_NN only: it becomes an option */
        if (!(*c == '_' || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9'))) return -1;
    /* the report depends on the PTX bytes, this ptxas (path, version), arch and entry */
    char hash[33], ver[64];
    size_t len = strlen(ptx_text);
    ws_cache_hash(ptx_text, len, hash);
    ws_tool_version(WS_TOOL_PTXAS, ver, sizeof ver);
    size_t klen = strlen(ptxas) + strlen(entry) + 200;
    char *key = malloc(klen);
    if (!key) return -1;
    snprintf(key, klen, "ptxas=%s %s\noptions=-arch=%s -v -e %s\nptx=%s:%zu\n", ptxas, ver, arch, entry, hash, len);
    char *hit = ws_cache_get("resources", key, NULL);
    int found = hit ? take_report(hit, arch, entry, ptxas, true, r) : -1;
    free(hit);
    if (!found) {
        free(key);
        return 0;
    }
    char tmp[] = "/tmp/warpscope-resources-XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(key);
        return -1;
    }
    bool ok = write(fd, ptx_text, len) == (ssize_t)len;
    close(fd);
    char archopt[40];
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    /* -e: code for this entry only; a file of 2000 kernels took ptxas 35 s for all of them */
    char *argv[] = {ptxas, archopt, "-v", "-e", (char *)entry, "-o", "/dev/null", tmp, NULL};
    ws_child_result cr;
    ws_error err;
    if (ok && ws_child_run(argv, lim, &cr, &err) == 0) {
        if (cr.status == 0 && !cr.limit && take_report(cr.output, arch, entry, ptxas, false, r) == 0) {
            ws_cache_put("resources", key, cr.output, strlen(cr.output));
            found = 0;
        } else if (cr.limit) {                   /* say which limit stopped it; the estimate follows */
            snprintf(r->source, sizeof r->source, "%s", cr.why);
        }
        free(cr.output);
    }
    unlink(tmp);
    free(key);
    return found;
}

void ws_resources_of(const char *cu_path, const ptx_function *fn, const char *ptx_text, const char *arch,
                     ws_resources *r)
{
    ws_resources file;
    bool have_file = ws_resources_read(cu_path, fn->name, &file) == 0;
    /* a report made for another target is not this one's: sm_75 allocates registers differently */
    if (have_file && (!arch || !file.arch[0] || !strcmp(file.arch, arch))) {
        *r = file;
        return;
    }
    size_t n = strlen(cu_path);
    if (arch && n > 3 && n < WS_PATH_MAX - 24 && !strcmp(cu_path + n - 3, ".cu") && strlen(arch) < 16) {
        char tpath[WS_PATH_MAX + 24];            /* `make ptx`'s report for a description's target: x.sm_90a.resources */
        snprintf(tpath, sizeof tpath, "%.*s.%.15s.cu", (int)(n - 3), cu_path, arch);
        ws_resources tf;
        if (ws_resources_read(tpath, fn->name, &tf) == 0 && !strcmp(tf.arch, arch)) {
            *r = tf;
            return;
        }
    }
    r->source[0] = 0;
    if (ws_resources_ptxas(ptx_text, arch, fn->name, NULL, r) == 0)
        return;
    char why[sizeof r->source];
    snprintf(why, sizeof why, "%s", r->source);  /* a limit that stopped ptxas, or "" */
    if (have_file) {
        *r = file;
        snprintf(r->source, sizeof r->source, "ptxas for %s, %.200s, used for %s as an approximation: ptxas -arch=%s "
                 "could not run on this PTX%s%.100s", file.arch, file.source + strlen("ptxas, "), arch, arch,
                 why[0] ? ": " : "", why);
        return;
    }
    r->arch[0] = 0;
    r->regs = WS_ESTIMATED_REGS;
    r->static_smem = (uint32_t)fn->static_shared_bytes;
    r->local_bytes = fn->local_bytes;
    r->from_ptxas = false;
    if (why[0])
        snprintf(r->source, sizeof r->source, "estimate: no ptxas report for %.100s (%.200s); %d assumed", fn->name, why,
                 WS_ESTIMATED_REGS);
    else
        snprintf(r->source, sizeof r->source, "estimate: no ptxas report for %.100s; %d assumed", fn->name,
                 WS_ESTIMATED_REGS);
}
