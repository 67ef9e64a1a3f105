/* SHA-256 (FIPS 180-4) for paddock-hook-claude: a static program cannot afford to load libcrypto at every start
 * (about 7 ms here), and needs nothing else from it. Checked against the NIST vectors and the JDK's
 * MessageDigest in NativeHookTest. */
#ifndef PADDOCK_SHA256_H
#define PADDOCK_SHA256_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];
    uint64_t bits;
    uint8_t block[64];
    size_t used;
} sha256_ctx;

void sha256_init(sha256_ctx *c);
void sha256_update(sha256_ctx *c, const uint8_t *data, size_t n);
void sha256_final(sha256_ctx *c, uint8_t out[32]);
#endif
