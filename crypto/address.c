#include "crypto/address.h"

#include <string.h>

#include "crypto/bytes.h"

int zbc_addr_payload_len(uint32_t type, size_t *len)
{
    /* docs/crypto.md §2 */
    static const int8_t lens[] = {
        32, /* 0 ZooBC */
        20, /* 1 Bitcoin legacy */
        0,  /* 2 empty */
        32, /* 3 Estonia eID */
        20, /* 4 Ethereum */
        20, /* 5 Bitcoin P2PKH */
        20, /* 6 Bitcoin P2SH */
        20, /* 7 Bitcoin P2WPKH */
        32, /* 8 Bitcoin P2WSH */
        32, /* 9 Bitcoin Taproot */
        32, /* 10 DataSet object */
        32, /* 11 Solana */
        32, /* 12 Polkadot */
        28, /* 13 Cardano */
        20, /* 14 Ripple */
        20, /* 15 Tron */
        20, /* 16 Tezos */
    };
    if (type >= sizeof lens / sizeof lens[0])
        return 0;
    *len = (size_t)lens[type];
    return 1;
}

bool zbc_addr_type_supported(uint32_t type)
{
    return type == ZBC_ACCT_ZBC || type == ZBC_ACCT_BTC_LEGACY ||
           type == ZBC_ACCT_ETH || type == ZBC_ACCT_BTC_P2PKH;
}

int zbc_addr_read(struct zbc_addr *a, const uint8_t *buf, size_t len,
                  size_t *used, struct zbc_err *err)
{
    size_t plen;
    if (len < 4)
        return zbc_fail(err, "truncated account address (need 4 type bytes, have %zu)", len);
    uint32_t type = zbc_get_le32(buf);
    if (!zbc_addr_payload_len(type, &plen))
        return zbc_fail(err, "unknown account type %u", type);
    if (len - 4 < plen)
        return zbc_fail(err, "truncated account address of type %u (need %zu payload bytes, have %zu)",
                        type, plen, len - 4);
    memset(a, 0, sizeof *a);
    a->type = type;
    a->len = (uint8_t)plen;
    memcpy(a->payload, buf + 4, plen);
    *used = 4 + plen;
    return 1;
}

size_t zbc_addr_write(uint8_t *out, const struct zbc_addr *a)
{
    zbc_put_le32(out, a->type);
    memcpy(out + 4, a->payload, a->len);
    return 4 + (size_t)a->len;
}

bool zbc_addr_equal(const struct zbc_addr *a, const struct zbc_addr *b)
{
    return a->type == b->type && a->len == b->len &&
           memcmp(a->payload, b->payload, a->len) == 0;
}

void zbc_addr_empty(struct zbc_addr *a)
{
    memset(a, 0, sizeof *a);
    a->type = ZBC_ACCT_EMPTY;
}

void zbc_addr_from_ed25519(struct zbc_addr *a, const uint8_t pk[32])
{
    memset(a, 0, sizeof *a);
    a->type = ZBC_ACCT_ZBC;
    a->len = 32;
    memcpy(a->payload, pk, 32);
}
