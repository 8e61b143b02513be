/* The wallet directory: --wallet DIR, else ZBC_WALLET, else ~/.zbc.
 *
 *   DIR/                 mode 0700
 *   DIR/keys/NAME.key    one key, encrypted with crypto/keyfile.h
 *                        (Argon2id + secretbox), mode 0600
 *   DIR/keys/NAME.pub    its public key, 64 hex and a newline (so `key list`
 *                        needs no passphrase), mode 0600
 *
 * Names are 1-64 characters of [A-Za-z0-9._-], not starting with '.'. */
#ifndef ZBC_WALLET_KEYSTORE_H
#define ZBC_WALLET_KEYSTORE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "node/client/fail.h"
#include "node/wallet/opts.h"

#define ZBC_KEY_NAME_MAX 64
#define ZBC_WALLET_PATH_MAX 4096

ZBC_WUR int zbc_keystore_dir(char out[ZBC_WALLET_PATH_MAX], const struct zbc_opts *o,
                             struct zbc_wfail *f);

/* Encrypts seed under the passphrase into NAME.key (refuses to overwrite);
 * path gets the key file's path. */
ZBC_WUR int zbc_keystore_save(const struct zbc_opts *o, const char *name,
                              const uint8_t seed[32], const char *passphrase,
                              char path[ZBC_WALLET_PATH_MAX], struct zbc_wfail *f);

/* Reads NAME.key and decrypts it with the passphrase (asked as
 * passphrase.h says).  name NULL: the only key, or the key named
 * "default". */
ZBC_WUR int zbc_keystore_load(const struct zbc_opts *o, const char *name,
                              uint8_t seed[32], struct zbc_wfail *f);

/* The public key of NAME (no passphrase needed); name NULL as above.
 * name_out (ZBC_KEY_NAME_MAX + 1) gets the resolved name. */
ZBC_WUR int zbc_keystore_pubkey(const struct zbc_opts *o, const char *name,
                                uint8_t pk[32], char *name_out, struct zbc_wfail *f);

/* Every key: [{name, address, public_key, file}], sorted by name. */
ZBC_WUR int zbc_keystore_list(const struct zbc_opts *o, json_t **arr, struct zbc_wfail *f);

#endif
