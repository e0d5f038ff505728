/* sha256.h - SHA-256 of a saved file (common/save.h), through OpenSSL's libcrypto where the build
 * has it (libssl-dev; scripts/deps.sh installs it): `sha256sum out.npy` and Python's
 * hashlib.sha256 give the same 64 hex digits. A build without libcrypto (the lent GPU machine has
 * no headers) has no digest: ws_sha256_available() says so and the manifest leaves the field out.
 * Invariant: feeding the bytes in any split gives the digest of their concatenation. */
#ifndef WS_SHA256_H
#define WS_SHA256_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    void *ctx;                 /* libcrypto's EVP_MD_CTX; NULL without libcrypto or on failure */
} ws_sha256;

bool ws_sha256_available(void);
void ws_sha256_init(ws_sha256 *s);
void ws_sha256_update(ws_sha256 *s, const void *data, size_t n);
/* Ends the message and frees the context; hex gets the digest as 64 lowercase hex digits and a
 * NUL, or "" where no digest could be made. Returns whether it made one. */
bool ws_sha256_hex(ws_sha256 *s, char hex[65]);

#endif
