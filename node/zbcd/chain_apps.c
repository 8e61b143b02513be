#include "node/zbcd/chain_apps.h"

#include <stdlib.h>
#include <string.h>

#include "consensus/state.h"
#include "crypto/bytes.h"

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

struct list_key {
    uint32_t created;
    uint64_t id;
};

struct list_ctx {
    const struct zbc_app_filter *f;
    size_t limit;
    struct zbc_app_list *out;
    struct zbc_app scratch;
    struct list_key *keys;
    size_t n, cap;
};

static int collect(void *arg, const uint8_t *key, size_t klen,
                   const uint8_t *val, size_t vlen, struct zbc_err *err)
{
    struct list_ctx *c = arg;
    if (klen != 8)
        return zbc_fail(err, "an APPS key is %zu bytes, not 8", klen);
    if (!zbc_app_decode(&c->scratch, val, vlen, err))
        return 0;
    /* the id is the key (app id u64 LE), not part of the record bytes */
    c->scratch.id = zbc_get_le64(key);
    if (!zbc_app_filter_match(c->f, &c->scratch))
        return 1;
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        struct list_key *k = realloc(c->keys, cap * sizeof *k);
        if (k == NULL)
            return zbc_fail(err, "out of memory listing apps");
        c->keys = k;
        c->cap = cap;
    }
    c->keys[c->n].created = c->scratch.created;
    c->keys[c->n].id = c->scratch.id;
    c->n++;
    return 1;
}

/* Newest first: created height, then id, both descending. */
static int newest_first(const void *x, const void *y)
{
    const struct list_key *a = x, *b = y;
    if (a->created != b->created)
        return a->created > b->created ? -1 : 1;
    if (a->id != b->id)
        return a->id > b->id ? -1 : 1;
    return 0;
}

static int list_fn(struct zbc_store_txn *t, void *arg, struct zbc_err *err)
{
    struct list_ctx *c = arg;
    struct zbc_kv kv;
    struct zbc_state st;
    c->n = 0;
    if (!txn_tip(t, &c->out->tip, err))
        return 0;
    zbc_store_txn_kv(t, &kv);
    if (!kv.ops->each(kv.ctx, ZBC_TABLE_APPS, collect, c, err))
        return 0;
    if (c->n > 1)
        qsort(c->keys, c->n, sizeof *c->keys, newest_first);
    size_t take = c->n < c->limit ? c->n : c->limit;
    c->out->more = c->n > take;
    if (take == 0)
        return 1;
    c->out->apps = malloc(take * sizeof *c->out->apps);
    if (c->out->apps == NULL)
        return zbc_fail(err, "out of memory listing apps");
    if (!zbc_state_open(&st, kv, err))
        return 0;
    int ok = 1;
    for (size_t i = 0; ok && i < take; i++) {
        bool found = false;
        ok = zbc_apps_get(&st, c->keys[i].id, &c->out->apps[i], &found, err);
        if (ok && !found)
            ok = zbc_fail(err, "app %llu vanished while listing",
                          (unsigned long long)c->keys[i].id);
        if (ok)
            c->out->n++;
    }
    zbc_state_close(&st);
    return ok;
}

int zbc_chain_app_list(struct zbc_store *store,
                       const struct zbc_app_filter *f, size_t limit,
                       struct zbc_app_list *out, struct zbc_err *err)
{
    memset(out, 0, sizeof *out);
    if (limit == 0 || limit > ZBC_APP_LIST_MAX)
        return zbc_fail(err, "list limit must be from 1 to %u",
                        ZBC_APP_LIST_MAX);
    struct list_ctx *c = calloc(1, sizeof *c);
    if (c == NULL)
        return zbc_fail(err, "out of memory listing apps");
    c->f = f;
    c->limit = limit;
    c->out = out;
    int ok = zbc_store_read(store, list_fn, c, err);
    free(c->keys);
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
