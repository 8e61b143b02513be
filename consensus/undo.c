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

int zbc_undo_encode(const struct zbc_undo *u, uint8_t **out, size_t *len,
                    struct zbc_err *err)
{
    if (u->n > UINT32_MAX)
        return zbc_fail(err, "undo record has too many entries");
    size_t total = 5;
    for (size_t i = 0; i < u->n; i++)
        total += 3 + u->e[i].klen + (u->e[i].had ? 4 + (size_t)u->e[i].vlen : 0);
    uint8_t *b = malloc(total);
    if (b == NULL)
        return zbc_fail(err, "out of memory encoding an undo record");
    size_t p = 0;
    b[p++] = ZBC_UNDO_VERSION;
    zbc_put_le32(b + p, (uint32_t)u->n);
    p += 4;
    for (size_t i = 0; i < u->n; i++) {
        const struct zbc_undo_entry *e = &u->e[i];
        b[p++] = e->table;
        b[p++] = e->klen;
        memcpy(b + p, e->key, e->klen);
        p += e->klen;
        b[p++] = e->had ? 1 : 0;
        if (e->had) {
            zbc_put_le32(b + p, e->vlen);
            p += 4;
            if (e->vlen > 0)
                memcpy(b + p, e->val, e->vlen);
            p += e->vlen;
        }
    }
    *out = b;
    *len = total;
    return 1;
}

static int decode_entries(struct zbc_undo *u, const uint8_t *buf, size_t len,
                          struct zbc_err *err)
{
    if (len < 5)
        return zbc_fail(err, "undo record is truncated (header)");
    if (buf[0] != ZBC_UNDO_VERSION)
        return zbc_fail(err, "undo record version %u is not %u", buf[0],
                        ZBC_UNDO_VERSION);
    uint32_t count = zbc_get_le32(buf + 1);
    const uint8_t *p = buf + 5;
    size_t rem = len - 5;
    if (count > rem / 4)
        return zbc_fail(err, "undo record claims %u entries in %zu bytes",
                        count, rem);
    u->e = calloc(count > 0 ? count : 1, sizeof *u->e);
    if (u->e == NULL)
        return zbc_fail(err, "out of memory decoding an undo record");
    u->cap = count;
    for (uint32_t i = 0; i < count; i++) {
        struct zbc_undo_entry *e = &u->e[i];
        if (rem < 2)
            return zbc_fail(err, "undo entry %u is truncated", i);
        if (p[0] >= ZBC_TABLE_COUNT)
            return zbc_fail(err, "undo entry %u names table %u", i, p[0]);
        if (p[1] == 0 || p[1] > ZBC_KV_KEY_MAX)
            return zbc_fail(err, "undo entry %u has key length %u", i, p[1]);
        e->table = p[0];
        e->klen = p[1];
        p += 2;
        rem -= 2;
        if (rem < (size_t)e->klen + 1)
            return zbc_fail(err, "undo entry %u is truncated (key)", i);
        memcpy(e->key, p, e->klen);
        if (e->table == ZBC_TABLE_META &&
            e->klen == sizeof ZBC_META_KEY_LTHASH - 1 &&
            memcmp(e->key, ZBC_META_KEY_LTHASH, e->klen) == 0)
            return zbc_fail(err, "undo entry %u names the reserved meta key "
                                 "\"%s\"", i, ZBC_META_KEY_LTHASH);
        p += e->klen;
        rem -= e->klen;
        uint8_t had = *p++;
        rem--;
        if (had > 1)
            return zbc_fail(err, "undo entry %u has presence flag %u", i, had);
        e->had = had == 1;
        u->n = i + 1; /* from here e->val is owned by u */
        if (!e->had)
            continue;
        if (rem < 4)
            return zbc_fail(err, "undo entry %u is truncated (length)", i);
        uint32_t vlen = zbc_get_le32(p);
        p += 4;
        rem -= 4;
        if (vlen > ZBC_KV_VAL_MAX || vlen > rem)
            return zbc_fail(err, "undo entry %u value of %u bytes does not fit",
                            i, vlen);
        e->val = malloc(vlen > 0 ? vlen : 1);
        if (e->val == NULL)
            return zbc_fail(err, "out of memory decoding an undo record");
        if (vlen > 0)
            memcpy(e->val, p, vlen);
        e->vlen = vlen;
        p += vlen;
        rem -= vlen;
    }
    if (rem != 0)
        return zbc_fail(err, "undo record has %zu trailing bytes", rem);
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
