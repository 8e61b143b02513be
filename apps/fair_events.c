#include "apps/fair_events.h"

#include <stdio.h>
#include <string.h>

#include "apps/fair.h"
#include "crypto/bytes.h"

void zbc_fair_stream_init(struct zbc_fair_stream *s, const char *server_seed,
                          const char *client_seed, uint64_t nonce)
{
    memset(s, 0, sizeof *s);
    s->server_seed = server_seed;
    s->client_seed = client_seed;
    s->nonce = nonce;
}

uint32_t zbc_fair_stream_u32(struct zbc_fair_stream *s, uint32_t k)
{
    uint32_t round = k / 8;
    if (!s->have || s->round != round) {
        zbc_fair_block(s->block, s->server_seed, s->client_seed, s->nonce, round);
        s->round = round;
        s->have = true;
    }
    return zbc_get_be32(s->block + 4 * (k % 8));
}

uint32_t zbc_fair_floor(uint32_t u, uint32_t n)
{
    return (uint32_t)(((uint64_t)u * n) >> 32);
}

uint32_t zbc_fair_ceil(uint32_t u, uint32_t n)
{
    return (uint32_t)(((uint64_t)u * n + 0xffffffffull) >> 32);
}

int zbc_fair_plinko(struct zbc_fair_stream *s, uint32_t rows,
                    uint8_t path[ZBC_PLINKO_ROWS_MAX], uint32_t *slot,
                    struct zbc_err *err)
{
    if (rows < ZBC_PLINKO_ROWS_MIN || rows > ZBC_PLINKO_ROWS_MAX)
        return zbc_fail(err, "plinko: %u rows, must be %d-%d", rows,
                        ZBC_PLINKO_ROWS_MIN, ZBC_PLINKO_ROWS_MAX);
    *slot = 0;
    for (uint32_t i = 0; i < rows; i++) {
        path[i] = (uint8_t)zbc_fair_floor(zbc_fair_stream_u32(s, i), 2);
        *slot += path[i];
    }
    return 1;
}

/* Each value is pushed past the squares already drawn:
 * x = v; j = 0; while j <= x: if j already drawn: x += 1; j += 1. */
static void push_past(const uint32_t *values, uint32_t n, uint8_t *drawn)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t x = values[i];
        for (uint32_t j = 0; j <= x; j++) {
            for (uint32_t d = 0; d < i; d++) {
                if (drawn[d] == j) {
                    x++;
                    break;
                }
            }
        }
        drawn[i] = (uint8_t)x;
    }
}

void zbc_fair_keno(struct zbc_fair_stream *s, uint8_t squares[ZBC_KENO_DRAWN])
{
    uint32_t v[ZBC_KENO_DRAWN];
    for (uint32_t i = 0; i < ZBC_KENO_DRAWN; i++)
        v[i] = zbc_fair_ceil(zbc_fair_stream_u32(s, i), ZBC_KENO_SQUARES - i);
    push_past(v, ZBC_KENO_DRAWN, squares);
}

int zbc_fair_mines(struct zbc_fair_stream *s, uint32_t tiles, uint32_t mines,
                   uint8_t out[ZBC_MINES_TILES], struct zbc_err *err)
{
    if (tiles < 1 || tiles > ZBC_MINES_TILES)
        return zbc_fail(err, "mines: %u tiles, must be 1-%d", tiles, ZBC_MINES_TILES);
    if (mines < 1 || mines > tiles)
        return zbc_fail(err, "mines: %u mines on %u tiles, must be 1-%u", mines, tiles,
                        tiles);
    uint32_t v[ZBC_MINES_TILES];
    for (uint32_t i = 0; i < mines; i++)
        v[i] = zbc_fair_floor(zbc_fair_stream_u32(s, i), tiles - i);
    push_past(v, mines, out);
    return 1;
}

static const struct {
    const char *name;
    uint8_t columns, safe;
} TOWER[ZBC_TOWER_DIFFICULTIES] = {
    {"easy", 4, 3}, {"medium", 3, 2}, {"hard", 2, 1}, {"expert", 3, 1}, {"master", 4, 1},
};

bool zbc_tower_shape(uint32_t difficulty, uint32_t *columns, uint32_t *safe,
                     const char **name)
{
    if (difficulty >= ZBC_TOWER_DIFFICULTIES)
        return false;
    *columns = TOWER[difficulty].columns;
    *safe = TOWER[difficulty].safe;
    *name = TOWER[difficulty].name;
    return true;
}

int zbc_fair_tower(struct zbc_fair_stream *s, uint32_t difficulty,
                   uint8_t safe[ZBC_TOWER_ROWS][ZBC_TOWER_COLUMNS_MAX],
                   struct zbc_err *err)
{
    uint32_t cols, n;
    const char *name;
    if (!zbc_tower_shape(difficulty, &cols, &n, &name))
        return zbc_fail(err, "tower: unknown difficulty %u (0 easy … 4 master)", difficulty);
    memset(safe, 0, ZBC_TOWER_ROWS * ZBC_TOWER_COLUMNS_MAX);
    for (uint32_t r = 0; r < ZBC_TOWER_ROWS; r++) {
        uint8_t values[ZBC_TOWER_COLUMNS_MAX];
        for (uint32_t c = 0; c < cols; c++)
            values[c] = (uint8_t)c;
        for (uint32_t j = 0; j < n; j++) {
            uint32_t p = zbc_fair_floor(zbc_fair_stream_u32(s, r * n + j), cols - j);
            safe[r][j] = values[p];
            memmove(values + p, values + p + 1, cols - j - p - 1);
        }
    }
    return 1;
}

uint32_t zbc_fair_wheel(struct zbc_fair_stream *s, uint32_t segments)
{
    return zbc_fair_floor(zbc_fair_stream_u32(s, 0), segments);
}

void zbc_fair_cards(struct zbc_fair_stream *s, uint32_t first, uint32_t count,
                    uint8_t *out)
{
    for (uint32_t k = 0; k < count; k++)
        out[k] = (uint8_t)zbc_fair_floor(zbc_fair_stream_u32(s, first + k), 52);
}

void zbc_fair_card_name(char *out, size_t cap, uint8_t card, enum zbc_card_suits suits)
{
    static const char *const RANKS[13] = {"2", "3", "4", "5", "6", "7", "8",
                                          "9", "10", "J", "Q", "K", "A"};
    /* ♦ ♥ ♠ ♣ in UTF-8, in each game's order */
    static const char *const BJ[4] = {"\xe2\x99\xa6", "\xe2\x99\xa5", "\xe2\x99\xa0",
                                      "\xe2\x99\xa3"};
    static const char *const BAC[4] = {"\xe2\x99\xa0", "\xe2\x99\xa5", "\xe2\x99\xa6",
                                       "\xe2\x99\xa3"};
    static const char *const BLZ[4] = {"\xe2\x99\xa0", "\xe2\x99\xa5", "\xe2\x99\xa3",
                                       "\xe2\x99\xa6"};
    const char *const *suit = suits == ZBC_SUITS_BACCARAT ? BAC
                              : suits == ZBC_SUITS_BLITZ  ? BLZ
                                                          : BJ;
    if (card >= 52) {
        snprintf(out, cap, "?");
        return;
    }
    snprintf(out, cap, "%s%s", RANKS[card / 4], suit[card % 4]);
}

uint32_t zbc_baccarat_value(uint8_t card)
{
    uint32_t rank = card / 4u; /* 0 = "2" … 8 = "10", 9 J, 10 Q, 11 K, 12 A */
    if (rank == 12)
        return 1;
    return rank >= 8 ? 0 : rank + 2;
}

static uint8_t bac_total(const uint8_t *cards, uint32_t n)
{
    uint32_t t = 0;
    for (uint32_t i = 0; i < n; i++)
        t += zbc_baccarat_value(cards[i]);
    return (uint8_t)(t % 10);
}

/* The banker's drawing rule after the player drew a card of value t. */
static bool banker_draws(uint32_t b, uint32_t t)
{
    switch (b) {
    case 0:
    case 1:
    case 2:
        return true;
    case 3:
        return t != 8;
    case 4:
        return t >= 2 && t <= 7;
    case 5:
        return t >= 4 && t <= 7;
    case 6:
        return t == 6 || t == 7;
    default:
        return false;
    }
}

void zbc_fair_baccarat(struct zbc_fair_stream *s, struct zbc_baccarat_hand *h)
{
    uint8_t c[4];
    memset(h, 0, sizeof *h);
    zbc_fair_cards(s, 0, 4, c);
    h->player[0] = c[0];
    h->banker[0] = c[1];
    h->player[1] = c[2];
    h->banker[1] = c[3];
    h->n_player = h->n_banker = 2;
    uint32_t p = bac_total(h->player, 2), b = bac_total(h->banker, 2);
    if (p < 8 && b < 8) {
        bool draw;
        if (p <= 5) {
            zbc_fair_cards(s, 4, 1, &h->player[2]);
            h->n_player = 3;
            draw = banker_draws(b, zbc_baccarat_value(h->player[2]));
        } else {
            draw = b <= 5;
        }
        if (draw) {
            zbc_fair_cards(s, h->n_player == 3 ? 5 : 4, 1, &h->banker[2]);
            h->n_banker = 3;
        }
    }
    h->player_total = bac_total(h->player, h->n_player);
    h->banker_total = bac_total(h->banker, h->n_banker);
}

enum zbc_baccarat_side zbc_baccarat_winner(const struct zbc_baccarat_hand *h)
{
    if (h->player_total > h->banker_total)
        return ZBC_BACCARAT_PLAYER;
    return h->banker_total > h->player_total ? ZBC_BACCARAT_BANKER : ZBC_BACCARAT_TIE;
}

int zbc_fair_blitz(struct zbc_fair_stream *s, uint32_t k,
                   uint8_t cards[ZBC_BLITZ_CARDS_MAX], bool *all_differ,
                   struct zbc_err *err)
{
    if (k < ZBC_BLITZ_CARDS_MIN || k > ZBC_BLITZ_CARDS_MAX)
        return zbc_fail(err, "blitz: %u cards, must be %d-%d", k, ZBC_BLITZ_CARDS_MIN,
                        ZBC_BLITZ_CARDS_MAX);
    zbc_fair_cards(s, 0, k, cards);
    uint64_t seen = 0;
    *all_differ = true;
    for (uint32_t i = 0; i < k; i++) {
        if (seen & (1ull << cards[i]))
            *all_differ = false;
        seen |= 1ull << cards[i];
    }
    return 1;
}

uint32_t zbc_fair_crash(struct zbc_fair_stream *s)
{
    return (uint32_t)((99ull << 32) / ((uint64_t)zbc_fair_stream_u32(s, 0) + 256u));
}
