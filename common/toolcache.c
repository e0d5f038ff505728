/* toolcache.c - the on-disk store of tool products (see toolcache.h). An entry is one file,
 * <dir>/<kind>/<hash of key>, holding
 *   "warpscope-cache 2\n" "<key bytes> <data bytes> <hash of data>\n" key "\n" data
 * so a read can prove it holds this key (a hash collision is a miss) and these bytes: a file cut
 * short, grown or changed inside (a disk error, a hand edit) is a miss with a warning, never
 * trusted. An entry of the older format (no data hash) is a quiet miss, rewritten.
 * Expected load: a few entries per run, each a few KiB to a few MiB; no locking is needed
 * because rename() replaces an entry whole and two writers of one key write the same bytes. */
#include "toolcache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "warpscope-cache 2\n"
#define MAGIC_V "warpscope-cache "   /* any version: another one is not damage */

static bool named(const char *v) { return v && *v; }

/* The folder: $WARPSCOPE_CACHE (unless "off", or own is false), else $XDG_CACHE_HOME/warpscope, else
 * $HOME/.cache/warpscope, then "/" and sub when sub is not NULL. */
static bool folder_in(bool own, const char *sub, char *out, size_t cap)
{
    const char *c = own ? getenv("WARPSCOPE_CACHE") : NULL, *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    const char *s = sub ? "/" : "", *t = sub ? sub : "";
    int w;
    if (named(c) && strcmp(c, "off")) w = snprintf(out, cap, "%s%s%s", c, s, t);
    else if (named(x)) w = snprintf(out, cap, "%s/warpscope%s%s", x, s, t);
    else if (named(h)) w = snprintf(out, cap, "%s/.cache/warpscope%s%s", h, s, t);
    else return false;
    return w >= 0 && (size_t)w < cap;
}

static bool folder_of(const char *sub, char *out, size_t cap) { return folder_in(true, sub, out, cap); }

bool ws_cache_dir(char *out, size_t cap)
{
    const char *c = getenv("WARPSCOPE_CACHE");
    if (named(c) && !strcmp(c, "off")) return false;
    return folder_of(NULL, out, cap);
}

bool ws_cache_tools_dir(char *out, size_t cap) { return folder_of("nvdisasm", out, cap); }

bool ws_cache_default_tools_dir(char *out, size_t cap) { return folder_in(false, "nvdisasm", out, cap); }

void ws_cache_hash(const void *data, size_t len, char out[33])
{
    const unsigned char *p = data;
    uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull ^ len;
    for (size_t i = 0; i < len; i++) {
        a = (a ^ p[i]) * 0x100000001b3ull;        /* FNV-1a 64 */
        b = (b ^ p[i]) * 0x9e3779b97f4a7c15ull;   /* the same walk with another odd multiplier */
        b ^= b >> 29;
    }
    /* splitmix64's finaliser, so every input bit reaches every output bit */
    uint64_t h[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        uint64_t z = h[k] + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        h[k] = z ^ (z >> 31);
    }
    snprintf(out, 33, "%016llx%016llx", (unsigned long long)h[0], (unsigned long long)h[1]);
}

/* kind is one of ours: lower-case letters only, so it names a subfolder and nothing else */
static bool kind_ok(const char *kind)
{
    if (!named(kind) || strlen(kind) > 16) return false;
    for (const char *c = kind; *c; c++)
        if (*c < 'a' || *c > 'z') return false;
    return true;
}

static bool entry_path(const char *kind, const char *key, char *out, size_t cap, char *folder, size_t fcap)
{
    char dir[1024], hash[33];
    if (!kind_ok(kind) || !key || !ws_cache_dir(dir, sizeof dir)) return false;
    ws_cache_hash(key, strlen(key), hash);
    int w = snprintf(folder, fcap, "%s/%s", dir, kind);
    if (w < 0 || (size_t)w >= fcap) return false;
    w = snprintf(out, cap, "%s/%s", folder, hash);
    return w >= 0 && (size_t)w < cap;
}

char *ws_cache_get(const char *kind, const char *key, size_t *len)
{
    char path[1200], folder[1100];
    if (!entry_path(kind, key, path, sizeof path, folder, sizeof folder)) return NULL;
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);  /* a FIFO must not block us */
    if (fd < 0) return NULL;
    struct stat st;
    size_t klen = strlen(key);
    char *buf = NULL, *data = NULL;
    const char *bad = NULL;      /* why a file at the entry's name is not to be trusted; NULL = a plain miss */
    if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > (uint64_t)WS_CACHE_MAX_BYTES + klen + 128)
        goto done;
    if (st.st_size == 0) { bad = "empty"; goto done; }
    size_t n = (size_t)st.st_size, got = 0;
    if (!(buf = malloc(n + 1))) goto done;
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (got != n) goto done;
    buf[n] = 0;
    size_t ml = strlen(MAGIC);
    if (n < ml || memcmp(buf, MAGIC, ml)) {
        if (n < strlen(MAGIC_V) || memcmp(buf, MAGIC_V, strlen(MAGIC_V))) bad = "no cache header";
        goto done;
    }
    char *p = buf + ml, *end;
    errno = 0;
    unsigned long long kl = strtoull(p, &end, 10);
    if (end == p || *end != ' ') { bad = "unreadable header"; goto done; }
    if (kl != klen) goto done;               /* another key under this name: a hash collision */
    p = end + 1;
    unsigned long long dl = strtoull(p, &end, 10);
    if (end == p || *end != ' ' || errno || dl > WS_CACHE_MAX_BYTES || strspn(end + 1, "0123456789abcdef") != 32 ||
        end[33] != '\n') {
        bad = "unreadable header";
        goto done;
    }
    char want[33];
    memcpy(want, end + 1, 32);
    want[32] = 0;
    p = end + 34;
    size_t head = (size_t)(p - buf);
    if (head + klen + 1 > n) { bad = "cut short"; goto done; }
    if (memcmp(p, key, klen) || p[klen] != '\n') goto done;   /* another key of the same length and hash */
    if (head + klen + 1 + dl != n) { bad = "its length is not the one recorded (cut short or grown)"; goto done; }
    char got_hash[33];
    ws_cache_hash(p + klen + 1, (size_t)dl, got_hash);
    if (strcmp(got_hash, want)) { bad = "its bytes do not match their recorded hash"; goto done; }
    if (!(data = malloc((size_t)dl + 1))) goto done;
    memcpy(data, p + klen + 1, (size_t)dl);
    data[dl] = 0;
    if (len) *len = (size_t)dl;
done:
    if (bad) /* said once per entry read: the product is made again and the entry rewritten */
        fprintf(stderr, "warpscope: warning: cache entry %s is damaged (%s); ignored, made again\n", path, bad);
    free(buf);
    close(fd);
    return data;
}

/* mkdir -p, each new folder 0700 (the cache holds what the user compiled) */
static bool make_folders(const char *dir)
{
    char p[1100];
    snprintf(p, sizeof p, "%s", dir);
    for (char *s = p + 1; *s; s++) {
        if (*s != '/') continue;
        *s = 0;
        if (mkdir(p, 0700) && errno != EEXIST) return false;
        *s = '/';
    }
    if (mkdir(p, 0700) && errno != EEXIST) return false;
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        len -= (size_t)w;
    }
    return true;
}

int ws_cache_put(const char *kind, const char *key, const void *data, size_t len)
{
    char path[1200], folder[1100], tmp[1300], head[96], dhash[33];
    if (len > WS_CACHE_MAX_BYTES || !entry_path(kind, key, path, sizeof path, folder, sizeof folder) ||
        !make_folders(folder))
        return -1;
    snprintf(tmp, sizeof tmp, "%s/.tmp-XXXXXX", folder);
    int fd = mkstemp(tmp);
    if (fd < 0) return -1;
    size_t klen = strlen(key);
    ws_cache_hash(data, len, dhash);
    int hn = snprintf(head, sizeof head, "%zu %zu %s\n", klen, len, dhash);
    bool ok = write_all(fd, MAGIC, strlen(MAGIC)) && write_all(fd, head, (size_t)hn) && write_all(fd, key, klen) &&
              write_all(fd, "\n", 1) && write_all(fd, data, len);
    ok = close(fd) == 0 && ok;
    if (!ok || rename(tmp, path)) {   /* rename: a reader sees the old entry or the new, never half */
        unlink(tmp);
        return -1;
    }
    return 0;
}
