/* Keccak-256 as Ethereum uses it: the Keccak submission's padding (domain
 * byte 0x01), not FIPS 202 SHA3-256's (0x06), so keccak256("") is
 * c5d24601…a470 while SHA3-256("") is a7ffc6f8…434a.  OpenSSL 3.0 offers
 * only the FIPS variants, hence this small implementation. */
#ifndef ZBC_KECCAK_H
#define ZBC_KECCAK_H

#include <stddef.h>
#include <stdint.h>

void zbc_keccak256(uint8_t out[32], const void *data, size_t len);

#endif
