/* Typed account addresses (docs/crypto.md §2-§3).
 *
 * On the wire an address is a 4-byte LE account type then a payload whose
 * length the type fixes.  Every ZooBC type parses (so any ZooBC envelope
 * hashes right); which types may act on this chain is a consensus rule,
 * not a parsing one (zbc_addr_type_supported). */
#ifndef ZBC_ADDRESS_H
#define ZBC_ADDRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "crypto/err.h"

enum zbc_acct_type {
    ZBC_ACCT_ZBC = 0,
    ZBC_ACCT_BTC_LEGACY = 1,
    ZBC_ACCT_EMPTY = 2,
    ZBC_ACCT_ETH = 4,
    ZBC_ACCT_BTC_P2PKH = 5,
};

#define ZBC_ADDR_PAYLOAD_MAX 32
#define ZBC_ADDR_BYTES_MAX (4 + ZBC_ADDR_PAYLOAD_MAX)
/* "ZBC_" + 7 groups of 8 + 6 separators + NUL */
#define ZBC_ADDR_TEXT_MAX 80

struct zbc_addr {
    uint32_t type;
    uint8_t len; /* payload length, fixed by type */
    uint8_t payload[ZBC_ADDR_PAYLOAD_MAX];
};

/* Payload length of a ZooBC account type; 0 when the type is unknown
 * (type 2, "empty", has length 0 and is known: use the return flag). */
ZBC_WUR int zbc_addr_payload_len(uint32_t type, size_t *len);

/* Types that may send, receive or hold a balance here: 0, 1, 4, 5. */
bool zbc_addr_type_supported(uint32_t type);

/* Reads one typed address from buf.  *used gets the bytes consumed. */
ZBC_WUR int zbc_addr_read(struct zbc_addr *a, const uint8_t *buf, size_t len,
                          size_t *used, struct zbc_err *err);

/* Writes 4 + payload bytes; returns the count. out needs ZBC_ADDR_BYTES_MAX. */
size_t zbc_addr_write(uint8_t *out, const struct zbc_addr *a);

bool zbc_addr_equal(const struct zbc_addr *a, const struct zbc_addr *b);
void zbc_addr_empty(struct zbc_addr *a);
void zbc_addr_from_ed25519(struct zbc_addr *a, const uint8_t pk[32]);

/* ---- text forms (implemented in address_text.c) ---- */

/* "ZBC_…" / "ZNK_…" from a 32-byte key; prefix is 3 ASCII letters.
 * out needs ZBC_ADDR_TEXT_MAX. */
void zbc_addr_zbc_text(char *out, const uint8_t pk[32], const char *prefix);

/* Decodes a ZBC_/ZNK_ form (ignoring '_', '-', whitespace and case),
 * verifying the checksum against the prefix found. prefix_out (4 bytes)
 * may be NULL. */
ZBC_WUR int zbc_addr_zbc_parse(uint8_t pk[32], char *prefix_out,
                               const char *text, struct zbc_err *err);

/* Parses any text form this chain supports: ZBC_/ZNK_ (type 0), 64 hex
 * (type 0 key), 72/48 hex typed bytes, base58check "1…" (type 5; the
 * legacy type 1 is accepted only as typed hex), "0x"+40 hex (type 4,
 * EIP-55 checked when mixed case). */
ZBC_WUR int zbc_addr_parse_text(struct zbc_addr *a, const char *text,
                                struct zbc_err *err);

/* Canonical text: ZBC_ form, base58check, or 0x EIP-55. */
void zbc_addr_to_text(char *out, const struct zbc_addr *a);

#endif
