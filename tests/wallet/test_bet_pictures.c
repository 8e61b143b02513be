/* The catalogue bets in words and pictures (node/wallet/bet_pictures.h) and the words of
 * `zbc bet plinko|keno|wheel|baccarat|blitz` (zbc_bet_args): events pinned to the
 * independent Python vectors (tests/vectors/fair_catalogue.json, server seed d4d9…, nonce
 * 1 and 18, and 4a58…, nonce 1035), exact returns of a 1-ZBC stake, the pictures, the
 * steps, the JSON, the ASCII suits, and every refusal by its sentence. */
#include <stdlib.h>
#include <string.h>

#include "apps/fair_pay.h"
#include "crypto/hex.h"
#include "node/wallet/bet.h"
#include "tests/testlib.h"

static const char S1[] = "d4d96d4dfe4735f4183ed3737bec0888f619f9db81182a55be43e49b35c52eee";
static const char S2[] = "4a583ea335ca450013f02980ce46a7816114d3d17cfcbd431af2d6b52e4230ad";
#define STAKE 100000000ull

static struct zbc_bet_outcome resolve(struct zbc_bet *b, const char *client, const char *server,
                                      uint64_t nonce)
{
    struct zbc_bet_outcome o;
    struct zbc_err err;
    snprintf(b->client_seed, sizeof b->client_seed, "%s", client);
    b->client_seed_len = (uint8_t)strlen(client);
    memset(&o, 0, sizeof o);
    CHECK(zbc_bet_resolve(b, STAKE, server, nonce, &o, &err));
    return o;
}

static void check_words(const struct zbc_bet *b, const struct zbc_bet_outcome *o, bool utf8,
                        const char *want)
{
    char buf[512];
    CHECK(zbc_bet_event_words(b, o, utf8, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, want);
}

static void check_picture(const struct zbc_bet *b, const struct zbc_bet_outcome *o, bool utf8,
                          const char *want)
{
    char buf[2048];
    CHECK(zbc_bet_picture(b, o, utf8, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, want);
}

struct lines {
    char text[4096];
    size_t len;
    int n;
};

static void collect(void *ctx, const char *line)
{
    struct lines *l = ctx;
    int n = snprintf(l->text + l->len, sizeof l->text - l->len, "%s\n", line);
    CHECK(n > 0 && (size_t)n < sizeof l->text - l->len);
    if (n > 0 && (size_t)n < sizeof l->text - l->len)
        l->len += (size_t)n;
    l->n++;
}

static void test_plinko(void)
{
    struct zbc_bet b = {.game = ZBC_BET_PLINKO, .rows = 8, .risk = 1}; /* medium */
    struct zbc_bet_outcome o = resolve(&b, "", S1, 1);
    /* vector: path 1 0 0 1 1 0 0 1, slot 4; medium 8 rows, middle slot 0.4368x */
    CHECK_EQ_INT(o.multiplier, 4368);
    CHECK(o.returns == 43680000 && !o.win);
    check_words(&b, &o, true, "path R L L R R L L R, slot 4 (0-8): 0.4368x");
    check_picture(&b, &o, true,
                  "plinko, 8 rows, medium risk: the ball falls (o), L/R at each row\n"
                  "          o          R\n"
                  "         . o         L\n"
                  "        . o .        L\n"
                  "       . o . .       R\n"
                  "      . . o . .      R\n"
                  "     . . . o . .     L\n"
                  "    . . . o . . .    L\n"
                  "   . . . o . . . .   R\n"
                  "  _ _ _ _ o _ _ _ _\n"
                  "  slot 4 of 0-8: 0.4368x (the edge slots pay 4.83x)\n");
    struct lines l = {.len = 0};
    zbc_bet_steps(&b, &o, STAKE, S1, 1, true, collect, &l);
    CHECK_EQ_INT(l.n, 10); /* 8 rows, the slot, the multiplier */
    CHECK(strstr(l.text, "row 4: float 3 u = 4291054052, floor(f x 2) = 1: right\n") != NULL);
    CHECK(strstr(l.text, "multiplier 0.4368x: returns floor(100000000 x 4368 / 10000) = "
                         "43680000\n") != NULL);
    json_t *j = zbc_bet_event_json(&b, &o);
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_EQ_STR(s, "{\"multiplier\":4368,\"multiplier_text\":\"0.4368x\",\"path\":[1,0,0,1,1,0,"
                    "0,1],\"risk\":\"medium\",\"rows\":8,\"slot\":4}");
    free(s);
    json_decref(j);
    /* 16 rows: the widest picture fits */
    struct zbc_bet w = {.game = ZBC_BET_PLINKO, .rows = 16, .risk = 2};
    o = resolve(&w, "", S1, 1);
    char buf[2048];
    CHECK(zbc_bet_picture(&w, &o, true, buf, sizeof buf) > 0);
    CHECK(zbc_bet_picture(&w, &o, true, buf, 64) == -1 && buf[0] == '\0');
}

static void test_keno(void)
{
    struct zbc_bet b = {.game = ZBC_BET_KENO, .n_picks = 3, .picks = {5, 7, 20}};
    struct zbc_bet_outcome o = resolve(&b, "", S1, 1);
    /* vector: squares 28 20 5 40 25 15 8 29 22 11 */
    CHECK_EQ_INT(o.value, 2);
    CHECK(o.returns == 534480000 && o.win); /* classic 3 picks, 2 hits: 5.3448x */
    check_words(&b, &o, true, "hits 5 20 (2 of 3 picks): 5.3448x");
    check_picture(&b, &o, true,
                  "keno, 3 picks, classic risk: [n] hit, (n) picked, *n* drawn\n"
                  "    1    2    3    4  [ 5]   6  ( 7) * 8*\n"
                  "    9   10  *11*  12   13   14  *15*  16 \n"
                  "   17   18   19  [20]  21  *22*  23   24 \n"
                  "  *25*  26   27  *28* *29*  30   31   32 \n"
                  "   33   34   35   36   37   38   39  *40*\n"
                  "  drawn in order: 28 20 5 40 25 15 8 29 22 11\n"
                  "  2 hits of 3 picks: 5.3448x\n");
    struct lines l = {.len = 0};
    zbc_bet_steps(&b, &o, STAKE, S1, 1, true, collect, &l);
    CHECK(strstr(l.text, "draw 4: float 3 u = 4291054052, v = ceil(f x 37) = 37: square 40\n"));
    CHECK(strstr(l.text, "draw 2: float 1 u = 2118418446, v = ceil(f x 39) = 20: square 20 "
                         "(hit)\n"));
    json_t *j = zbc_bet_event_json(&b, &o);
    char *s = json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
    CHECK_EQ_STR(s, "{\"hits\":[5,20],\"multiplier\":53448,\"multiplier_text\":\"5.3448x\","
                    "\"picks\":[5,7,20],\"risk\":\"classic\",\"squares\":[28,20,5,40,25,15,8,"
                    "29,22,11]}");
    free(s);
    json_decref(j);
    struct zbc_bet miss = {.game = ZBC_BET_KENO, .n_picks = 1, .picks = {7}, .risk = 1};
    o = resolve(&miss, "", S1, 1);
    CHECK(o.returns == 0);
    check_words(&miss, &o, true, "hits none (0 of 1 picks): 0.00x");
}

static void test_wheel(void)
{
    struct zbc_bet b = {.game = ZBC_BET_WHEEL, .segments = 10, .risk = 0};
    struct zbc_bet_outcome o = resolve(&b, "", S1, 1);
    CHECK_EQ_INT(o.value, 6); /* vector: segment 6 */
    CHECK(o.returns == 120000000 && o.win);
    check_words(&b, &o, true, "segment 6 of 10: 1.20x");
    check_picture(&b, &o, true,
                  "wheel, 10 segments, low risk: the pointer stops at segment 6\n"
                  "   3: 1.20x   4: 0.00x   5: 1.20x  >6: 1.20x<  7: 1.20x   8: 1.20x   9: "
                  "0.00x \n"
                  "  segment 6 of 10: 1.20x\n");
    /* segment 0 wraps round to the last segments */
    struct zbc_bet h = {.game = ZBC_BET_WHEEL, .segments = 50, .risk = 2};
    o = resolve(&h, "", S1, 1);
    char buf[1024];
    CHECK(zbc_bet_picture(&h, &o, true, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "wheel, 50 segments, high risk") != NULL);
}

static void test_baccarat(void)
{
    struct zbc_bet b = {.game = ZBC_BET_BACCARAT, .side = ZBC_BACCARAT_BANKER};
    struct zbc_bet_outcome o = resolve(&b, "", S1, 1);
    /* vector: player 10♣ 3♦ = 3, banker 8♥ A♣ = 9 (a natural) */
    CHECK(o.returns == 195130000 && o.win);
    check_words(&b, &o, false, "player 10C 3D = 3, banker 8H AC = 9: banker wins (bet on "
                               "banker): 1.9513x");
    check_words(&b, &o, true, "player 10\xe2\x99\xa3 3\xe2\x99\xa6 = 3, banker 8\xe2\x99\xa5 "
                              "A\xe2\x99\xa3 = 9: banker wins (bet on banker): 1.9513x");
    check_picture(&b, &o, false,
                  "baccarat, bet on banker\n"
                  "  player  10C 3D       total 3\n"
                  "  banker  8H  AC       total 9\n"
                  "  banker wins: 1.9513x\n");
    /* both draw: player 8♦ 4♥ 9♠ = 1, banker 10♦ A♦ 7♦ = 8 (floats 4 and 5) */
    struct zbc_bet p = {.game = ZBC_BET_BACCARAT, .side = ZBC_BACCARAT_PLAYER};
    o = resolve(&p, "lucky-7 client seed, 64 chars at most: ABCDEFGHIJKLMNOPQRSTUVW", S2, 1035);
    CHECK(o.returns == 0 && !o.win);
    check_picture(&p, &o, false,
                  "baccarat, bet on player\n"
                  "  player  8D  4H  9S   total 1 (drew a third card)\n"
                  "  banker  10D AD  7D   total 8 (drew a third card)\n"
                  "  banker wins: 0.00x\n");
    struct lines l = {.len = 0};
    zbc_bet_steps(&p, &o, STAKE, S2, 1035, false, collect, &l);
    CHECK(strstr(l.text, "float 5 u = 1845908204: card floor(f x 52) = 22 = 7D, banker 3") !=
          NULL);
    CHECK(strstr(l.text, "two-card totals: player 2, banker 1\n") != NULL);
    json_t *j = zbc_bet_event_json(&p, &o);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "winner")), "banker");
    CHECK_EQ_INT(json_array_size(json_object_get(j, "player")), 3);
    CHECK_EQ_STR(json_string_value(json_array_get(json_object_get(j, "banker_cards"), 0)),
                 "10\xe2\x99\xa6");
    json_decref(j);
}

static void test_blitz(void)
{
    struct zbc_bet b = {.game = ZBC_BET_BLITZ, .cards = 8};
    struct zbc_bet_outcome o = resolve(&b, "hello", S1, 18);
    /* vector: A♠ 10♣ 9♣ 9♦ 5♣ 10♥ 5♦ 10♣, not all differ */
    CHECK(o.returns == 0 && !o.win);
    check_words(&b, &o, false, "AS 10C 9C 9D 5C 10H 5D 10C: 7 different of 8: 0.00x");
    check_picture(&b, &o, false,
                  "blitz, 8 cards: win when all differ\n"
                  "  AS 10C 9C 9D 5C 10H 5D 10C\n"
                  "  10C again: card 8 repeats card 2\n"
                  "  a card repeats: 0.00x\n");
    struct zbc_bet two = {.game = ZBC_BET_BLITZ, .cards = 2};
    o = resolve(&two, "", S1, 1); /* 10♦ 8♥: all differ */
    CHECK(o.win && o.multiplier == 10094 && o.returns == 100940000); /* 1.0094x */
    json_t *j = zbc_bet_event_json(&two, &o);
    CHECK(json_is_true(json_object_get(j, "all_differ")));
    CHECK_EQ_STR(json_string_value(json_array_get(json_object_get(j, "names"), 0)),
                 "10\xe2\x99\xa6");
    json_decref(j);
}

static void test_not_catalogue(void)
{
    struct zbc_bet d = {.game = ZBC_BET_DICE, .target16 = 4950};
    struct zbc_bet_outcome o = resolve(&d, "", S1, 1);
    char buf[64] = "x";
    CHECK(zbc_bet_picture(&d, &o, true, buf, sizeof buf) == -1 && buf[0] == '\0');
    CHECK(zbc_bet_event_words(&d, &o, true, buf, sizeof buf) == -1);
    CHECK(zbc_bet_event_json(&d, &o) == NULL);
    CHECK(!zbc_bet_is_catalogue(ZBC_BET_LIMBO) && zbc_bet_is_catalogue(ZBC_BET_BLITZ));
}

/* Counts past the arrays (a bet that did not come from zbc_bet_parse) are bounded, a
 * wheel of 0 segments divides nothing. */
static void test_hostile(void)
{
    struct zbc_bet_outcome o;
    memset(&o, 0xff, sizeof o);
    o.hand.n_player = o.hand.n_banker = 200;
    char buf[8192];
    const struct zbc_bet bets[] = {
        {.game = ZBC_BET_PLINKO, .rows = 255, .risk = 9},
        {.game = ZBC_BET_KENO, .n_picks = 255, .risk = 9},
        {.game = ZBC_BET_WHEEL, .segments = 0, .risk = 9},
        {.game = ZBC_BET_BACCARAT, .side = 9},
        {.game = ZBC_BET_BLITZ, .cards = 255},
    };
    for (size_t i = 0; i < sizeof bets / sizeof bets[0]; i++) {
        CHECK(zbc_bet_picture(&bets[i], &o, true, buf, sizeof buf) > 0);
        CHECK(zbc_bet_event_words(&bets[i], &o, false, buf, sizeof buf) > 0);
        json_t *j = zbc_bet_event_json(&bets[i], &o);
        CHECK(j != NULL);
        json_decref(j);
        struct lines l = {.len = 0};
        zbc_bet_steps(&bets[i], &o, STAKE, S1, 1, true, collect, &l);
        CHECK(l.n > 0);
    }
    json_t *j = zbc_bet_event_json(&bets[0], &o);
    CHECK_EQ_INT(json_array_size(json_object_get(j, "path")), ZBC_PLINKO_ROWS_MAX);
    json_decref(j);
}

static void test_multiplier_text(void)
{
    char m[24];
    zbc_multiplier_text(m, 4368);
    CHECK_EQ_STR(m, "0.4368x");
    zbc_multiplier_text(m, 12000);
    CHECK_EQ_STR(m, "1.20x");
    zbc_multiplier_text(m, 10000000);
    CHECK_EQ_STR(m, "1000.00x");
    zbc_multiplier_text(m, 5720);
    CHECK_EQ_STR(m, "0.572x");
    zbc_multiplier_text(m, 0);
    CHECK_EQ_STR(m, "0.00x");
}

static void test_term_utf8(void)
{
    unsetenv("LC_ALL");
    unsetenv("LC_CTYPE");
    setenv("LANG", "en_US.UTF-8", 1);
    CHECK(zbc_term_utf8());
    setenv("LC_CTYPE", "C.utf8", 1);
    CHECK(zbc_term_utf8());
    setenv("LC_ALL", "C", 1); /* LC_ALL wins */
    CHECK(!zbc_term_utf8());
    setenv("LC_ALL", "de_DE.ISO-8859-1", 1);
    CHECK(!zbc_term_utf8());
    setenv("LC_ALL", "sr_RS.utf-8@latin", 1);
    CHECK(zbc_term_utf8());
    unsetenv("LC_ALL");
    unsetenv("LC_CTYPE");
    unsetenv("LANG");
    CHECK(!zbc_term_utf8());
}

static void test_recompute(void)
{
    /* an app view as GET /api/v1/apps/<id> gives it: type 23, params rows 8 medium and the
     * empty client seed, id 1, stake 1 ZBC */
    json_t *app = json_pack("{s:s, s:i, s:s, s:I}", "id", "1", "type", 23, "params_hex",
                            "080100", "stake", (json_int_t)STAKE);
    uint8_t seed[32];
    CHECK(zbc_hex_decode_exact(seed, 32, S1));
    struct zbc_bet b;
    struct zbc_bet_outcome o;
    struct zbc_err err;
    CHECK(zbc_bet_recompute(app, seed, &b, &o, &err));
    CHECK(b.game == ZBC_BET_PLINKO && o.value == (4u | 0x99u << 8) && o.returns == 43680000);
    /* hostile views: a bad id, no stake, params that do not parse */
    json_object_set_new(app, "id", json_string("1x"));
    CHECK(!zbc_bet_recompute(app, seed, &b, &o, &err));
    json_object_set_new(app, "id", json_string("1"));
    json_object_set_new(app, "stake", json_string("100"));
    CHECK(!zbc_bet_recompute(app, seed, &b, &o, &err));
    CHECK(strstr(err.msg, "stake") != NULL);
    json_object_set_new(app, "stake", json_integer(1));
    json_object_set_new(app, "params_hex", json_string("110100"));
    CHECK(!zbc_bet_recompute(app, seed, &b, &o, &err));
    CHECK(strstr(err.msg, "17 rows") != NULL);
    json_object_set_new(app, "params_hex", json_string("zz"));
    CHECK(!zbc_bet_recompute(app, seed, &b, &o, &err));
    json_object_set_new(app, "type", json_integer(999));
    CHECK(!zbc_bet_recompute(app, seed, &b, &o, &err));
    json_decref(app);
}

/* The words of zbc bet: accepted forms and each refusal's sentence. */
static void args_ok(int argc, const char *const *argv, const char *risk, struct zbc_bet *b)
{
    struct zbc_wfail f = {0};
    CHECK(zbc_bet_args(b, argc, argv, risk, &f));
    if (f.code != ZBC_EXIT_OK)
        fprintf(stderr, "  refused: %s\n", f.err.msg);
    zbc_wfail_clear(&f);
}

static void args_refused(int argc, const char *const *argv, const char *risk, const char *want)
{
    struct zbc_bet b;
    struct zbc_wfail f = {0};
    CHECK(!zbc_bet_args(&b, argc, argv, risk, &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    CHECK_EQ_STR(f.err.msg, want);
    zbc_wfail_clear(&f);
}

static void test_args(void)
{
    struct zbc_bet b;
    const char *plinko[] = {"plinko", "16", "high"};
    args_ok(3, plinko, NULL, &b);
    CHECK(b.game == ZBC_BET_PLINKO && b.rows == 16 && b.risk == ZBC_RISK_HIGH);
    const char *keno[] = {"keno", "40,3,17"};
    args_ok(2, keno, "high", &b);
    CHECK(b.game == ZBC_BET_KENO && b.n_picks == 3 && b.picks[0] == 3 && b.picks[1] == 17 &&
          b.picks[2] == 40 && b.risk == 1);
    args_ok(2, keno, NULL, &b);
    CHECK(b.risk == 0);
    const char *ten[] = {"keno", "1,2,3,4,5,6,7,8,9,10"};
    args_ok(2, ten, NULL, &b);
    CHECK_EQ_INT(b.n_picks, 10);
    const char *wheel[] = {"wheel", "50", "medium"};
    args_ok(3, wheel, NULL, &b);
    CHECK(b.game == ZBC_BET_WHEEL && b.segments == 50 && b.risk == ZBC_RISK_MEDIUM);
    const char *bac[] = {"baccarat", "tie"};
    args_ok(2, bac, NULL, &b);
    CHECK(b.game == ZBC_BET_BACCARAT && b.side == ZBC_BACCARAT_TIE);
    const char *blitz[] = {"blitz", "2"};
    args_ok(2, blitz, NULL, &b);
    CHECK(b.game == ZBC_BET_BLITZ && b.cards == 2);

    const char *rows7[] = {"plinko", "7", "low"};
    args_refused(3, rows7, NULL, "plinko rows must be 8-16, not '7'");
    const char *rows17[] = {"plinko", "17", "low"};
    args_refused(3, rows17, NULL, "plinko rows must be 8-16, not '17'");
    const char *hgih[] = {"plinko", "12", "hgih"};
    args_refused(3, hgih, NULL, "unknown plinko risk 'hgih' (did you mean high?); plinko "
                                "risks: low, medium, high");
    const char *plinko2[] = {"plinko", "12"};
    args_refused(2, plinko2, NULL, "usage: zbc bet plinko ROWS low|medium|high (rows 8-16), "
                                   "e.g. zbc bet plinko 12 medium --stake 1ZBC");
    args_refused(3, plinko, "high", "--risk is keno's; plinko takes its risk as a word (zbc "
                                    "bet plinko --help)");
    const char *twice[] = {"keno", "3,12,12"};
    args_refused(2, twice, NULL, "keno square 12 is picked twice");
    const char *eleven[] = {"keno", "1,2,3,4,5,6,7,8,9,10,11"};
    args_refused(2, eleven, NULL, "keno takes 1-10 picks, not 11");
    const char *twelve[] = {"keno", "1,2,3,4,5,6,7,8,9,10,11,12"};
    args_refused(2, twelve, NULL, "keno takes 1-10 picks, not 12");
    const char *sq41[] = {"keno", "3,41"};
    args_refused(2, sq41, NULL, "keno square '41' is not a square 1-40");
    const char *sq0[] = {"keno", "0"};
    args_refused(2, sq0, NULL, "keno square '0' is not a square 1-40");
    const char *empty[] = {"keno", "3,,4"};
    args_refused(2, empty, NULL, "keno picks '3,,4': an empty square between commas (write "
                                 "them like 3,17,40)");
    const char *trail[] = {"keno", "3,"};
    args_refused(2, trail, NULL, "keno picks '3,': an empty square between commas (write "
                                 "them like 3,17,40)");
    const char *spaced[] = {"keno", "3", "4"};
    args_refused(3, spaced, NULL, "usage: zbc bet keno N1,N2,... [--risk classic|high] (1-10 "
                                  "squares of 1-40, commas, no spaces), e.g. zbc bet keno "
                                  "3,17,40 --stake 1ZBC");
    args_refused(2, keno, "medium", "unknown keno risk 'medium'; keno risks: classic, high");
    args_refused(2, keno, "clasic", "unknown keno risk 'clasic' (did you mean classic?); keno "
                                    "risks: classic, high");
    const char *w15[] = {"wheel", "15", "low"};
    args_refused(3, w15, NULL, "wheel segments must be 10, 20, 30, 40 or 50, not '15'");
    const char *wmed[] = {"wheel", "10", "meduim"};
    args_refused(3, wmed, NULL, "unknown wheel risk 'meduim' (did you mean medium?); wheel "
                                "risks: low, medium, high");
    const char *bankr[] = {"baccarat", "bankr"};
    args_refused(2, bankr, NULL, "unknown baccarat side 'bankr' (did you mean banker?); "
                                 "baccarat sides: player, banker, tie");
    const char *b17[] = {"blitz", "17"};
    args_refused(2, b17, NULL, "blitz cards must be 2-16, not '17'");
    const char *b1[] = {"blitz", "1"};
    args_refused(2, b1, NULL, "blitz cards must be 2-16, not '1'");
    const char *plinkoo[] = {"plinkoo", "8", "low"};
    args_refused(3, plinkoo, NULL, "unknown bet 'plinkoo' (did you mean plinko?); bets: "
                                   "dice, coin, roulette, limbo, plinko, keno, wheel, "
                                   "baccarat, blitz");
    const char *dice[] = {"dice", "under", "50"};
    args_refused(3, dice, "high", "--risk is keno's; dice has no risk");
    args_refused(0, dice, NULL,
                 "usage: zbc bet GAME ... --stake AMOUNT [--client-seed S] [--wait]; games: "
                 "dice, coin, roulette, limbo, plinko, keno, wheel, baccarat, blitz (zbc bet "
                 "--help)");
}

int main(void)
{
    TEST_RUN(test_plinko);
    TEST_RUN(test_keno);
    TEST_RUN(test_wheel);
    TEST_RUN(test_baccarat);
    TEST_RUN(test_blitz);
    TEST_RUN(test_not_catalogue);
    TEST_RUN(test_hostile);
    TEST_RUN(test_multiplier_text);
    TEST_RUN(test_term_utf8);
    TEST_RUN(test_recompute);
    TEST_RUN(test_args);
    return test_summary("wallet_bet_pictures");
}
