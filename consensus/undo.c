/* Undo record bytes (docs/protocol-chain.md "Undo record"):
 *   version u8 (=1) | count u32 | count x entry
 *   entry = table u8 | klen u8 | key | had u8 (0/1) | [vlen u32 | value]
 * Entries are in write order; a rollback applies them in reverse. */
#include "consensus/state.h"

#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"

#define ZBC_UNDO_VERSION 1

void zbc_undo_free(struct zbc_undo *u)
{
    for (size_t i = 0; i < u->n; i++)
        free(u->e[i].val);
    free(u->e);
    memset(u, 0, sizeof *u);
}

static void write_entries(struct zbc_wr *w, const struct zbc_undo *u)
{
    zbc_wr_u8(w, ZBC_UNDO_VERSION);
    zbc_wr_le32(w, (uint32_t)u->n);
    for (size_t i = 0; i < u->n; i++) {
        const struct zbc_undo_entry *e = &u->e[i];
        zbc_wr_u8(w, e->table);
        zbc_wr_u8(w, e->klen);
        zbc_wr_bytes(w, e->key, e->klen);
        zbc_wr_u8(w, e->had ? 1 : 0);
        if (e->had) {
            zbc_wr_le32(w, e->vlen);
            zbc_wr_bytes(w, e->val, e->vlen);
        }
    }
}

int zbc_undo_encode(const struct zbc_undo *u, uint8_t **out, size_t *len,
                    struct zbc_err *err)
{
    if (u->n > UINT32_MAX)
        return zbc_fail(err, "undo record has too many entries");
    struct zbc_wr w;
    zbc_wr_init(&w, NULL, 0);
    write_entries(&w, u);
    size_t total = w.len;
    uint8_t *b = malloc(total);
    if (b == NULL)
        return zbc_fail(err, "out of memory encoding an undo record");
    zbc_wr_init(&w, b, total);
    write_entries(&w, u); /* the same total bytes: write_entries is pure */
    *out = b;
    *len = total;
    return 1;
}

/* Decoded with the codec's read cursor; each failure keeps its own
 * sentence (docs/protocol-chain.md §4.2). */
static int decode_entries(struct zbc_undo *u, const uint8_t *buf, size_t len,
                          struct zbc_err *err)
{
    struct zbc_rd r;
    zbc_rd_init(&r, buf, len);
    uint8_t version = zbc_rd_u8(&r, "version");
    uint32_t count = zbc_rd_le32(&r, "entry count");
    if (!zbc_rd_ok(&r))
        return zbc_fail(err, "undo record is truncated (header)");
    if (version != ZBC_UNDO_VERSION)
        return zbc_fail(err, "undo record version %u is not %u", version,
                        ZBC_UNDO_VERSION);
    if (count > r.left / 4)
        return zbc_fail(err, "undo record claims %u entries in %zu bytes",
                        count, r.left);
    u->e = calloc(count > 0 ? count : 1, sizeof *u->e);
    if (u->e == NULL)
        return zbc_fail(err, "out of memory decoding an undo record");
    u->cap = count;
    for (uint32_t i = 0; i < count; i++) {
        struct zbc_undo_entry *e = &u->e[i];
        const uint8_t *h = zbc_rd_take(&r, 2, "entry");
        if (h == NULL)
            return zbc_fail(err, "undo entry %u is truncated", i);
        if (h[0] >= ZBC_TABLE_COUNT)
            return zbc_fail(err, "undo entry %u names table %u", i, h[0]);
        if (h[1] == 0 || h[1] > ZBC_KV_KEY_MAX)
            return zbc_fail(err, "undo entry %u has key length %u", i, h[1]);
        e->table = h[0];
        e->klen = h[1];
        if (r.left < (size_t)e->klen + 1)
            return zbc_fail(err, "undo entry %u is truncated (key)", i);
        zbc_rd_copy(&r, e->key, e->klen, "key");
        if (e->table == ZBC_TABLE_META &&
            e->klen == sizeof ZBC_META_KEY_LTHASH - 1 &&
            memcmp(e->key, ZBC_META_KEY_LTHASH, e->klen) == 0)
            return zbc_fail(err, "undo entry %u names the reserved meta key "
                                 "\"%s\"", i, ZBC_META_KEY_LTHASH);
        uint8_t had = zbc_rd_u8(&r, "presence flag");
        if (had > 1)
            return zbc_fail(err, "undo entry %u has presence flag %u", i, had);
        e->had = had == 1;
        u->n = i + 1; /* from here e->val is owned by u */
        if (!e->had)
            continue;
        uint32_t vlen = zbc_rd_le32(&r, "value length");
        if (!zbc_rd_ok(&r))
            return zbc_fail(err, "undo entry %u is truncated (length)", i);
        if (vlen > ZBC_KV_VAL_MAX || vlen > r.left)
            return zbc_fail(err, "undo entry %u value of %u bytes does not fit",
                            i, vlen);
        e->val = malloc(vlen > 0 ? vlen : 1);
        if (e->val == NULL)
            return zbc_fail(err, "out of memory decoding an undo record");
        zbc_rd_copy(&r, e->val, vlen, "value");
        e->vlen = vlen;
    }
    if (r.left != 0)
        return zbc_fail(err, "undo record has %zu trailing bytes", r.left);
    return 1;
}

int zbc_undo_decode(struct zbc_undo *u, const uint8_t *buf, size_t len,
                    struct zbc_err *err)
{
    memset(u, 0, sizeof *u);
    if (!decode_entries(u, buf, len, err)) {
        zbc_undo_free(u);
        return 0;
    }
    return 1;
}
