/* The one byte codec: fixed-width little- and big-endian integers, a read
 * cursor and a write cursor whose failure sticks, and strict decimal
 * parsing.  Every encoder and decoder in the project uses these; no file
 * keeps a private copy (scripts/check-layers enforces it).
 *
 * The read cursor follows Core Lightning's fromwire: a decoder reads field
 * after field without checking each one; the first field that does not fit
 * marks the cursor failed, every later read returns zero and copies zeros,
 * and the decoder checks zbc_rd_ok (or zbc_rd_done) once at the end.  The
 * cursor remembers which field failed first, so the caller's error names
 * it ("truncated block: seed needs 32 bytes, 3 left").
 *
 * Pure: no allocation, no global, no clock. */
#ifndef ZBC_BYTES_H
#define ZBC_BYTES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "crypto/err.h"

/* ---- fixed-width integers at a pointer ---------------------------------- */

static inline void zbc_put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static inline void zbc_put_le32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void zbc_put_le64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint16_t zbc_get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (uint16_t)p[1] << 8);
}

static inline uint32_t zbc_get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static inline uint64_t zbc_get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* Big-endian, for keys that must sort by number (LMDB keys). */
static inline void zbc_put_be32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * (3 - i)));
}

static inline void zbc_put_be64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * (7 - i)));
}

static inline uint32_t zbc_get_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           (uint32_t)p[3];
}

static inline uint64_t zbc_get_be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v = v << 8 | p[i];
    return v;
}

/* ---- read cursor -------------------------------------------------------- */

struct zbc_rd {
    const uint8_t *p;     /* next byte; NULL once failed */
    size_t left;          /* bytes left; 0 once failed */
    const char *what;     /* the first field that did not fit (NULL: none) */
    size_t need, had;     /* that field's size and the bytes left then */
};

static inline void zbc_rd_init(struct zbc_rd *r, const void *p, size_t n)
{
    r->p = (const uint8_t *)p;
    r->left = n;
    r->what = NULL;
    r->need = r->had = 0;
}

static inline bool zbc_rd_ok(const struct zbc_rd *r)
{
    return r->what == NULL;
}

/* Ok and every byte consumed. */
static inline bool zbc_rd_done(const struct zbc_rd *r)
{
    return r->what == NULL && r->left == 0;
}

/* Marks the cursor failed (the first failure is kept): for a field that
 * fits but is invalid, so later reads stop too. */
static inline void zbc_rd_fail(struct zbc_rd *r, const char *what)
{
    if (r->what == NULL) {
        r->what = what != NULL ? what : "field";
        r->need = 0;
        r->had = r->left;
    }
    r->p = NULL;
    r->left = 0;
}

/* n bytes of the input, or NULL (and the cursor failed) when fewer are
 * left.  The pointer borrows the input buffer. */
static inline const uint8_t *zbc_rd_take(struct zbc_rd *r, size_t n,
                                         const char *what)
{
    if (r->what != NULL)
        return NULL;
    if (r->left < n) {
        size_t had = r->left;
        zbc_rd_fail(r, what);
        r->need = n;
        r->had = had;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    r->left -= n;
    return p;
}

/* Copies n bytes into out; zeros when they are not there. */
static inline void zbc_rd_copy(struct zbc_rd *r, void *out, size_t n,
                               const char *what)
{
    const uint8_t *p = zbc_rd_take(r, n, what);
    if (p != NULL) {
        if (n)
            memcpy(out, p, n);
    } else if (n) {
        memset(out, 0, n);
    }
}

static inline uint8_t zbc_rd_u8(struct zbc_rd *r, const char *what)
{
    const uint8_t *p = zbc_rd_take(r, 1, what);
    return p != NULL ? p[0] : 0;
}

static inline uint16_t zbc_rd_le16(struct zbc_rd *r, const char *what)
{
    const uint8_t *p = zbc_rd_take(r, 2, what);
    return p != NULL ? zbc_get_le16(p) : 0;
}

static inline uint32_t zbc_rd_le32(struct zbc_rd *r, const char *what)
{
    const uint8_t *p = zbc_rd_take(r, 4, what);
    return p != NULL ? zbc_get_le32(p) : 0;
}

static inline uint64_t zbc_rd_le64(struct zbc_rd *r, const char *what)
{
    const uint8_t *p = zbc_rd_take(r, 8, what);
    return p != NULL ? zbc_get_le64(p) : 0;
}

/* The failure as one sentence: "<prefix>: <what> needs N bytes, M left"
 * for a short input, "<prefix>: bad <what>" for zbc_rd_fail, and
 * "<prefix>: N trailing bytes" when ok but not done.  Returns 0. */
int zbc_rd_err(const struct zbc_rd *r, struct zbc_err *err,
               const char *prefix);

/* ---- write cursor ------------------------------------------------------- */

struct zbc_wr {
    uint8_t *p;           /* buffer start; may be NULL to only measure */
    size_t cap, len;      /* capacity, bytes written (or needed) so far */
};

static inline void zbc_wr_init(struct zbc_wr *w, void *p, size_t cap)
{
    w->p = (uint8_t *)p;
    w->cap = p != NULL ? cap : 0;
    w->len = 0;
}

/* Whether everything written fitted (always false when measuring). */
static inline bool zbc_wr_ok(const struct zbc_wr *w)
{
    return w->p != NULL && w->len <= w->cap;
}

/* Appends n bytes when they fit; len counts them either way, so a NULL
 * buffer measures an encoding. */
static inline void zbc_wr_bytes(struct zbc_wr *w, const void *src, size_t n)
{
    if (w->p != NULL && w->len <= w->cap && n <= w->cap - w->len && n)
        memcpy(w->p + w->len, src, n);
    w->len = (w->len > SIZE_MAX - n) ? SIZE_MAX : w->len + n;
}

static inline void zbc_wr_u8(struct zbc_wr *w, uint8_t v)
{
    zbc_wr_bytes(w, &v, 1);
}

static inline void zbc_wr_le16(struct zbc_wr *w, uint16_t v)
{
    uint8_t b[2];
    zbc_put_le16(b, v);
    zbc_wr_bytes(w, b, 2);
}

static inline void zbc_wr_le32(struct zbc_wr *w, uint32_t v)
{
    uint8_t b[4];
    zbc_put_le32(b, v);
    zbc_wr_bytes(w, b, 4);
}

static inline void zbc_wr_le64(struct zbc_wr *w, uint64_t v)
{
    uint8_t b[8];
    zbc_put_le64(b, v);
    zbc_wr_bytes(w, b, 8);
}

/* ---- decimal text ------------------------------------------------------- */

/* Parses the n characters at s as a decimal number in [min, max]: digits
 * only (no sign, space or leading zero except "0" itself), no overflow.
 * what names the value in the error ("amount", "--timeout"). */
ZBC_WUR int zbc_parse_u64n(const char *s, size_t n, uint64_t min, uint64_t max,
                           uint64_t *out, const char *what,
                           struct zbc_err *err);

/* The same for a NUL-terminated string. */
ZBC_WUR int zbc_parse_u64(const char *s, uint64_t min, uint64_t max,
                          uint64_t *out, const char *what,
                          struct zbc_err *err);

#endif
