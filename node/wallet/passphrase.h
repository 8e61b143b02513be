/* Where the wallet's passphrase comes from, in this order: --passphrase-file
 * (first line), ZBC_PASSPHRASE, an interactive prompt on /dev/tty without
 * echo. */
#ifndef ZBC_WALLET_PASSPHRASE_H
#define ZBC_WALLET_PASSPHRASE_H

#include <stddef.h>

#include "node/client/fail.h"
#include "node/wallet/opts.h"

#define ZBC_PASSPHRASE_MAX 1024

/* confirm: prompt twice (new keys).  out is NUL-terminated. */
ZBC_WUR int zbc_passphrase_get(char out[ZBC_PASSPHRASE_MAX], const struct zbc_opts *o,
                               int confirm, struct zbc_wfail *f);

#endif
