/* cu_ptx.c - finds the PTX text for a description file (see cu_ptx.h).
 * The freshness rule is catalog.h's: <file without .cu>.ptx whose
 * "// warpscope-source-hash:" header equals ws_source_hash of the source. */
#include "cu_ptx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/catalog.h"
#include "../common/files.h"
#include "../common/ptxgen.h"

int cu_ptx_target_sm(const char *text)
{
    for (const char *p = strstr(text, ".target"); p; p = strstr(p + 1, ".target")) {
        if (p != text && p[-1] != '\n' && p[-1] != ' ' && p[-1] != '\t') continue;
        const char *q = p + strlen(".target");
        while (*q == ' ' || *q == '\t') q++;
        if (!strncmp(q, "sm_", 3)) return atoi(q + 3);
    }
    return 0;
}

bool cu_ptx_hash_matches(const char *text, unsigned long long hash)
{
    const char *key = "// warpscope-source-hash:";
    if (strncmp(text, key, strlen(key))) return false;
    const char *p = text + strlen(key);
    while (*p == ' ') p++;
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(p, &end, 16);
    return end != p && !errno && v == hash;
}

char *cu_ptx_text(const ws_desc_file *f, int cc_major, int cc_minor, char *how, size_t how_cap,
                  ws_error *err)
{
    int dev_sm = cc_major * 10 + cc_minor;
    char ptx_path[WS_PATH_MAX + 8];
    snprintf(ptx_path, sizeof ptx_path, "%s", f->path);
    size_t len = strlen(ptx_path);
    if (len > 3 && !strcmp(ptx_path + len - 3, ".cu")) ptx_path[len - 3] = 0;
    strncat(ptx_path, ".ptx", sizeof ptx_path - strlen(ptx_path) - 1);

    char *text = ws_read_file(ptx_path, 0, NULL, NULL);
    if (text) {
        unsigned long long h = ws_source_hash(f->source, f->source_len);
        int sm = cu_ptx_target_sm(text);
        if (cu_ptx_hash_matches(text, h) && (dev_sm == 0 || (sm > 0 && sm <= dev_sm))) {
            snprintf(how, how_cap, "checked-in %s (.target sm_%d)", ptx_path, sm);
            return text;
        }
        free(text);
    }
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", dev_sm ? dev_sm : 90);
    const char *tool = NULL;
    text = ws_ptxgen_compile(f->path, f->source, f->source_len, arch, &tool, err);
    if (!text) return NULL;
    snprintf(how, how_cap, "compiled with %s for %s", tool ? tool : "?", arch);
    return text;
}
