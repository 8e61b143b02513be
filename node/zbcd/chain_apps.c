#include "node/zbcd/chain_apps.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/state.h"
#include "node/zbcd/app_index.h"
#include "node/zbcd/chain_internal.h"

/* The tip height of a read transaction (0 before the first block). */
static int txn_tip(struct zbc_store_txn *t, uint32_t *tip, struct zbc_err *err)
{
    struct zbc_store_meta m;
    if (!zbc_store_txn_meta(t, &m, err))
        return 0;
    *tip = m.has_tip ? m.tip_height : 0;
    return 1;
}

/* ---- one app ---- */

struct get_ctx {
    uint64_t id;
    struct zbc_app_snapshot *s;
    bool found;
};

static int read_history(struct zbc_state *st, struct zbc_app_snapshot *s,
                        struct zbc_err *err)
{
    uint32_t total = s->app.history_n;
    uint32_t first = total > ZBC_APP_HISTORY_MAX ? total - ZBC_APP_HISTORY_MAX
                                                 : 0;
    size_t n = total - first;
    s->history_first = first;
    if (n == 0)
        return 1;
    s->hist = calloc(n, sizeof *s->hist);
    if (s->hist == NULL)
        return zbc_fail(err, "out of memory reading the history of app %llu",
                        (unsigned long long)s->app.id);
    for (uint32_t seq = first; seq < total; seq++) {
        bool found = false;
        if (!zbc_apps_history(st, s->app.id, seq, &s->hist[s->n_hist], &found,
                              err))
            return 0;
        if (!found)
            return zbc_fail(err, "history entry %u of app %llu is missing",
                            seq, (unsigned long long)s->app.id);
        s->n_hist++;
    }
    return 1;
}

static int get_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct get_ctx *c = arg;
    struct zbc_kv kv;
    struct zbc_state st;
    if (!txn_tip(t, &c->s->tip, err))
        return 0;
    zbc_store_txn_kv(t, &kv);
    if (!zbc_state_open(&st, kv, err))
        return 0;
    int ok = zbc_apps_get(&st, c->id, &c->s->app, &c->found, err) &&
             (!c->found || read_history(&st, c->s, err));
    zbc_state_close(&st);
    return ok;
}

int zbc_chain_app_get(struct zbc_store *store, uint64_t id,
                      struct zbc_app_snapshot *s, bool *found,
                      struct zbc_err *err)
{
    memset(s, 0, sizeof *s);
    struct get_ctx c = {.id = id, .s = s};
    int ok = zbc_store_read(store, get_fn, &c, err);
    *found = ok && c.found;
    if (!*found)
        zbc_app_snapshot_free(s);
    return ok;
}

void zbc_app_snapshot_free(struct zbc_app_snapshot *s)
{
    free(s->hist);
    s->hist = NULL;
    s->n_hist = 0;
}

/* ---- lists ---- */

bool zbc_app_filter_match(const struct zbc_app_filter *f,
                          const struct zbc_app *a)
{
    if (f->has_status && a->status != f->status)
        return false;
    if (f->has_type && a->type != f->type)
        return false;
    if (f->has_seat && zbc_app_seat_of(a, &f->seat) < 0)
        return false;
    if (f->has_before &&
        !(a->created < f->before_height ||
          (a->created == f->before_height && a->id < f->before_id)))
        return false;
    return true;
}

/* The page comes from the app index (node/zbcd/app_index.h): one key
 * range walk of limit + 1 keys, then one APPS lookup per app listed
 * (docs/api.md §10 "Index"). */
struct list_ctx {
    const struct zbc_app_index_buf *const *held;
    unsigned n_held;
    const struct zbc_app_filter *f;
    size_t limit;
    struct zbc_app_list *out;
    uint64_t ids[ZBC_APP_LIST_MAX];
};

static int list_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct list_ctx *c = arg;
    const struct zbc_app_filter *f = c->f;
    struct zbc_kv kv;
    struct zbc_state st;
    if (!txn_tip(t, &c->out->tip, err))
        return 0;
    struct zbc_app_index_query q = {
        .has_status = f->has_status, .status = f->status,
        .has_type = f->has_type, .type = f->type,
        .has_player = f->has_seat, .player = f->seat,
        .has_before = f->has_before, .before_height = f->before_height,
        .before_id = f->before_id};
    size_t take = 0;
    if (!zbc_app_index_page(t, c->held, c->n_held, &q, c->limit, c->ids, &take, &c->out->more,
                            err))
        return 0;
    if (take == 0)
        return 1;
    c->out->apps = malloc(take * sizeof *c->out->apps);
    if (c->out->apps == NULL)
        return zbc_fail(err, "out of memory listing apps");
    zbc_store_txn_kv(t, &kv);
    if (!zbc_state_open(&st, kv, err))
        return 0;
    int ok = 1;
    for (size_t i = 0; ok && i < take; i++) {
        bool found = false;
        struct zbc_app *a = &c->out->apps[i];
        ok = zbc_apps_get(&st, c->ids[i], a, &found, err);
        if (ok && !found)
            ok = zbc_fail(err, "the app index names app %llu, which does "
                          "not exist", (unsigned long long)c->ids[i]);
        if (ok && !zbc_app_filter_match(f, a))
            ok = zbc_fail(err, "the app index is out of step with app %llu",
                          (unsigned long long)c->ids[i]);
        if (ok)
            c->out->n++;
    }
    zbc_state_close(&st);
    return ok;
}

int zbc_chain_app_list(struct zbc_chain *chain,
                       const struct zbc_app_filter *f, size_t limit,
                       struct zbc_app_list *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    if (!zbc_chain_index_ready(chain, err))
        return 0;
    if (limit == 0 || limit > ZBC_APP_LIST_MAX)
        return zbc_fail(err, "list limit must be from 1 to %u",
                        ZBC_APP_LIST_MAX);
    struct list_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return zbc_fail(err, "out of memory listing apps");
    c->held = (const struct zbc_app_index_buf *const *)chain->ix_apps;
    c->n_held = 1;
    c->f = f;
    c->limit = limit;
    c->out = out;
    int ok = zbc_store_read(chain->store, list_fn, c, err);
    free(c);
    if (!ok)
        zbc_app_list_free(out);
    return ok;
}

void zbc_app_list_free(struct zbc_app_list *l)
{
    free(l->apps);
    l->apps = NULL;
    l->n = 0;
}
