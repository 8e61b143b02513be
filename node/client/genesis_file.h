/* Reading a genesis file from disk (consensus/ is pure and never opens a
 * file: it parses the text, consensus/genesis.h). */
#ifndef ZBC_CLIENT_GENESIS_FILE_H
#define ZBC_CLIENT_GENESIS_FILE_H

#include "consensus/genesis.h"
#include "crypto/err.h"

/* Largest genesis file read. */
#define ZBC_GENESIS_FILE_MAX (64u * 1024 * 1024)

/* Reads and parses a genesis file (zbc_genesis_parse_json); a file larger
 * than ZBC_GENESIS_FILE_MAX is refused.  On failure g is left zeroed. */
ZBC_WUR int zbc_genesis_load_file(struct zbc_genesis *g, const char *path,
                                  struct zbc_err *err);

#endif
