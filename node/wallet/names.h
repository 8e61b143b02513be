/* Names for accounts (docs/wallet.md "Names"): wherever zbc takes an
 * address (send's recipient, --opponent, balance, history, --player) the
 * name of a key in the wallet directory works too, and output shows the
 * wallet's names next to the addresses it knows. */
#ifndef ZBC_WALLET_NAMES_H
#define ZBC_WALLET_NAMES_H

#include <stddef.h>

#include "crypto/address.h"
#include "node/client/fail.h"
#include "node/wallet/keystore.h"
#include "node/wallet/opts.h"

/* arg is an address (any text form zbc_addr_parse_text reads) or a key
 * name.  An address that is also the name of a key holding another
 * account is ambiguous; a word that is neither gets "unknown name"
 * (with the closest key name as a suggestion).  Both are usage errors
 * naming `what` (e.g. "recipient", "--opponent").  name_out
 * (ZBC_KEY_NAME_MAX + 1, may be NULL) gets the key name, or "" for an
 * address. */
ZBC_WUR int zbc_name_resolve(struct zbc_addr *a, char *name_out,
                             const struct zbc_opts *o, const char *arg,
                             const char *what, struct zbc_wfail *f);

/* The wallet's keys by address, for printing players and histories. */
struct zbc_name_entry {
    char name[ZBC_KEY_NAME_MAX + 1];
    char addr[ZBC_ADDR_TEXT_MAX];
};
struct zbc_names {
    size_t n;
    struct zbc_name_entry *e;
};

/* Reads the wallet's public keys (no passphrase).  Never fails: a wallet
 * that cannot be read gives an empty table. */
void zbc_names_load(struct zbc_names *nm, const struct zbc_opts *o);
/* The key name holding addr_text (ZBC_ text form), or NULL. */
const char *zbc_names_find(const struct zbc_names *nm, const char *addr_text);
void zbc_names_free(struct zbc_names *nm);

#endif
