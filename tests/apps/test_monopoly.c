/* Monopoly-lite (type 35): buying, rents (single, colour group, stations),
 * GO salary, taxes, going out, the last seat standing, the 100-round end,
 * the starting-cash param (cash=N), notation and the state encoding. */
#include "apps/engine.h"
#include "crypto/bytes.h"
#include "testlib.h"

#define SQUARES 24
static const struct zbc_engine *E;

struct spec {
    uint8_t seats, first, to_move, out_mask, last_seat, d1, d2;
    uint32_t cash[4];
    uint8_t pos[4], moves[4];
    uint8_t owner[SQUARES];
};

static void fresh(struct spec *s, uint8_t seats)
{
    memset(s, 0, sizeof *s);
    s->seats = seats;
    s->last_seat = 0xff;
    for (int i = 0; i < seats; i++)
        s->cash[i] = 1500;
    memset(s->owner, 0xff, sizeof s->owner);
}

/* After some moves: seat `last` just rolled (1,1). */
static void mark_moved(struct spec *s, uint8_t last, uint8_t to_move)
{
    s->last_seat = last;
    s->d1 = 1;
    s->d2 = 1;
    s->moves[last] = s->moves[last] ? s->moves[last] : 1;
    s->to_move = to_move;
}

static int load(struct zbc_game_state *st, const struct spec *s)
{
    uint8_t b[256];
    size_t p = 0;
    b[p++] = s->seats;
    b[p++] = s->first;
    b[p++] = s->to_move;
    b[p++] = s->out_mask;
    b[p++] = s->last_seat;
    b[p++] = s->d1;
    b[p++] = s->d2;
    for (int i = 0; i < s->seats; i++) {
        zbc_put_le32(b + p, s->cash[i]);
        p += 4;
        b[p++] = s->pos[i];
        b[p++] = s->moves[i];
    }
    memcpy(b + p, s->owner, SQUARES);
    p += SQUARES;
    struct zbc_err err;
    if (!E->decode(st, b, p, &err)) {
        fprintf(stderr, "decode: %s\n", err.msg);
        return 0;
    }
    return 1;
}

/* Plays `text` for the seat to move with dice (a, b). */
static int play(struct zbc_game_state *st, const char *text, int a, int b,
                struct zbc_err *err)
{
    uint8_t lit[2] = {(uint8_t)(a - 1), (uint8_t)(b - 1)};
    struct zbc_roll r;
    if (!zbc_roll_init_literal(&r, lit, 2))
        return 0;
    uint8_t mv[2];
    size_t len;
    int seat = E->turn(st);
    if (seat < 0)
        return zbc_fail(err, "over");
    if (!E->parse_move(st, (uint8_t)seat, text, mv, sizeof mv, &len, err))
        return 0;
    return E->apply_move(st, (uint8_t)seat, mv, len, &r, err);
}

static int json_has(const struct zbc_game_state *st, const char *needle)
{
    static char buf[16384];
    if (E->to_json(st, buf, sizeof buf) < 0)
        return 0;
    if (strstr(buf, needle) == NULL) {
        fprintf(stderr, "json lacks %s:\n%s\n", needle, buf);
        return 0;
    }
    return 1;
}

static void test_buy_and_rent(void)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1500,"));
    /* seat 0 rolls 1+1 onto Brown Road (60) and buys it */
    CHECK(play(&st, "roll buy", 1, 1, &err));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1440,\"worth\":1500,\"position\":2"));
    CHECK(json_has(&st, "\"name\":\"Brown Road\",\"kind\":\"property\",\"price\":60,\"rent\":15,\"group\":1,\"owner\":0}"));
    /* seat 1 lands there too: rent 15 (group incomplete) */
    CHECK(play(&st, "roll buy", 1, 1, &err));
    CHECK(json_has(&st, "{\"seat\":1,\"cash\":1485,"));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1455,"));
    /* without the buy flag nothing is bought: seat 0 to Azure Street (4) */
    CHECK(play(&st, "roll", 1, 1, &err));
    CHECK(json_has(&st, "\"name\":\"Azure Street\",\"kind\":\"property\",\"price\":100,\"rent\":25,\"group\":2,\"owner\":null}"));
    CHECK(json_has(&st, "\"last_roll\":{\"seat\":0,\"dice\":[1,1]}"));
}

static void test_group_station_tax_go(void)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    struct spec s;
    fresh(&s, 2);
    s.owner[1] = 0;
    s.owner[2] = 0;  /* both browns: double rent 30 */
    s.owner[9] = 0;
    s.owner[15] = 0; /* both stations: 100 */
    s.pos[1] = 23;
    mark_moved(&s, 0, 1);
    CHECK(load(&st, &s));
    /* seat 1 from 23 rolls 1+2: passes GO (+200) to Brown Road (2): pays 30 */
    CHECK(play(&st, "roll", 1, 2, &err));
    CHECK(json_has(&st, "{\"seat\":1,\"cash\":1670,"));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1530,"));
    /* seat 0 rolls 1+2 from 0 to Income Tax (3): 100 to the bank */
    CHECK(play(&st, "roll", 1, 2, &err));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1430,"));
    /* seat 1 from 2 rolls 3+4 to North Station (9): 2 stations -> 100 */
    CHECK(play(&st, "roll buy", 3, 4, &err));
    CHECK(json_has(&st, "{\"seat\":1,\"cash\":1570,"));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1530,"));
    /* landing exactly on GO pays the salary */
    fresh(&s, 2);
    s.pos[0] = 22;
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll", 1, 1, &err));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1700,\"worth\":1700,\"position\":0"));
    /* buying needs the cash */
    fresh(&s, 2);
    s.cash[0] = 50;
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll buy", 1, 1, &err));
    CHECK(json_has(&st, "\"name\":\"Brown Road\",\"kind\":\"property\",\"price\":60,\"rent\":15,\"group\":1,\"owner\":null}"));
}

static void test_out_and_last_standing(void)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    struct spec s;
    fresh(&s, 3);
    s.owner[23] = 0; /* Blue Crown, rent 100 */
    s.owner[5] = 1;
    s.cash[2] = 40;
    s.owner[4] = 2;  /* seat 2's property returns to the bank when it is out */
    s.pos[2] = 21;
    mark_moved(&s, 1, 2);
    s.moves[0] = 1;
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll", 1, 1, &err));
    struct zbc_result res;
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(res.out_mask, 4);
    CHECK(json_has(&st, "{\"seat\":2,\"cash\":0,"));
    CHECK(json_has(&st, "{\"seat\":0,\"cash\":1540,"));
    CHECK(json_has(&st, "\"name\":\"Azure Street\",\"kind\":\"property\",\"price\":100,\"rent\":25,\"group\":2,\"owner\":null}"));
    CHECK_EQ_INT(E->turn(&st), 0); /* seat 2 is skipped from now on */
    /* seat 0 goes to Income Tax with 0 cash left? give it a tax it cannot pay */
    fresh(&s, 2);
    s.cash[0] = 99;
    s.owner[10] = 0;
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll", 1, 2, &err)); /* tax 100 > 99 */
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 1);
    CHECK_EQ_INT(res.out_mask, 1);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    CHECK(json_has(&st, "\"name\":\"Orange Row\",\"kind\":\"property\",\"price\":180,\"rent\":45,\"group\":4,\"owner\":null}"));
    char board[8192];
    CHECK(E->render(&st, board, sizeof board) > 0);
    CHECK(strstr(board, "game over: seat 1 wins") != NULL);
    CHECK(!play(&st, "roll", 1, 1, &err));
}

static void test_round_limit(void)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    struct spec s;
    fresh(&s, 2);
    s.moves[0] = 99;
    s.moves[1] = 99;
    s.last_seat = 1;
    s.d1 = 3;
    s.d2 = 3;
    s.to_move = 0;
    s.pos[0] = 5;
    s.pos[1] = 5;
    struct zbc_result res;
    /* both roll onto a rest square: worth stays 1500 each -> draw */
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll", 3, 4, &err)); /* 5 -> 12 Plaza */
    CHECK_EQ_INT(E->turn(&st), 1);
    CHECK(play(&st, "roll", 3, 4, &err));
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_DRAW);
    /* richer seat wins: property counts at its price */
    s.owner[1] = 1;
    s.cash[1] = 1440;
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll", 3, 4, &err));
    CHECK(play(&st, "roll", 3, 4, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_DRAW); /* 1440 + 60 = 1500 */
    s.cash[1] = 1441;
    CHECK(load(&st, &s));
    CHECK(play(&st, "roll", 3, 4, &err));
    CHECK(play(&st, "roll", 3, 4, &err));
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(res.winner, 1);
}

static void test_bad_input(void)
{
    static struct zbc_game_state st;
    struct zbc_err err;
    uint8_t one = 0;
    CHECK(!E->check_params(1, NULL, 0, &err));
    CHECK(!E->check_params(5, NULL, 0, &err));
    CHECK(!E->check_params(2, &one, 1, &err));
    CHECK(E->init(&st, 2, NULL, 0, 1, NULL, &err));
    uint8_t mv = 2;
    CHECK(!E->check_move(&st, 1, &mv, 1, &err));
    CHECK(strstr(err.msg, "flags") != NULL);
    mv = 0;
    CHECK(!E->check_move(&st, 0, &mv, 1, &err));
    CHECK(strstr(err.msg, "turn") != NULL);
    CHECK(!E->check_move(&st, 1, &mv, 0, &err));
    CHECK(!E->apply_move(&st, 1, &mv, 1, NULL, &err));
    struct zbc_roll r;
    CHECK(zbc_roll_init_literal(&r, &mv, 1));
    CHECK(!E->apply_move(&st, 1, &mv, 1, &r, &err));
    CHECK(strstr(err.msg, "exhausted") != NULL);
    size_t len;
    uint8_t out[2];
    CHECK(!E->parse_move(&st, 1, "buy", out, sizeof out, &len, &err));
    CHECK(!E->parse_move(&st, 1, "roll sell", out, sizeof out, &len, &err));
    CHECK(E->parse_move(&st, 1, "roll buy", out, sizeof out, &len, &err));
    char txt[16];
    CHECK(E->format_move(&st, out, len, txt, sizeof txt));
    CHECK_EQ_STR(txt, "roll buy");
    struct spec s;
    fresh(&s, 2);
    s.owner[0] = 0; /* GO cannot be owned */
    CHECK(!load(&st, &s));
    fresh(&s, 2);
    s.pos[0] = 24;
    CHECK(!load(&st, &s));
    fresh(&s, 2);
    s.out_mask = 1; /* out with cash */
    CHECK(!load(&st, &s));
    fresh(&s, 2);
    s.to_move = 1; /* the first seat moves first */
    CHECK(!load(&st, &s));
}

/* Params: none = 1500 each; cash=N (u16 LE, 1-10000) for every seat. */
static void test_cash_param(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p[ZBC_NAMED_PARAMS_MAX];
    size_t n;
    char txt[32];
    CHECK(zbc_engine_params_from_text(E, "cash=5", p, sizeof p, &n, &err));
    CHECK_EQ_INT(n, 2);
    CHECK(p[0] == 5 && p[1] == 0);
    CHECK(zbc_engine_params_to_text(E, p, n, txt, sizeof txt));
    CHECK_EQ_STR(txt, "cash=5");
    CHECK(E->check_params(3, p, n, &err));
    CHECK(E->init(&st, 3, p, n, 2, NULL, &err));
    char json[4096];
    CHECK(E->to_json(&st, json, sizeof json) > 0);
    CHECK(strstr(json, "{\"seat\":0,\"cash\":5,") != NULL);
    CHECK(strstr(json, "{\"seat\":2,\"cash\":5,") != NULL);
    /* Income Tax (100) on the first move with 5 in cash: the seat is out,
     * the bank takes its 5, and the game goes on between the other two. */
    CHECK(play(&st, "roll", 1, 2, &err));
    struct zbc_result res;
    E->result(&st, &res);
    CHECK_EQ_INT(res.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(res.out_mask, 1u << 2);
    CHECK_EQ_INT(E->turn(&st), 0);
    CHECK(E->to_json(&st, json, sizeof json) > 0);
    CHECK(strstr(json, "{\"seat\":2,\"cash\":0,\"worth\":0,\"position\":3,"
                       "\"moves_made\":1,\"out\":true}") != NULL);
    /* The default stays 1500: chains created before the param read the same. */
    CHECK(E->init(&st, 2, NULL, 0, 0, NULL, &err));
    CHECK(E->to_json(&st, json, sizeof json) > 0);
    CHECK(strstr(json, "{\"seat\":1,\"cash\":1500,") != NULL);
    /* Bounds and bad input. */
    CHECK(zbc_engine_params_from_text(E, "cash=10000", p, sizeof p, &n, &err));
    CHECK(E->check_params(2, p, n, &err));
    CHECK(!zbc_engine_params_from_text(E, "cash=0", p, sizeof p, &n, &err));
    CHECK(strstr(err.msg, "cash") != NULL);
    CHECK(!zbc_engine_params_from_text(E, "cash=10001", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(E, "cash=-1", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(E, "cash=", p, sizeof p, &n, &err));
    CHECK(!zbc_engine_params_from_text(E, "money=5", p, sizeof p, &n, &err));
    CHECK(strstr(err.msg, "no param 'money' (the param is cash=N, 1-10000)") != NULL);
    const uint8_t zero[2] = {0, 0}, big[2] = {0x11, 0x27}, three[3] = {5, 0, 0};
    CHECK(!E->check_params(2, zero, 2, &err));
    CHECK_EQ_STR(err.msg, "monopoly starting cash 0 out of range 1-10000");
    CHECK(!E->check_params(2, big, 2, &err)); /* 10001 */
    CHECK(!E->check_params(2, three, 3, &err));
    CHECK(strstr(err.msg, "got 3 bytes") != NULL);
    CHECK(!E->init(&st, 2, zero, 2, 0, NULL, &err));
    /* bytes outside the range have no named form: hex, which reads back */
    CHECK(zbc_engine_params_to_text(E, zero, 2, txt, sizeof txt));
    CHECK_EQ_STR(txt, "0000");
    CHECK(zbc_engine_params_to_text(E, big, 2, txt, sizeof txt));
    CHECK_EQ_STR(txt, "1127");
}

int main(void)
{
    E = zbc_engine_by_type(35);
    CHECK(E != NULL);
    if (E == NULL)
        return test_summary("apps_monopoly");
    TEST_RUN(test_buy_and_rent);
    TEST_RUN(test_group_station_tax_go);
    TEST_RUN(test_out_and_last_standing);
    TEST_RUN(test_round_limit);
    TEST_RUN(test_bad_input);
    TEST_RUN(test_cash_param);
    return test_summary("apps_monopoly");
}
