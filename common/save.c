/* save.c - buffers to .npy files and a manifest (see save.h). The digest is computed from the
 * bytes as they are written, so it is the file's own and not a second reading of it. */
#include "save.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "buffers.h"
#include "cli.h"
#include "commands.h"
#include "npy.h"
#include "outfile.h"
#include "sha256.h"
#include "text.h"

int ws_save_mkdir(const char *dir, ws_error *err)
{
    char path[WS_PATH_MAX];
    if (!dir || !*dir || strlen(dir) >= sizeof path - 1) {
        ws_error_set(err, "<command line>", 0, 0, "--save needs a folder name (of fewer than %d bytes)", WS_PATH_MAX);
        return -1;
    }
    snprintf(path, sizeof path, "%s", dir);
    /* each prefix ending before a '/', then the whole path: mkdir -p */
    for (char *p = path + 1;; p++) {
        if (*p != '/' && *p) continue;
        char keep = *p;
        *p = 0;
        struct stat st;
        if (stat(path, &st) == 0) {
            if (!S_ISDIR(st.st_mode)) {
                ws_error_set(err, path, 0, 0, "cannot save into %s: %s is a file, not a folder", dir, path);
                return -1;
            }
        } else if (mkdir(path, 0777) != 0 && errno != EEXIST) {
            ws_error_set(err, path, 0, 0, "cannot create the folder %s: %s", path, strerror(errno));
            return -1;
        }
        *p = keep;
        if (!keep) return 0;
    }
}

static bool is_identifier(const char *s)
{
    if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_')) return false;
    for (; *s; s++)
        if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
            return false;
    return true;
}

static bool write_all(int fd, const void *data, uint64_t n)
{
    const char *p = data;
    while (n) {
        size_t chunk = n > (1u << 30) ? (1u << 30) : (size_t)n;
        ssize_t w = write(fd, p, chunk);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= (uint64_t)w;
    }
    return true;
}

int ws_save_npy(const char *path, const char *descr, const uint64_t *shape, int ndim, const void *data, uint64_t bytes,
                char sha256[65])
{
    char head[4096];
    size_t hl = ws_npy_format_header(descr, shape, ndim, head, sizeof head);
    if (!hl) {
        errno = EINVAL;
        return -1;
    }
    ws_outfile o;
    if (ws_outfile_open(&o, path) < 0) return -1;
    bool ok = write_all(o.fd, head, hl) && write_all(o.fd, data, bytes);
    if (ws_outfile_commit(&o, ok)) {
        if (!errno) errno = EIO;
        return -1;
    }
    if (sha256) {
        ws_sha256 s;
        ws_sha256_init(&s);
        ws_sha256_update(&s, head, hl);
        ws_sha256_update(&s, data, (size_t)bytes);
        ws_sha256_hex(&s, sha256);
    }
    return 0;
}

/* One buffer's file and its manifest entry. */
static int save_one(const char *dir, const ws_buffer *b, const void *data, bool input, cJSON *list, ws_error *err)
{
    char file[WS_NAME_MAX + 16], path[WS_PATH_MAX + WS_NAME_MAX + 32], sha[65];
    snprintf(file, sizeof file, "%s%s.npy", b->name, input ? ".in" : "");
    snprintf(path, sizeof path, "%s/%s", dir, file);
    ws_type s = ws_type_scalar(b->type);
    const char *descr = ws_npy_descr(s);
    uint64_t shape[2];
    int ndim = ws_npy_buffer_shape(b, shape);
    if (!descr || ws_save_npy(path, descr, shape, ndim, data, b->bytes, sha)) {
        ws_error_set(err, path, 0, 0, "cannot write %s: %s", path, descr ? strerror(errno) : "no .npy dtype for the type");
        return WS_EXIT_USAGE;
    }
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", b->name);
    cJSON_AddStringToObject(e, "file", file);
    cJSON_AddStringToObject(e, "role", input ? "input" : "output");
    cJSON_AddStringToObject(e, "type", ws_type_name(b->type));
    cJSON_AddStringToObject(e, "dtype", descr);
    if (s == WS_TYPE_BF16) cJSON_AddStringToObject(e, "note", "bfloat16 as its raw bits (NumPy has no bfloat16)");
    cJSON *sh = cJSON_AddArrayToObject(e, "shape");
    for (int i = 0; i < ndim; i++) cJSON_AddItemToArray(sh, cJSON_CreateNumber((double)shape[i]));
    cJSON_AddNumberToObject(e, "bytes", (double)b->bytes);
    if (sha[0]) cJSON_AddStringToObject(e, "sha256", sha);  /* none without libcrypto */
    cJSON_AddItemToArray(list, e);
    return WS_EXIT_OK;
}

static cJSON *dims(const uint32_t v[3])
{
    return cJSON_CreateIntArray((const int[]){(int)v[0], (int)v[1], (int)v[2]}, 3);
}

static int write_manifest(const char *dir, cJSON *root, ws_error *err)
{
    char path[WS_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/manifest.json", dir);
    char *text = ws_json_print(root);
    if (!text) {
        ws_error_set(err, path, 0, 0, "out of memory writing %s", path);
        return WS_EXIT_INTERNAL;
    }
    ws_outfile o;
    FILE *f = ws_outfile_fopen(&o, path);
    int rc = WS_EXIT_OK;
    if (!f) {
        rc = WS_EXIT_USAGE;
    } else {
        bool ok = fputs(text, f) >= 0 && fputc('\n', f) != EOF;
        int close_rc = fclose(f);
        if (ws_outfile_commit_closed(&o, ok ? close_rc : EOF)) rc = WS_EXIT_USAGE;
    }
    if (rc) ws_error_set(err, path, 0, 0, "cannot write %s: %s", path, strerror(errno));
    free(text);
    return rc;
}

int ws_save_buffers(const char *dir, const ws_launch *L, void *const *final, const ws_save_opts *o, int *written,
                    ws_error *err)
{
    int n = 0, rc = WS_EXIT_OK;
    if (written) *written = 0;
    for (int i = 0; i < L->nbuffers; i++)
        if (!is_identifier(L->buffers[i].name)) {
            ws_error_set(err, L->desc && L->desc->file ? L->desc->file : dir, L->desc ? L->desc->line : 0, 0,
                         "cannot save buffer '%.60s': its name is not a C identifier", L->buffers[i].name);
            return WS_EXIT_USAGE;
        }
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "tool", "warpscope");
    cJSON_AddStringToObject(root, "version", ws_cli_version());
    cJSON_AddStringToObject(root, "computed_by", o->computed_by);
    cJSON_AddStringToObject(root, "kernel", L->desc ? L->desc->name : "");
    if (o->entry) cJSON_AddStringToObject(root, "entry", o->entry);
    cJSON_AddStringToObject(root, "file", L->desc && L->desc->file ? L->desc->file : "");
    cJSON_AddStringToObject(root, "defines", o->overrides ? o->overrides : "");
    cJSON *params = cJSON_AddObjectToObject(root, "params");
    for (int i = 0; i < L->nparams; i++) cJSON_AddNumberToObject(params, L->param_names[i], (double)L->param_values[i]);
    cJSON_AddItemToObject(root, "grid", dims(L->grid));
    cJSON_AddItemToObject(root, "block", dims(L->block));
    cJSON_AddNumberToObject(root, "shared_bytes", (double)L->shared_bytes);
    cJSON *list = cJSON_AddArrayToObject(root, "buffers");
    for (int i = 0; i < L->nbuffers && !rc; i++) {
        const ws_buffer *b = &L->buffers[i];
        /* the initial contents, made again: the same for sim and GPU (an init=tmap buffer's map
           holds a device address, so neither side's bytes are an input to compare) */
        if (o->inputs && !b->uninit && b->init != WS_INIT_TMAP) {
            void *init = malloc(b->bytes ? b->bytes : 1);
            if (!init) {
                ws_error_set(err, dir, 0, 0, "out of memory saving buffer '%s' (%" PRIu64 " bytes)", b->name, b->bytes);
                rc = WS_EXIT_INTERNAL;
                break;
            }
            if (ws_buffer_fill_checked(b, init, err)) rc = WS_EXIT_USAGE;
            else if (!(rc = save_one(dir, b, init, true, list, err))) n++;
            free(init);
        }
        if (!rc && b->output && !(rc = save_one(dir, b, final[i], false, list, err))) n++;
    }
    if (!rc) rc = write_manifest(dir, root, err);
    cJSON_Delete(root);
    if (written) *written = n;
    return rc;
}
