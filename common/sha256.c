/* sha256.c - SHA-256 through libcrypto's EVP interface (see sha256.h). */
#include "sha256.h"

#include <stdio.h>

#ifdef WS_HAVE_CRYPTO
#include <openssl/evp.h>

bool ws_sha256_available(void) { return true; }

void ws_sha256_init(ws_sha256 *s)
{
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (c && EVP_DigestInit_ex(c, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(c);
        c = NULL;
    }
    s->ctx = c;
}

void ws_sha256_update(ws_sha256 *s, const void *data, size_t n)
{
    if (s->ctx && n && EVP_DigestUpdate(s->ctx, data, n) != 1) {
        EVP_MD_CTX_free(s->ctx);
        s->ctx = NULL;
    }
}

bool ws_sha256_hex(ws_sha256 *s, char hex[65])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    bool ok = s->ctx && EVP_DigestFinal_ex(s->ctx, md, &len) == 1 && len == 32;
    EVP_MD_CTX_free(s->ctx);
    s->ctx = NULL;
    hex[0] = 0;
    if (ok)
        for (unsigned i = 0; i < 32; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    return ok;
}

#else

bool ws_sha256_available(void) { return false; }
void ws_sha256_init(ws_sha256 *s) { s->ctx = NULL; }
void ws_sha256_update(ws_sha256 *s, const void *data, size_t n) { (void)s; (void)data; (void)n; }
bool ws_sha256_hex(ws_sha256 *s, char hex[65])
{
    (void)s;
    hex[0] = 0;
    return false;
}

#endif
