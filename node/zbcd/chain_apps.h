/* App queries for the HTTP API and the event streams (docs/api.md
 * "Apps"): one app with its whole history, and filtered lists, read at the
 * tip inside one short store read transaction (node/zbcd/store.h) through the
 * consensus readers (consensus/apps_apply.h).  Nothing here writes.
 *
 * Return convention: 1 = success, 0 = failure with err filled (a ledger
 * failure or a stored record that does not decode). */
#ifndef ZBC_NODE_CHAIN_APPS_H
#define ZBC_NODE_CHAIN_APPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "apps/app.h"
#include "consensus/apps_apply.h"
#include "crypto/address.h"
#include "crypto/err.h"
#include "node/zbcd/store.h"

/* Most history entries one answer carries (the newest are kept). */
#define ZBC_APP_HISTORY_MAX 4096u
/* Largest page of a list. */
#define ZBC_APP_LIST_MAX 100u

/* One app as the API shows it.  hist is malloc'ed (free with
 * zbc_app_snapshot_free); history_first is the sequence number of hist[0]
 * (non-zero only when the history is longer than ZBC_APP_HISTORY_MAX). */
struct zbc_app_snapshot {
    struct zbc_app app;
    uint32_t tip;                  /* height the read was made at */
    struct zbc_app_history *hist;
    size_t n_hist;
    uint32_t history_first;
};

/* Reads app `id` and its history at the tip; *found = false when there is
 * no such app (s then holds nothing to free). */
ZBC_WUR int zbc_chain_app_get(struct zbc_store *store, uint64_t id,
                              struct zbc_app_snapshot *s, bool *found,
                              struct zbc_err *err);
void zbc_app_snapshot_free(struct zbc_app_snapshot *s);

/* A list filter; a field is ignored when its has_ flag is false. */
struct zbc_app_filter {
    bool has_status;
    uint8_t status;             /* enum zbc_app_status */
    bool has_type;
    uint8_t type;
    bool has_seat;
    struct zbc_addr seat;       /* seated now (or the creator of a bet) */
    bool has_before;            /* cursor: only apps created below this */
    uint32_t before_height;     /* (created height, id) pair, exclusive */
    uint64_t before_id;
};

/* One list entry: the record (no history). */
struct zbc_app_list {
    struct zbc_app *apps;  /* malloc'ed, n entries, newest first */
    size_t n;
    bool more;             /* more apps match past the last one */
    uint32_t tip;
};

struct zbc_chain;
/* Apps matching f, newest first (created height, then id, descending),
 * at most limit (1..ZBC_APP_LIST_MAX): the chain's app index with the
 * apps changed since its last flush. */
ZBC_WUR int zbc_chain_app_list(struct zbc_chain *chain,
                               const struct zbc_app_filter *f, size_t limit,
                               struct zbc_app_list *out, struct zbc_err *err);
void zbc_app_list_free(struct zbc_app_list *l);

/* Whether an app matches f (the cursor included). */
bool zbc_app_filter_match(const struct zbc_app_filter *f,
                          const struct zbc_app *a);

#endif
