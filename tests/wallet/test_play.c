/* Playing without a node (docs/wallet.md "Playing"): the PGN movetext
 * replayed from a history fixture (and refused for a history that does
 * not replay), PGN termination words, and when `app watch` says "your
 * move".  Includes the command files to reach their static helpers. */
#include <sys/socket.h>

#include "node/wallet/app_watch.c"
#include "node/wallet/cmd_pgn.c"
#include "tests/testlib.h"

static json_t *load(const char *text)
{
    json_t *j = json_loads(text, 0, NULL);
    CHECK(j != NULL);
    return j;
}

/* history entries of app_move with these move_hex values, seats alternating
 * from `white` */
static json_t *chess_app(const char *const *hex, int n, int white)
{
    json_t *h = json_array();
    json_array_append_new(h, json_pack("{s:s, s:i}", "kind", "app_activate", "seat", white));
    for (int i = 0; i < n; i++)
        json_array_append_new(h, json_pack("{s:s, s:i, s:s}", "kind", "app_move", "seat",
                                           (white + i) % 2, "move_hex", hex[i]));
    json_array_append_new(h, json_pack("{s:s, s:n}", "kind", "app_end", "seat"));
    return json_pack("{s:o}", "history", h);
}

static int run_movetext(json_t *app, int white, char *out, size_t cap, struct zbc_wfail *f)
{
    struct zbc_text t;
    zbc_text_init(&t, out, cap);
    int ok = movetext(&t, app, (uint8_t)white, "9", f);
    return ok && zbc_text_result(&t) >= 0;
}

static void test_movetext(void)
{
    /* fool's mate: f2f3 e7e5 g2g4 d8h4 (squares 13-21, 52-36, 14-30, 59-31) */
    const char *const fool[] = {"0d15", "3424", "0e1e", "3b1f"};
    char out[512];
    struct zbc_wfail f = {0};
    for (int white = 0; white < 2; white++) {
        json_t *app = chess_app(fool, 4, white);
        CHECK(run_movetext(app, white, out, sizeof out, &f));
        CHECK_EQ_STR(out, "1. f3 e5 2. g4 Qh4#");
        json_decref(app);
    }
    /* lines wrap before 80 characters (15 plies: the 16th would be the
     * start position's fifth occurrence, a draw) */
    const char *const knights[] = {"0615", "3e2d", "1506", "2d3e"};
    const char *many[15];
    for (int i = 0; i < 15; i++)
        many[i] = knights[i % 4];
    json_t *app = chess_app(many, 15, 0);
    CHECK(run_movetext(app, 0, out, sizeof out, &f));
    CHECK_EQ_STR(out, "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. Nf3 Nf6 6. Ng1 Ng8 7. Nf3 "
                      "Nf6\n8. Ng1");
    for (char *line = out; line != NULL; line = strchr(line, '\n')) {
        line += *line == '\n';
        char *end = strchr(line, '\n');
        CHECK((end != NULL ? (size_t)(end - line) : strlen(line)) < 80);
        if (end == NULL)
            break;
    }
    json_decref(app);
    /* a history that does not replay: refused with the move's number */
    const char *const bad[][2] = {{"0d15", "zz15"}, {"0d15", "3425"}, {"0d15", "34"},
                                  {"0d15", "3424ff"}};
    for (int i = 0; i < 4; i++) {
        app = chess_app(bad[i], 2, 0);
        CHECK(!run_movetext(app, 0, out, sizeof out, &f));
        CHECK_EQ_INT(f.code, ZBC_EXIT_INTERNAL);
        CHECK(strstr(f.err.msg, "the node's history of app 9 does not replay at move 2") != NULL);
        zbc_wfail_clear(&f);
        json_decref(app);
    }
    /* a move by the wrong seat */
    app = load("{\"history\":[{\"kind\":\"app_move\",\"seat\":1,\"move_hex\":\"0d15\"}]}");
    CHECK(!run_movetext(app, 0, out, sizeof out, &f));
    zbc_wfail_clear(&f);
    json_decref(app);
    app = load("{\"history\":[{\"kind\":\"app_move\",\"seat\":7,\"move_hex\":\"0d15\"}]}");
    CHECK(!run_movetext(app, 0, out, sizeof out, &f));
    zbc_wfail_clear(&f);
    json_decref(app);
    /* no moves: empty movetext */
    app = load("{\"history\":[]}");
    CHECK(run_movetext(app, 1, out, sizeof out, &f));
    CHECK_EQ_STR(out, "");
    json_decref(app);
}

static void test_termination(void)
{
    CHECK_EQ_STR(termination("timeout"), "time forfeit");
    CHECK_EQ_STR(termination("resign"), "normal");
    CHECK_EQ_STR(termination("win"), "normal");
    CHECK_EQ_STR(termination("draw"), "normal");
    CHECK_EQ_STR(termination("expired"), "abandoned");
    CHECK_EQ_STR(termination(NULL), "unterminated");
}

static void test_your_turn(void)
{
    long long rung = -1;
    json_t *app = load("{\"clock_address\":\"ZBC_ME\",\"moves\":3,\"has_pending\":false}");
    CHECK(watch_your_turn(app, "ZBC_ME", &rung));
    CHECK(!watch_your_turn(app, "ZBC_ME", &rung)); /* once per turn */
    CHECK(!watch_your_turn(app, "", &rung));       /* no caller */
    json_decref(app);
    app = load("{\"clock_address\":\"ZBC_ME\",\"moves\":4,\"has_pending\":true}");
    CHECK(!watch_your_turn(app, "ZBC_ME", &rung)); /* a dice move waits for its block */
    json_decref(app);
    app = load("{\"clock_address\":\"ZBC_YOU\",\"moves\":4,\"has_pending\":false}");
    CHECK(!watch_your_turn(app, "ZBC_ME", &rung));
    json_decref(app);
    app = load("{\"clock_address\":\"ZBC_ME\",\"moves\":5,\"has_pending\":false}");
    CHECK(watch_your_turn(app, "ZBC_ME", &rung)); /* the next turn */
    json_decref(app);
    app = load("{\"clock_address\":null,\"moves\":6}");
    CHECK(!watch_your_turn(app, "ZBC_ME", &rung)); /* over: nobody holds the clock */
    json_decref(app);
}

static void test_stream_end_line(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    struct stream st = {.fd = sv[0]};
    const char *wire =
        "HTTP/1.0 200 OK\r\n\r\n: zbc event stream\n\n"
        "id: 21-3\nevent: app_end\ndata: {\"kind\":\"app_end\",\"height\":21,\"seat\":1,"
        "\"outcome\":\"resign\",\"winner\":0,\"resigned\":1,\"reason\":\"resign\"}\n\n"
        "id: 21-4\nevent: app_payout\ndata: {\"kind\":\"app_payout\",\"height\":21}\n\n"
        "id: 22-0\nevent: app_end\ndata: not json\n\n";
    CHECK(write(sv[1], wire, strlen(wire)) == (ssize_t)strlen(wire));
    char line[320];
    CHECK_EQ_INT(stream_next(&st, 1000), 1);
    json_t *ev = load(st.data);
    CHECK(end_line(ev, line, sizeof line) > 0);
    CHECK_EQ_STR(line, "block 21: the app ended: resign: seat 1 resigned, seat 0 won");
    CHECK_EQ_INT(end_line(ev, line, 20), -1); /* too small */
    CHECK_EQ_STR(line, "");
    json_decref(ev);
    CHECK_EQ_INT(stream_next(&st, 1000), 1);
    ev = load(st.data);
    CHECK_EQ_INT(end_line(ev, line, sizeof line), -1); /* not an end */
    json_decref(ev);
    CHECK_EQ_INT(stream_next(&st, 1000), 1);
    CHECK_EQ_STR(st.data, "not json");
    CHECK_EQ_INT(end_line(NULL, line, sizeof line), -1);
    /* an older node's history entry: the reason only, never the bare seat */
    json_t *app = load("{\"history\":[{\"kind\":\"app_move\"},{\"kind\":\"app_end\","
                       "\"height\":9,\"seat\":1,\"reason\":\"resign\"}]}");
    CHECK(end_line(last_entry(app, "app_end"), line, sizeof line) > 0);
    CHECK_EQ_STR(line, "block 9: the app ended: resign");
    CHECK(last_entry(app, "bet_settle") == NULL);
    json_decref(app);
    close(sv[1]);
    close(sv[0]);
}

int main(void)
{
    TEST_RUN(test_movetext);
    TEST_RUN(test_termination);
    TEST_RUN(test_your_turn);
    TEST_RUN(test_stream_end_line);
    return test_summary("wallet_play");
}
