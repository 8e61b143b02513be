/* A transaction that passed the stateless checks (zbc_tx_check_stateless,
 * consensus/apply.h; docs/protocol-tx.md §4).  Its own header so the apps
 * (consensus/apps_apply.h) take it without depending on the block apply
 * that calls them. */
#ifndef ZBC_CHECKED_TX_H
#define ZBC_CHECKED_TX_H

#include <stdint.h>

#include "consensus/tx.h"
#include "consensus/tx_body.h"

struct zbc_checked_tx {
    struct zbc_tx tx;           /* borrows the transaction bytes */
    struct zbc_tx_body body;    /* parsed body (borrows too) */
    uint8_t hash[32];
};

#endif
