/* The wallet's app commands without a node: bet words, game params, fleet
 * placement, the app view text, app ids, and the event-stream reader of
 * `app watch` over a socket pair.  Includes the command files to reach
 * their static helpers. */
#include <sys/socket.h>

#include "apps/fair.h"
#include "node/wallet/app_move.c"
#include "node/wallet/app_watch.c"
#include "node/wallet/cmd_app.c"
#include "node/wallet/cmd_bet.c"
#include "tests/testlib.h"

static void test_hundredths(void)
{
    uint64_t v = 0;
    CHECK(hundredths(&v, "49.5") && v == 4950);
    CHECK(hundredths(&v, "1") && v == 100);
    CHECK(hundredths(&v, "0.01") && v == 1);
    CHECK(hundredths(&v, "2.50") && v == 250);
    CHECK(!hundredths(&v, "1.234"));
    CHECK(!hundredths(&v, ""));
    CHECK(!hundredths(&v, "a"));
    CHECK(!hundredths(&v, "1.2.3"));
    CHECK(!hundredths(&v, "-1"));
    CHECK(hundredths(&v, ".5") && v == 50);
    CHECK(!hundredths(&v, "."));
    CHECK(!hundredths(&v, "1."));
    CHECK(!hundredths(&v, "01.5"));
    CHECK(!hundredths(&v, "1.5x"));
    CHECK(!hundredths(&v, " 1"));
    CHECK(!hundredths(&v, "4294967296"));
    CHECK(hundredths(&v, "4294967295.99") && v == 429496729599ULL);
}

static void test_bet_words(void)
{
    struct zbc_bet b;
    struct zbc_wfail f = {0};
    const char *dice[] = {"dice", "under", "49.5"};
    CHECK(zbc_bet_args(&b, 3, dice, NULL, &f));
    CHECK_EQ_INT(b.game, ZBC_BET_DICE);
    CHECK_EQ_INT(b.direction, 0);
    CHECK_EQ_INT(b.target16, 4950);
    const char *over[] = {"dice", "over", "100"};
    CHECK(!zbc_bet_args(&b, 3, over, NULL, &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    const char *coin[] = {"coin", "tails"};
    CHECK(zbc_bet_args(&b, 2, coin, NULL, &f) && b.game == ZBC_BET_COIN && b.direction == 1);
    const char *edge[] = {"coin", "edge"};
    CHECK(!zbc_bet_args(&b, 2, edge, NULL, &f));
    const char *straight[] = {"roulette", "straight", "17"};
    CHECK(zbc_bet_args(&b, 3, straight, NULL, &f) && b.kind == ZBC_ROULETTE_STRAIGHT && b.number == 17);
    const char *red5[] = {"roulette", "red", "5"};
    CHECK(!zbc_bet_args(&b, 3, red5, NULL, &f));
    const char *big[] = {"roulette", "straight", "37"};
    CHECK(!zbc_bet_args(&b, 3, big, NULL, &f));
    const char *limbo[] = {"limbo", "2.5"};
    CHECK(zbc_bet_args(&b, 2, limbo, NULL, &f) && b.target32 == 250);
    const char *low[] = {"limbo", "1.00"};
    CHECK(!zbc_bet_args(&b, 2, low, NULL, &f));
    const char *poker[] = {"poker", "all-in"};
    CHECK(!zbc_bet_args(&b, 2, poker, NULL, &f));
    zbc_wfail_clear(&f);
}

static void test_game_params(void)
{
    uint8_t p[16];
    size_t n = 0;
    struct zbc_wfail f = {0};
    const struct zbc_engine *dots = zbc_engine_by_name("dots");
    const struct zbc_engine *rps = zbc_engine_by_name("rps");
    CHECK(game_params(p, sizeof p, &n, dots, "width=5,height=3", &f));
    CHECK(n == 2 && p[0] == 5 && p[1] == 3);
    CHECK(game_params(p, sizeof p, &n, dots, "height=6", &f));
    CHECK(n == 2 && p[0] == 4 && p[1] == 6); /* width keeps its default */
    CHECK(game_params(p, sizeof p, &n, rps, "rounds=3", &f) && n == 1 && p[0] == 3);
    CHECK(game_params(p, sizeof p, &n, rps, "0203", &f) && n == 2 && p[1] == 3);
    CHECK(game_params(p, sizeof p, &n, rps, NULL, &f) && n == 0);
    CHECK(!game_params(p, sizeof p, &n, rps, "depth=1", &f));
    CHECK(!game_params(p, sizeof p, &n, rps, "rounds=", &f));
    CHECK(!game_params(p, sizeof p, &n, rps, "rounds=300", &f));
    CHECK(!game_params(p, sizeof p, &n, rps, "zz", &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    zbc_wfail_clear(&f);
}

static void test_fleets(void)
{
    uint8_t first[ZBC_BATTLESHIP_CELLS], b[ZBC_BATTLESHIP_CELLS];
    struct zbc_err err;
    int distinct = 0;
    random_fleet(first);
    for (int i = 0; i < 200; i++) {
        random_fleet(b);
        int cells = 0;
        for (int c = 0; c < ZBC_BATTLESHIP_CELLS; c++)
            cells += b[c];
        CHECK_EQ_INT(cells, ZBC_BATTLESHIP_FLEET_CELLS);
        CHECK(zbc_battleship_check_fleet(b, &err));
        distinct += memcmp(b, first, sizeof b) != 0;
    }
    CHECK(distinct > 190); /* random placements, not one layout */
    struct zbc_wfail f = {0};
    CHECK(board_cells(b, "A1,A2,A3,A4,A5,C1,C2,C3,C4,E1,E2,E3,G1,G2,G3,I1,I2", &f));
    CHECK(b[0] == 1 && b[4] == 1 && b[5] == 0 && b[80] == 1 && b[81] == 1);
    CHECK(!board_cells(b, "A1,A2", &f));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    CHECK(!board_cells(b, "A1,Z9", &f));
    zbc_wfail_clear(&f);
}

static void test_view_text(void)
{
    json_t *app = json_loads(
        "{\"id\":\"77\",\"game\":\"tictactoe\",\"status\":\"active\",\"stake\":5,\"pot\":10,"
        "\"escrow\":0,\"seated\":2,\"seats\":2,\"height\":9,\"players\":["
        "{\"seat\":0,\"address\":\"ZBC_A\"},{\"seat\":1,\"address\":\"ZBC_B\"}],"
        "\"clock\":1,\"deadline\":20,\"blocks_left\":11,\"first_turn_pending\":false,"
        "\"timeout_claimable\":false,\"pending\":null,\"board\":\"X . .\","
        "\"history\":[{\"seq\":3,\"height\":8,\"kind\":\"app_move\",\"seat\":0,"
        "\"notation\":\"1\",\"amount\":20,\"reason\":\"\"}],"
        "\"result\":{\"ending\":\"win\",\"winner\":0,\"ended\":9,\"rake\":1,"
        "\"payouts\":[{\"seat\":0,\"amount\":19,\"address\":\"ZBC_A\",\"reason\":\"win\"}]}}",
        0, NULL);
    CHECK(app != NULL);
    char *t = zbc_app_view_text(app, "ZBC_B", 0, NULL);
    CHECK(t != NULL);
    CHECK(strstr(t, "app 77: tictactoe, active, stake 0.00000005 ZBC, pot 0.0000001 ZBC") !=
          NULL);
    CHECK(strstr(t, "seat 1  ZBC_B  (you)") != NULL);
    CHECK(strstr(t, "seat 0  ZBC_A\n") != NULL);
    CHECK(strstr(t, "to move: seat 1, deadline block 20 (in 11 blocks)") != NULL);
    CHECK(strstr(t, "X . .") != NULL);
    CHECK(strstr(t, "app_move  seat 0 1\n") != NULL);
    CHECK(strstr(t, "result: seat 0 (ZBC_A) won 0.00000019 ZBC (rake 0.00000001 ZBC), at "
                    "block 9") != NULL);
    CHECK(strstr(t, "paid 0.00000019 ZBC to ZBC_A (win)") != NULL);
    free(t);
    json_decref(app);
}

/* app show names the seats the wallet holds keys for and prints the
 * params in the game's words (monopoly cash=1), hex when they have none. */
static void test_view_names_params(void)
{
    struct zbc_name_entry e[2] = {{"alice", "ZBC_A"}, {"bob", "ZBC_B"}};
    struct zbc_names nm = {2, e};
    json_t *app = json_loads(
        "{\"id\":\"78\",\"game\":\"monopoly\",\"status\":\"open\",\"stake\":5,"
        "\"pot\":10,\"escrow\":0,\"seated\":3,\"seats\":3,\"height\":9,\"params_hex\":"
        "\"0100\",\"players\":[{\"seat\":0,\"address\":\"ZBC_A\"},{\"seat\":1,"
        "\"address\":\"ZBC_B\"},{\"seat\":2,\"address\":\"ZBC_C\"}],\"history\":[],"
        "\"result\":{\"ending\":\"win\",\"winner\":0,\"ended\":9,\"rake\":1,\"payouts\":"
        "[{\"seat\":0,\"amount\":19,\"address\":\"ZBC_A\",\"reason\":\"win\"}]}}",
        0, NULL);
    CHECK(app != NULL);
    char *t = zbc_app_view_text(app, "ZBC_B", 0, &nm);
    CHECK(t != NULL && strstr(t, "  seat 0  ZBC_A  alice\n") != NULL);
    CHECK(t != NULL && strstr(t, "  seat 1  ZBC_B  bob  (you)\n") != NULL);
    CHECK(t != NULL && strstr(t, "  seat 2  ZBC_C\n") != NULL);
    CHECK(t != NULL && strstr(t, "  paid 0.00000019 ZBC to ZBC_A alice (win)\n") != NULL);
    CHECK(t != NULL && strstr(t, "\nparams: cash=1\n") != NULL);
    CHECK(t != NULL && strstr(t, "expires") == NULL); /* no expires_at given */
    free(t);
    json_object_set_new(app, "expires_at", json_integer(14));
    t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "\nopen: expires at block 14 (in 5 blocks) unless every seat "
                                 "is taken; then every stake comes back\n") != NULL);
    free(t);
    json_object_del(app, "expires_at");
    json_object_set_new(app, "params_hex", json_string("0000")); /* cash 0: no words */
    t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "\nparams: 0000\n") != NULL); /* its engine's hex */
    free(t);
    json_object_set_new(app, "params_hex", json_string("zz")); /* hostile node */
    t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "\nparams: zz (hex)\n") != NULL);
    free(t);
    char big[301];
    memset(big, 'a', 300);
    big[300] = '\0';
    json_object_set_new(app, "params_hex", json_string(big)); /* no words, long */
    t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "\nparams: 150 bytes (--json shows them)\n") != NULL);
    free(t);
    json_object_set_new(app, "game", json_string("battleship")); /* a commitment */
    t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "params") == NULL);
    free(t);
    json_object_set_new(app, "game", json_string("monopoly"));
    json_object_set_new(app, "params_hex", json_string(""));
    t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "params") == NULL);
    free(t);
    json_decref(app);
}

/* A settled bet's history line says win or loss once (it read "…: loss
 * (loss)"): the event's reason is not repeated after the bet's words. */
static void test_view_bet_settle(void)
{
    struct zbc_bet bet = {.game = ZBC_BET_DICE, .direction = 0, .target16 = 4950,
                          .client_seed = "s", .client_seed_len = 1};
    uint8_t params[128];
    char hex[257], text[1024];
    size_t n = zbc_bet_encode(&bet, params, sizeof params);
    zbc_hex_encode(hex, params, n);
    snprintf(text, sizeof text,
             "{\"id\":\"9\",\"type\":16,\"game\":null,\"params_hex\":\"%s\",\"seats\":1,"
             "\"status\":\"finished\",\"players\":[],\"history\":[{\"kind\":\"bet_settle\","
             "\"seq\":2,\"height\":30,\"seat\":0,\"u\":1,\"value\":9285,\"win\":false,"
             "\"amount\":0,\"reason\":\"loss\"}]}", hex);
    json_t *app = json_loads(text, 0, NULL);
    CHECK(app != NULL);
    char *t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "bet_settle seat 0 rolled 92.85 (under 49.50): loss\n") != NULL);
    CHECK(t != NULL && strstr(t, "(loss)") == NULL);
    free(t);
    json_decref(app);
}

/* A battleship reveal's salt is cut in the history (the full notation
 * stays in --json); short words are kept. */
static void test_view_notation_hex(void)
{
    json_t *app = json_loads(
        "{\"id\":\"5\",\"game\":\"battleship\",\"status\":\"active\",\"players\":[],"
        "\"history\":[{\"kind\":\"app_move\",\"seq\":5,\"height\":42,\"seat\":1,\"notation\":"
        "\"reveal ship 71425b7b8841f848bd7277ca90e2f9a8960b83fb8b9eba037bbfcb3206e3e421 fire A1\"},"
        "{\"kind\":\"app_move\",\"seq\":6,\"height\":43,\"seat\":0,\"notation\":\"fire B4\"}]}",
        0, NULL);
    CHECK(app != NULL);
    char *t = zbc_app_view_text(app, "", 0, NULL);
    CHECK(t != NULL && strstr(t, "app_move  seat 1 reveal ship 71425b7b\xe2\x80\xa6 fire A1\n") != NULL);
    CHECK(t != NULL && strstr(t, "app_move  seat 0 fire B4\n") != NULL);
    free(t);
    json_decref(app);
}

/* zbc app resign --wait says what the resign did, from the app after it. */
static void test_resign_text(void)
{
    char out[700];
    json_t *app = json_loads("{\"status\":\"open\",\"stake\":150000000}", 0, NULL);
    CHECK(resign_text(app, "7", out, sizeof out) > 0);
    CHECK_EQ_STR(out, "you left app 7: your stake of 1.5 ZBC is back; the app stays open for "
                      "the others");
    json_object_set_new(app, "status", json_string("abandoned"));
    CHECK(resign_text(app, "7", out, sizeof out) > 0);
    CHECK_EQ_STR(out, "you left app 7, the last seat: your stake of 1.5 ZBC is back and the app "
                      "is abandoned");
    json_object_set_new(app, "status", json_string("active"));
    CHECK(resign_text(app, "7", out, sizeof out) > 0);
    CHECK_EQ_STR(out, "you left play in app 7: your seat was already out of play, so no money "
                      "moves and the game goes on");
    json_object_del(app, "status"); /* a hostile node: no status */
    CHECK(resign_text(app, "7", out, sizeof out) == -1);
    CHECK(resign_text(app, "7", out, 8) == -1);
    json_decref(app);
}

static void test_app_id(void)
{
    uint8_t h[32] = {0x01, 0x02, 0, 0, 0, 0, 0, 0x80};
    CHECK(zbc_app_id_of_hash(h) == 0x8000000000000201ULL);
    uint64_t id = 0;
    CHECK(zbc_app_parse_id(&id, "18446744073709551615") && id == UINT64_MAX);
    CHECK(!zbc_app_parse_id(&id, "18446744073709551616"));
    CHECK(!zbc_app_parse_id(&id, "12a"));
    CHECK(!zbc_app_parse_id(&id, ""));
}

static void test_stream_reader(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    struct stream s = {.fd = sv[0]};
    const char *wire = "HTTP/1.0 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
                       ": zbc event stream\nretry: 1000\n\n"
                       ": keep-alive\n\n"
                       "id: 4-1\nevent: app_move\ndata: {\"height\":4}\n\n"
                       "id: 4-2\nevent: app_end\ndata: {}\n\n";
    CHECK(write(sv[1], wire, strlen(wire)) == (ssize_t)strlen(wire));
    CHECK_EQ_INT(stream_next(&s, -1), 1); /* header, comments skipped */
    CHECK_EQ_INT(stream_next(&s, 100), 1);
    CHECK_EQ_INT(stream_next(&s, 50), -1); /* nothing more yet */
    const char *partial = "id: 5-0\nevent: app_move\ndata: {}\n";
    CHECK(write(sv[1], partial, strlen(partial)) == (ssize_t)strlen(partial));
    CHECK_EQ_INT(stream_next(&s, 50), -1); /* incomplete message */
    CHECK(write(sv[1], "\n", 1) == 1);
    CHECK_EQ_INT(stream_next(&s, 50), 1);
    close(sv[1]);
    CHECK_EQ_INT(stream_next(&s, -1), 0); /* end of stream */
    close(sv[0]);
}

int main(void)
{
    TEST_RUN(test_hundredths);
    TEST_RUN(test_bet_words);
    TEST_RUN(test_game_params);
    TEST_RUN(test_fleets);
    TEST_RUN(test_view_text);
    TEST_RUN(test_view_names_params);
    TEST_RUN(test_resign_text);
    TEST_RUN(test_view_bet_settle);
    TEST_RUN(test_view_notation_hex);
    TEST_RUN(test_app_id);
    TEST_RUN(test_stream_reader);
    return test_summary("wallet_app_cmds");
}
