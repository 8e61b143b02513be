/* The wallet's battleship flow without a node (node/wallet/battleship_flow.c):
 * the secret board's parsing, the drawing of one's own fleet, the moves the
 * wallet writes from its secret file (a shot carrying the due reveal, the
 * reveal, the final open) and what `app watch --auto-reveal` does next. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apps/games/battleship.h"
#include "crypto/hex.h"
#include "node/wallet/app_client.h"
#include "node/wallet/battleship_flow.h"
#include "tests/testlib.h"

static const struct zbc_engine *E = &zbc_engine_battleship;

/* Seat 0: A1-A5, C1-C4, E1-E3, G1-G3, I1-I2; seat 1: A10-E10, A8-D8,
 * J1-J3, H5-H7, F2-G2. */
static const uint8_t FLEET0[17] = {0, 1, 2, 3, 4, 20, 21, 22, 23, 40, 41, 42,
                                   60, 61, 62, 80, 81};
static const uint8_t FLEET1[17] = {9, 19, 29, 39, 49, 7, 17, 27, 37, 90, 91,
                                   92, 74, 75, 76, 51, 61};

static void board(struct zbc_bs_secret *s, const uint8_t *cells, size_t n, uint8_t base)
{
    memset(s->is_ship, 0, sizeof s->is_ship);
    for (size_t i = 0; i < n; i++)
        s->is_ship[cells[i]] = 1;
    for (int c = 0; c < 100; c++)
        for (int k = 0; k < 32; k++)
            s->salts[c][k] = (uint8_t)(base + 3 * c + k);
}

static json_t *secret_json(const struct zbc_bs_secret *s)
{
    static char ships[201], salts[6401];
    zbc_hex_encode(ships, s->is_ship, 100);
    zbc_hex_encode(salts, &s->salts[0][0], 3200);
    return json_pack("{s:s, s:s, s:s}", "game", "battleship", "is_ship", ships, "salts", salts);
}

static void commit(uint8_t out[3200], const struct zbc_bs_secret *s)
{
    struct zbc_err err;
    CHECK(zbc_battleship_commitment(out, s->is_ship, (const uint8_t(*)[32])s->salts, &err));
}

static void test_secret_parse(void)
{
    static struct zbc_bs_secret s, back;
    board(&s, FLEET0, 17, 0);
    json_t *j = secret_json(&s);
    CHECK(zbc_bs_secret_parse(&back, j));
    CHECK_EQ_MEM(&back, &s, sizeof s);
    /* an is_ship byte other than 0/1, short hex, missing fields */
    char ships[201];
    zbc_hex_encode(ships, s.is_ship, 100);
    ships[1] = '2';
    json_object_set_new(j, "is_ship", json_string(ships));
    CHECK(!zbc_bs_secret_parse(&back, j));
    json_object_set_new(j, "is_ship", json_string("0001"));
    CHECK(!zbc_bs_secret_parse(&back, j));
    json_object_del(j, "is_ship");
    CHECK(!zbc_bs_secret_parse(&back, j));
    json_decref(j);
    j = json_pack("{s:s, s:i}", "game", "rps", "choice", 1);
    CHECK(!zbc_bs_secret_parse(&back, j));
    json_decref(j);
}

static void test_fleet_text(void)
{
    static struct zbc_bs_secret s;
    board(&s, FLEET0, 17, 0);
    char out[2048];
    zbc_bs_fleet_text(out, sizeof out, s.is_ship, NULL);
    CHECK(strstr(out, "17 ship cells: A1 A2 A3 A4 A5 C1 C2 C3 C4 E1 E2 E3 G1 G2 G3 I1 I2\n"
                      "   1 2 3 4 5 6 7 8 9 10\n"
                      "A  # # # # # . . . . .\n"
                      "B  . . . . . . . . . .\n"
                      "C  # # # # . . . . . .\n") == out);
    CHECK(strstr(out, "\n(# ship, X ship hit, o water shot at, ? shot awaiting your reveal, . water)\n") != NULL);
    uint8_t known[100] = {0};
    known[0] = ZBC_BATTLESHIP_SHIP;
    known[5] = ZBC_BATTLESHIP_WATER;
    known[6] = ZBC_BATTLESHIP_PENDING;
    zbc_bs_fleet_text(out, sizeof out, s.is_ship, known);
    CHECK(strstr(out, " I1 I2 (1 hit)\n") != NULL);
    CHECK(strstr(out, "\nA  X # # # # o ? . . .\n") != NULL);
    /* a small buffer is cut, still terminated */
    zbc_bs_fleet_text(out, 40, s.is_ship, known);
    CHECK_EQ_INT(strlen(out), 39);
}

/* An app view holding a battleship state, for the wallet's functions. */
static json_t *app_view(const struct zbc_game_state *st, const char *addr0, const char *addr1)
{
    static uint8_t enc[ZBC_GAME_STATE_MAX];
    static char hex[2 * ZBC_GAME_STATE_MAX + 1];
    size_t n = E->encode(st, enc, sizeof enc);
    CHECK(n > 0);
    zbc_hex_encode(hex, enc, n);
    return json_pack("{s:s, s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:i, s:[{s:i, s:s}, {s:i, s:s}],"
                     " s:s, s:[], s:n}",
                     "id", "42", "type", 7, "game", "battleship", "status", "active", "seats", 2,
                     "seated", 2, "stake", 0, "moves", 5, "created", 1, "players", "seat", 0,
                     "address", addr0, "seat", 1, "address", addr1, "state_hex", hex, "history",
                     "result");
}

static void play_to_pending(struct zbc_game_state *st, const struct zbc_bs_secret *b0,
                            const struct zbc_bs_secret *b1)
{
    static uint8_t c0[3200], m[3201];
    struct zbc_err err;
    commit(c0, b0);
    CHECK(E->init(st, 2, c0, 3200, 0, NULL, &err));
    m[0] = 3;
    commit(m + 1, b1);
    CHECK(E->apply_move(st, 1, m, 3201, NULL, &err));
    uint8_t fire[2] = {0, 9}; /* A10: a ship of seat 1 */
    CHECK(E->apply_move(st, 0, fire, 2, NULL, &err));
}

/* "fire C3" while a reveal is due becomes reveal-and-fire; "reveal" and
 * "open" come from the secret file; refusals name what is missing. */
static void test_moves(void)
{
    static struct zbc_bs_secret b0, b1;
    static struct zbc_game_state st;
    board(&b0, FLEET0, 17, 0);
    board(&b1, FLEET1, 17, 100);
    play_to_pending(&st, &b0, &b1);
    char dir[] = "/tmp/zbc-bs-flow-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    struct zbc_opts o;
    memset(&o, 0, sizeof o);
    o.wallet_dir = dir;
    struct zbc_wfail f = {0};
    static char text[8192], note[4096];
    const char *fire[] = {"fire", "C3"};
    /* no secret file yet */
    CHECK(!zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 1, 2,
                            fire, &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_NOT_FOUND);
    CHECK_EQ_STR(f.err.msg, "no battleship board of app 42 in this wallet");
    zbc_wfail_clear(&f);
    json_t *j = secret_json(&b1);
    CHECK(zbc_app_secret_save(&o, 42, "ZBC_B", j, &f));
    json_decref(j);
    CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 1, 2, fire,
                           &f));
    char salt[65];
    zbc_hex_encode(salt, b1.salts[9], 32);
    char want[200];
    snprintf(want, sizeof want, "reveal ship %s fire C3", salt);
    CHECK_EQ_STR(text, want);
    CHECK_EQ_STR(note, "reveals A10 (ship: hit) and fires at C3 in one move");
    /* the text is the engine's tag-2 move */
    static uint8_t mv[4096];
    size_t len;
    struct zbc_err err;
    CHECK(E->parse_move(&st, 1, text, mv, sizeof mv, &len, &err));
    CHECK(len == 35 && mv[0] == 2 && mv[34] == 22);
    CHECK(E->check_move(&st, 1, mv, len, &err));
    const char *rev[] = {"reveal"};
    CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 1, 1, rev,
                           &f));
    snprintf(want, sizeof want, "reveal ship %s", salt);
    CHECK_EQ_STR(text, want);
    CHECK_EQ_STR(note, "reveals A10 (ship: hit)");
    /* seat 0 has nothing to reveal: a plain shot stays as typed, a reveal
     * is refused */
    strcpy(text, "fire C3");
    CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 0, 2, fire,
                           &f));
    CHECK_EQ_STR(text, "fire C3");
    CHECK_EQ_STR(note, "");
    CHECK(!zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 0, 1, rev,
                            &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_REJECTED);
    zbc_wfail_clear(&f);
    const char *open[] = {"open"};
    CHECK(!zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 1, 1, open,
                            &f));
    CHECK_EQ_STR(f.err.msg, "no open is due from you: a seat opens its board after its shots hit "
                            "17 ship cells");
    zbc_wfail_clear(&f);

    /* seat 0 sinks seat 1's fleet; its open comes from its secret file */
    j = secret_json(&b0);
    CHECK(zbc_app_secret_save(&o, 42, "ZBC_A", j, &f));
    json_decref(j);
    uint8_t miss = 5;
    for (int i = 0; i < 17; i++) {
        if (i > 0) {
            uint8_t fm[2] = {0, FLEET1[i]};
            CHECK(E->apply_move(&st, 0, fm, 2, NULL, &err));
        }
        const char *rf[] = {"fire", NULL};
        char cell[4];
        CHECK(zbc_battleship_format_cell(miss++, cell));
        rf[1] = cell;
        CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_B", &st, 1, 2,
                               rf, &f));
        if (i == 16) /* the 17th hit: the reveal is the whole turn */
            CHECK(strstr(note, "which ends your turn (the 17th hit on your board): the shot at ") &&
                  strstr(text, " fire ") == NULL);
        CHECK(E->parse_move(&st, 1, text, mv, sizeof mv, &len, &err));
        CHECK(E->apply_move(&st, 1, mv, len, NULL, &err));
        if (i < 16) {
            CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_A", &st, 0,
                                   1, rev, &f));
            CHECK(E->parse_move(&st, 0, text, mv, sizeof mv, &len, &err));
            CHECK(E->apply_move(&st, 0, mv, len, NULL, &err));
        }
    }
    CHECK(zbc_battleship_open_due(&st, 0));
    CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_A", &st, 0, 1, open,
                           &f));
    CHECK_EQ_STR(note, "opens its whole board (every cell and salt): the standard fleet, so seat 0 "
                       "wins once it is in a block");
    CHECK(E->parse_move(&st, 0, text, mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(len, 3301);
    static struct zbc_game_state done;
    done = st;
    CHECK(E->apply_move(&done, 0, mv, len, NULL, &err));
    struct zbc_result res;
    E->result(&done, &res);
    CHECK(res.kind == ZBC_RESULT_WIN && res.winner == 0);
    /* a short board in the secret file: the note says the open loses */
    b0.is_ship[81] = 0;
    j = secret_json(&b0);
    CHECK(zbc_app_secret_save(&o, 42, "ZBC_A", j, &f));
    json_decref(j);
    CHECK(zbc_bs_move_text(text, sizeof text, note, sizeof note, &o, 42, "ZBC_A", &st, 0, 1, open,
                           &f));
    CHECK_EQ_STR(note, "opens its whole board (every cell and salt), which is not the standard fleet "
                       "(the board has 16 ship cells, the fleet has 17): once it is in a block seat 1 "
                       "wins the pot");
    /* app show's drawing: from the secret file and the chain's state */
    json_t *app = app_view(&st, "ZBC_A", "ZBC_B");
    char *own = zbc_bs_show_own(&o, app, "ZBC_B");
    CHECK(own != NULL);
    if (own != NULL) {
        CHECK(strstr(own, "your board (seat 1, from the wallet's secret file): 17 ship cells: ") == own);
        CHECK(strstr(own, " (0 hit)\n") == NULL);
        CHECK(strstr(own, " (17 hit)\n") != NULL);
        CHECK(strstr(own, "\nA  . . . . . . . X . X\n") != NULL);
    }
    free(own);
    CHECK(zbc_bs_show_own(&o, app, "ZBC_C") == NULL); /* no seat */
    CHECK(zbc_bs_show_own(&o, app, "") == NULL);
    json_decref(app);
    char path[256];
    snprintf(path, sizeof path, "%s/apps/42-ZBC_A.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/apps/42-ZBC_B.json", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/apps", dir);
    rmdir(path);
    rmdir(dir);
}

/* --auto-reveal: the open at once; a reveal that is the whole turn at
 * once; any other reveal waits for the player's shot until the margin. */
static void test_auto_step(void)
{
    static struct zbc_bs_secret b0, b1;
    static struct zbc_game_state st;
    board(&b0, FLEET0, 17, 0);
    board(&b1, FLEET1, 17, 100);
    play_to_pending(&st, &b0, &b1);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 0, &b0, 100), ZBC_BS_AUTO_NONE);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, 100), ZBC_BS_AUTO_WAIT);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, ZBC_BS_REVEAL_MARGIN + 1), ZBC_BS_AUTO_WAIT);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, ZBC_BS_REVEAL_MARGIN), ZBC_BS_AUTO_REVEAL);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, 0), ZBC_BS_AUTO_REVEAL);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, -1), ZBC_BS_AUTO_WAIT); /* no deadline known */
    /* the 17th hit: the reveal is the whole turn */
    struct zbc_err err;
    uint8_t m[35];
    uint8_t miss = 5;
    for (int i = 0; i < 16; i++) {
        int cell = zbc_battleship_pending_cell(&st, 1);
        m[0] = 2;
        m[1] = b1.is_ship[cell];
        memcpy(m + 2, b1.salts[cell], 32);
        m[34] = miss++;
        CHECK(E->apply_move(&st, 1, m, 35, NULL, &err));
        cell = zbc_battleship_pending_cell(&st, 0);
        m[0] = 0;
        m[1] = FLEET1[i + 1];
        uint8_t r[34] = {1, b0.is_ship[cell]};
        memcpy(r + 2, b0.salts[cell], 32);
        CHECK(E->apply_move(&st, 0, r, 34, NULL, &err));
        CHECK(E->apply_move(&st, 0, m, 2, NULL, &err));
    }
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, 100), ZBC_BS_AUTO_REVEAL);
    int cell = zbc_battleship_pending_cell(&st, 1);
    m[0] = 1;
    m[1] = b1.is_ship[cell];
    memcpy(m + 2, b1.salts[cell], 32);
    CHECK(E->apply_move(&st, 1, m, 34, NULL, &err));
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 0, &b0, 100), ZBC_BS_AUTO_OPEN);
    CHECK_EQ_INT(zbc_bs_auto_step(&st, 1, &b1, 100), ZBC_BS_AUTO_NONE);
}

int main(void)
{
    TEST_RUN(test_secret_parse);
    TEST_RUN(test_fleet_text);
    TEST_RUN(test_moves);
    TEST_RUN(test_auto_step);
    return test_summary("wallet_battleship_flow");
}
