#include "crypto/msg.h"

#include <sodium.h>
#include <string.h>

#include "crypto/address.h"
#include "crypto/hash.h"
#include "crypto/hex.h"
#include "crypto/sig.h"

void zbc_msg_digest(uint8_t out[32], const uint8_t *msg, size_t len)
{
    struct zbc_sha3 h;
    zbc_sha3_init(&h);
    zbc_sha3_update(&h, ZBC_MSG_TAG, sizeof ZBC_MSG_TAG - 1);
    zbc_sha3_update(&h, msg, len);
    zbc_sha3_final(&h, out);
}

void zbc_msg_sign(uint8_t sig[64], const uint8_t seed[32], const uint8_t *msg,
                  size_t len)
{
    uint8_t pk[32], sk[64], digest[32];
    zbc_ed25519_keypair(pk, sk, seed);
    zbc_msg_digest(digest, msg, len);
    zbc_ed25519_sign(sig, sk, digest, sizeof digest);
    sodium_memzero(sk, sizeof sk);
}

int zbc_msg_verify(const uint8_t pk[32], const uint8_t *msg, size_t len,
                   const uint8_t *sig, size_t sig_len, struct zbc_err *err)
{
    if (sig_len != ZBC_ED25519_SIG_LEN)
        return zbc_fail(err, "message signature must be 64 bytes, got %zu", sig_len);
    uint8_t digest[32];
    zbc_msg_digest(digest, msg, len);
    if (!zbc_ed25519_verify(sig, pk, digest, sizeof digest))
        return zbc_fail(err, "message signature does not verify for this address");
    return 1;
}

int zbc_msg_verify_text(const char *address, const uint8_t *msg, size_t len,
                        const char *sig_hex, int *bad_input,
                        struct zbc_err *err)
{
    int dummy;
    if (bad_input == NULL)
        bad_input = &dummy;
    *bad_input = 1;
    struct zbc_addr a;
    if (!zbc_addr_parse_text(&a, address, err))
        return zbc_fail_prefix(err, "signer address");
    if (a.type != ZBC_ACCT_ZBC)
        return zbc_fail(err, "message signatures are made by ZBC accounts; the signer address is of account type %u",
                        a.type);
    uint8_t sig[ZBC_ED25519_SIG_LEN];
    size_t hexlen = strlen(sig_hex);
    if (hexlen != 2 * ZBC_ED25519_SIG_LEN)
        return zbc_fail(err, "message signature must be 128 hex characters, got %zu", hexlen);
    if (!zbc_hex_decode_exact(sig, sizeof sig, sig_hex))
        return zbc_fail(err, "message signature is not hex");
    *bad_input = 0;
    return zbc_msg_verify(a.payload, msg, len, sig, sizeof sig, err);
}
