/* sha256.h - SHA-256 (FIPS 180-4), written here from the standard, so that a saved file's
 * checksum (common/save.h) needs no library the build might lack: `sha256sum out.npy` and
 * Python's hashlib.sha256 give the same 64 hex digits.
 * Invariant: feeding the bytes in any split gives the digest of their concatenation. */
#ifndef WS_SHA256_H
#define WS_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];             /* the chaining value */
    uint64_t bytes;            /* bytes fed so far */
    uint8_t block[64];         /* the partial block */
    size_t used;               /* bytes in block, 0..63 */
} ws_sha256;

void ws_sha256_init(ws_sha256 *s);
void ws_sha256_update(ws_sha256 *s, const void *data, size_t n);
/* Ends the message; hex gets the digest as 64 lowercase hex digits and a NUL. */
void ws_sha256_hex(ws_sha256 *s, char hex[65]);

#endif
