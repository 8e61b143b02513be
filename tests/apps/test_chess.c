/* Chess engine: perft against independent chess.js counts
 * (tests/vectors/chess/perft.json, produced by gen_perft.mjs), every
 * ending, the simplifications, bad input, and random playouts. */
#include <jansson.h>

#include "apps/engine.h"
#include "apps/games/chess.h"
#include "play_helpers.h"
#include "testlib.h"

static const struct zbc_engine *E;

static void start(struct zbc_game_state *st, uint8_t first)
{
    struct zbc_err err;
    CHECK(E->init(st, 2, NULL, 0, first, NULL, &err));
}

static void fen(struct zbc_game_state *st, const char *text)
{
    struct zbc_err err;
    if (!zbc_chess_from_fen(st, text, &err)) {
        fprintf(stderr, "FEN %s: %s\n", text, err.msg);
        CHECK(0);
    }
}

static void check_fen(const struct zbc_game_state *st, const char *want)
{
    char buf[128];
    CHECK(zbc_chess_to_fen(st, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf, want);
}

/* Perft with bulk counting at the last ply. */
static uint64_t perft(const struct zbc_game_state *st, int depth)
{
    struct zbc_move moves[ZBC_MOVES_MAX];
    size_t n = E->gen_moves(st, moves, ZBC_MOVES_MAX);
    if (depth == 1)
        return n;
    uint64_t total = 0;
    int seat = E->turn(st);
    for (size_t i = 0; i < n; i++) {
        struct zbc_game_state child = *st;
        struct zbc_err err;
        if (!E->apply_move(&child, (uint8_t)seat, moves[i].b, moves[i].len,
                           NULL, &err)) {
            CHECK(0);
            return 0;
        }
        total += perft(&child, depth - 1);
    }
    return total;
}

static void test_perft_vectors(void)
{
    char *text = test_read_file(ZBC_VECTORS_DIR "/chess/perft.json");
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    free(text);
    CHECK(json_is_array(root));
    size_t i;
    json_t *v;
    int done = 0, skipped = 0;
    json_array_foreach(root, i, v) {
        const char *f = json_string_value(json_object_get(v, "fen"));
        int depth = (int)json_integer_value(json_object_get(v, "depth"));
        uint64_t want = (uint64_t)json_integer_value(json_object_get(v, "count"));
        if (ZBC_TEST_SANITIZED && want > 200000) {
            skipped++; /* the gcc build counts it */
            continue;
        }
        struct zbc_game_state st;
        fen(&st, f);
        uint64_t got = perft(&st, depth);
        if (got != want)
            fprintf(stderr, "perft %s depth %d: %llu, want %llu\n", f, depth,
                    (unsigned long long)got, (unsigned long long)want);
        CHECK(got == want);
        done++;
    }
    CHECK(done + skipped >= 25);
    CHECK(done >= 10);
    if (skipped > 0)
        printf("perft: %d vectors of more than 200000 nodes left to the "
               "unsanitized build\n", skipped);
    json_decref(root);
}

/* The published perft(5) of the start position is 4,865,609, of which 258
 * are en-passant captures at ply 5; no castling or promotion is possible
 * within 5 plies and no en passant before ply 5 (perft 1-4 have none), so
 * without en passant the count is 4,865,351. */
static void test_perft_start_depth5(void)
{
    struct zbc_game_state st;
    start(&st, 0);
    if (ZBC_TEST_SANITIZED) { /* perft(4), as published; 5 unsanitized */
        CHECK(perft(&st, 4) == 197281u);
        return;
    }
    CHECK(perft(&st, 5) == 4865609u - 258u);
}

static void test_start_position(void)
{
    struct zbc_game_state a, b;
    uint8_t ea[512], eb[512];
    start(&a, 0);
    fen(&b, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    size_t na = E->encode(&a, ea, sizeof ea), nb = E->encode(&b, eb, sizeof eb);
    CHECK(na == 71 && na == nb);
    CHECK_EQ_MEM(ea, eb, na);
    CHECK_EQ_INT(ea[0], 0);
    CHECK_EQ_INT(ea[1], 4);  /* a1 white rook */
    CHECK_EQ_INT(ea[5], 6);  /* e1 white king */
    CHECK_EQ_INT(ea[61], 12); /* e8 black king */
    CHECK_EQ_INT(ea[68], 0xFF);
    /* the same position after first = 1: seat 1 plays white */
    start(&a, 1);
    CHECK_EQ_INT(E->turn(&a), 1);
    CHECK_EQ_INT(perft(&a, 3), 8902);
    check_fen(&a, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    char buf[1024];
    CHECK(E->render(&a, buf, sizeof buf) > 0);
    CHECK_EQ_STR(buf,
                 "  +-----------------+\n"
                 "8 | r n b q k b n r |\n"
                 "7 | p p p p p p p p |\n"
                 "6 | . . . . . . . . |\n"
                 "5 | . . . . . . . . |\n"
                 "4 | . . . . . . . . |\n"
                 "3 | . . . . . . . . |\n"
                 "2 | P P P P P P P P |\n"
                 "1 | R N B Q K B N R |\n"
                 "  +-----------------+\n"
                 "    a b c d e f g h\n"
                 "white (upper case): seat 1, black (lower case): seat 0\n"
                 "white to move (seat 1)\n");
}

static void test_fools_mate(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 1);
    CHECK_EQ_INT(ph_play(E, &st, "f2f3,e7e5,g2g4,d8h4", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0); /* black = seat 0 */
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
    struct zbc_move moves[ZBC_MOVES_MAX];
    CHECK_EQ_INT(E->gen_moves(&st, moves, ZBC_MOVES_MAX), 0);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "4 | . . . . . . P q |\n") != NULL);
    CHECK(strstr(buf, "last move: d8h4\nresult: black wins by checkmate "
                      "(seat 0)\n") != NULL);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    json_error_t jerr;
    json_t *j = json_loads(buf, 0, &jerr);
    CHECK(j != NULL);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "result")), "win");
    CHECK_EQ_INT(json_integer_value(json_object_get(j, "winner")), 0);
    CHECK_EQ_STR(json_string_value(json_object_get(j, "reason")), "checkmate");
    CHECK_EQ_STR(json_string_value(json_object_get(j, "last_move")), "d8h4");
    CHECK(json_is_true(json_object_get(j, "check")));
    CHECK(json_is_null(json_object_get(j, "turn")));
    CHECK_EQ_STR(json_string_value(json_array_get(json_object_get(j, "board"), 4)),
                 "......Pq");
    json_decref(j);
    /* a move after the end */
    uint8_t mv[2] = {8, 16};
    CHECK(!E->check_move(&st, 1, mv, 2, &err));
    CHECK_EQ_STR(err.msg, "the game is over");
}

static void test_stalemate(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    fen(&st, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    CHECK_EQ_INT(ph_play(E, &st, "f1f7", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw by stalemate\n") != NULL);
    /* stalemate straight from a FEN */
    fen(&st, "k7/2Q5/8/8/8/8/8/K7 b - - 0 1");
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK_EQ_INT(E->turn(&st), ZBC_NOBODY);
}

static void result_of(const char *f, enum zbc_result_kind want)
{
    struct zbc_game_state st;
    struct zbc_result r;
    fen(&st, f);
    E->result(&st, &r);
    if (r.kind != want)
        fprintf(stderr, "result of %s: %d, want %d\n", f, r.kind, want);
    CHECK_EQ_INT(r.kind, want);
}

static void test_insufficient_material(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    /* king takes the last rook: K v K */
    fen(&st, "8/8/8/8/8/8/1r6/K6k w - - 0 1");
    CHECK_EQ_INT(ph_play(E, &st, "a1b2", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    char buf[2048];
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"reason\":\"insufficient material\"") != NULL);
    result_of("8/8/8/8/8/8/8/K6k w - - 0 1", ZBC_RESULT_DRAW);
    result_of("8/8/8/8/8/8/8/KB5k w - - 0 1", ZBC_RESULT_DRAW);
    result_of("8/8/8/8/8/8/8/K5nk w - - 0 1", ZBC_RESULT_DRAW);
    /* bishops on c1 and f8: both dark squares */
    result_of("5b2/8/8/8/8/8/8/K1B4k w - - 0 1", ZBC_RESULT_DRAW);
    /* bishops on c1 (dark) and c8 (light): play on */
    result_of("2b5/8/8/8/8/8/8/K1B4k w - - 0 1", ZBC_RESULT_ONGOING);
    result_of("8/8/8/8/8/8/8/KNN4k w - - 0 1", ZBC_RESULT_ONGOING);
    result_of("8/8/8/8/8/8/8/KN4nk w - - 0 1", ZBC_RESULT_ONGOING);
    result_of("8/8/8/8/8/8/8/KBB4k w - - 0 1", ZBC_RESULT_ONGOING);
    result_of("8/8/8/8/8/8/8/KB4nk w - - 0 1", ZBC_RESULT_ONGOING);
    result_of("8/8/8/8/8/8/P7/K6k w - - 0 1", ZBC_RESULT_ONGOING);
    result_of("7k/8/8/8/8/8/8/KR6 w - - 0 1", ZBC_RESULT_ONGOING);
}

static void test_seventy_five_moves(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    fen(&st, "k7/8/8/8/8/8/8/K6R w - - 148 80");
    CHECK_EQ_INT(ph_play(E, &st, "h1h2", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(ph_play(E, &st, "a8b8", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    check_fen(&st, "1k6/8/8/8/8/8/7R/K7 w - - 150 81");
    char buf[1024];
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw by 75-move rule\n") != NULL);
    /* mate on the 150th ply wins */
    fen(&st, "k7/8/1K6/8/8/8/8/7R w - - 149 80");
    CHECK_EQ_INT(ph_play(E, &st, "h1h8", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_WIN);
    CHECK_EQ_INT(r.winner, 0);
    /* a pawn move resets the clock */
    fen(&st, "k7/8/8/8/8/8/P7/K6R w - - 149 80");
    CHECK_EQ_INT(ph_play(E, &st, "a2a3", &err), -1);
    check_fen(&st, "k7/8/8/8/8/P7/8/K6R b - - 0 80");
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    result_of("k7/8/8/8/8/8/8/K6R w - - 150 80", ZBC_RESULT_DRAW);
}

static void test_fivefold_repetition(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    start(&st, 0);
    const char *cycle = "g1f3,g8f6,f3g1,f6g8";
    for (int k = 0; k < 3; k++)
        CHECK_EQ_INT(ph_play(E, &st, cycle, &err), -1);
    /* start position seen 4 times: play on */
    CHECK_EQ_INT(ph_play(E, &st, "g1f3,g8f6,f3g1", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    char buf[2048];
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"repetitions\":4") != NULL);
    CHECK_EQ_INT(ph_play(E, &st, "f6g8", &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK(E->render(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw by fivefold repetition\n") != NULL);
    /* the history survives encode/decode */
    CHECK(ph_roundtrip(E, &st));
    /* an irreversible move in between starts the count again */
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "g1f3,g8f6,f3g1,f6g8,g1f3,g8f6,f3g1,f6g8,"
                         "e2e3,e7e6", &err), -1);
    for (int k = 0; k < 3; k++)
        CHECK_EQ_INT(ph_play(E, &st, cycle, &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK_EQ_INT(ph_play(E, &st, cycle, &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
}

/* The same board with the other side to move is another position: after
 * white loses a tempo by triangulating, the start board with black to
 * move is new, and five occurrences of it are needed for the draw. */
static void test_repetition_needs_same_side(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    struct zbc_result r;
    char buf[2048];
    fen(&st, "n6k/8/8/8/8/8/8/K6N w - - 0 1");
    CHECK_EQ_INT(ph_play(E, &st, "a1b1,h8g8,b1b2,g8h8,b2a1", &err), -1);
    check_fen(&st, "n6k/8/8/8/8/8/8/K6N b - - 5 3");
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"repetitions\":1") != NULL);
    const char *cycle = "h8g8,a1b1,g8h8,b1a1";
    for (int k = 0; k < 3; k++)
        CHECK_EQ_INT(ph_play(E, &st, cycle, &err), -1);
    E->result(&st, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_ONGOING);
    CHECK(E->to_json(&st, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "\"repetitions\":4") != NULL);
    /* a decoded copy counts the same */
    uint8_t enc[512];
    struct zbc_game_state st2;
    size_t n = E->encode(&st, enc, sizeof enc);
    CHECK(n > 0 && E->decode(&st2, enc, n, &err));
    CHECK_EQ_INT(ph_play(E, &st2, cycle, &err), -1);
    E->result(&st2, &r);
    CHECK_EQ_INT(r.kind, ZBC_RESULT_DRAW);
    CHECK(E->render(&st2, buf, sizeof buf) > 0);
    CHECK(strstr(buf, "result: draw by fivefold repetition\n") != NULL);
}

static void test_promotion(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t mv[8];
    size_t len;
    fen(&st, "1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    CHECK(!E->parse_move(&st, 0, "a7a8n", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "pawns always promote to a queen: write a7a8 or "
                          "a7a8q");
    CHECK(!E->parse_move(&st, 0, "a1a2q", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "a1a2q: only a pawn reaching the last rank "
                          "promotes");
    CHECK(E->parse_move(&st, 0, "a7a8q", mv, sizeof mv, &len, &err));
    CHECK(len == 2 && mv[0] == 48 && mv[1] == 56);
    CHECK(E->parse_move(&st, 0, "A7A8Q", mv, sizeof mv, &len, &err));
    CHECK(len == 2 && mv[0] == 48 && mv[1] == 56);
    char out[8];
    CHECK(E->format_move(&st, mv, len, out, sizeof out));
    CHECK_EQ_STR(out, "a7a8");
    /* capture-promotion on b8 */
    CHECK_EQ_INT(ph_play(E, &st, "a7b8q", &err), -1);
    check_fen(&st, "1Q5k/8/8/8/8/8/8/K7 b - - 0 1");
    /* black promotes on rank 1 */
    fen(&st, "7k/8/8/8/8/8/p7/7K b - - 0 1");
    CHECK_EQ_INT(ph_play(E, &st, "a2a1", &err), -1);
    check_fen(&st, "7k/8/8/8/8/8/8/q6K w - - 0 2");
}

static void test_no_castling_no_en_passant(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    fen(&st, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    before = st;
    uint8_t mv[2] = {4, 6}; /* e1g1 */
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: e1g1 is not a legal king move "
                          "(there is no castling)");
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    /* e5xd6 "en passant" is refused after d7d5 */
    fen(&st, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1");
    CHECK_EQ_INT(ph_play(E, &st, "d7d5", &err), -1);
    mv[0] = 36; /* e5 */
    mv[1] = 43; /* d6 */
    CHECK(!E->check_move(&st, 0, mv, 2, &err));
    CHECK_EQ_STR(err.msg, "illegal move: e5d6 is not a legal pawn move");
}

static void test_bad_moves(void)
{
    struct zbc_game_state st, before;
    struct zbc_err err;
    uint8_t mv[3] = {12, 36, 0};
    start(&st, 0);
    before = st;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: e2e5 is not a legal pawn move");
    CHECK(!E->apply_move(&st, 1, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "not your turn: seat 0 is to move");
    CHECK(!E->apply_move(&st, 0, mv, 3, NULL, &err));
    CHECK_EQ_STR(err.msg, "a chess move is 2 bytes (from, to), not 3");
    CHECK(!E->apply_move(&st, 0, mv, 1, NULL, &err));
    mv[0] = 64;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "from square 64 out of range 0-63");
    mv[0] = 12;
    mv[1] = 200;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "to square 200 out of range 0-63");
    mv[0] = 20;
    mv[1] = 28;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: no piece on e3");
    mv[0] = 52;
    mv[1] = 44;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: the piece on e7 is black's and "
                          "white is to move");
    mv[0] = 1; /* Nb1xd2: own piece */
    mv[1] = 11;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: b1d2 is not a legal knight move");
    mv[0] = 2; /* bishop through its own pawn */
    mv[1] = 20;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: c1e3 is not a legal bishop move");
    CHECK(memcmp(&st, &before, sizeof st) == 0);
    /* a pinned knight */
    fen(&st, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    mv[0] = 12;
    mv[1] = 29;
    CHECK(!E->apply_move(&st, 0, mv, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "illegal move: e2f4 leaves the white king in check");
    /* notation */
    size_t len;
    CHECK(!E->parse_move(&st, 0, "e2", mv, sizeof mv, &len, &err)); /* SAN: a pawn to e2 */
    CHECK_EQ_STR(err.msg, "illegal move: e2: no white pawn can move to e2");
    CHECK(!E->parse_move(&st, 0, "e2x", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "chess move 'e2x' must look like e2e4 (or e7e8q for a promotion) "
                          "or SAN such as Nf3, exd5, Rad1, e8=Q");
    CHECK(!E->parse_move(NULL, 0, "e2", mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, "chess move 'e2' must look like e2e4 (or e7e8q for a promotion); "
                          "SAN needs the position");
    CHECK(!E->parse_move(&st, 0, "e2e9", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 0, "i2e4", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 0, "e2e4qq", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 0, "", mv, sizeof mv, &len, &err));
    CHECK(!E->parse_move(&st, 0, "e2e4", mv, 1, &len, &err));
    CHECK(E->parse_move(NULL, 0, "h8a1", mv, sizeof mv, &len, &err));
    CHECK(len == 2 && mv[0] == 63 && mv[1] == 0);
    char out[8];
    CHECK(E->format_move(&st, mv, 2, out, sizeof out));
    CHECK_EQ_STR(out, "h8a1");
    CHECK(!E->format_move(&st, mv, 1, out, sizeof out));
    CHECK(!E->format_move(&st, mv, 2, out, 4));
    mv[0] = 64;
    CHECK(!E->format_move(&st, mv, 2, out, sizeof out));
}

/* Parses text in st; returns the move as "from,to" squares or the error. */
static void check_san(const struct zbc_game_state *st, const char *text, int from, int to)
{
    uint8_t mv[8];
    size_t len = 0;
    struct zbc_err err;
    if (!E->parse_move(st, (uint8_t)E->turn(st), text, mv, sizeof mv, &len, &err)) {
        fprintf(stderr, "SAN %s: %s\n", text, err.msg);
        CHECK(0);
        return;
    }
    CHECK_EQ_INT(len, 2);
    CHECK_EQ_INT(mv[0], from);
    CHECK_EQ_INT(mv[1], to);
}

static void check_san_refused(const struct zbc_game_state *st, const char *text,
                              const char *why)
{
    uint8_t mv[8];
    size_t len = 0;
    struct zbc_err err;
    CHECK(!E->parse_move(st, 0, text, mv, sizeof mv, &len, &err));
    CHECK_EQ_STR(err.msg, why);
}

static void check_san_out(const struct zbc_game_state *st, const char *coord, const char *want)
{
    uint8_t mv[8];
    size_t len = 0;
    char out[16];
    struct zbc_err err;
    CHECK(E->parse_move(st, 0, coord, mv, sizeof mv, &len, &err));
    CHECK_EQ_INT(zbc_chess_san(st, mv, len, out, sizeof out), (int)strlen(want));
    CHECK_EQ_STR(out, want);
}

static void test_san(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    start(&st, 0);
    check_san(&st, "Nf3", 6, 21);
    check_san(&st, "e4", 12, 28);
    check_san(&st, "Nc3", 1, 18);
    check_san(&st, "Ng1f3", 6, 21); /* fully disambiguated is accepted */
    check_san(&st, "Nf3+!?", 6, 21); /* marks and annotations are ignored */
    /* refusals at the start; NULL: the syntax sentence */
    static const char *const refused[][2] = {
        {"O-O", "O-O: there is no castling in this chess (a king moves one square)"},
        {"O-O-O+", "O-O-O: there is no castling in this chess (a king moves one square)"},
        {"0-0", "0-0: there is no castling in this chess (a king moves one square)"},
        {"Bc4", "illegal move: Bc4: no white bishop can move to c4"},
        {"e5", "illegal move: e5: no white pawn can move to e5"},
        {"Nxf3", "illegal move: Nxf3 captures nothing on f3"},
        {"exd3", "illegal move: exd3 captures nothing on d3 (there is no en passant)"},
        {"Nf3x", NULL}, {"nf3", NULL}, {"e2e4e5", NULL}, {"ed3", NULL}, {"Kx", NULL},
        {"N", NULL}, {"=Q", NULL}, {"e8=", NULL}, {"+", NULL},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        char want[160];
        if (refused[i][1] == NULL)
            snprintf(want, sizeof want, "chess move '%s' must look like e2e4 (or e7e8q for a "
                     "promotion) or SAN such as Nf3, exd5, Rad1, e8=Q", refused[i][0]);
        check_san_refused(&st, refused[i][0], refused[i][1] != NULL ? refused[i][1] : want);
    }
    check_san_refused(&st, "ThisIsAVeryLongMove", "chess move 'ThisIsAVeryLongM' must look "
                      "like e2e4 (or e7e8q for a promotion) or SAN such as Nf3, exd5, Rad1, "
                      "e8=Q");
    /* captures by pawns, black to move */
    CHECK_EQ_INT(ph_play(E, &st, "e2e4, d7d5", &err), -1);
    check_san(&st, "exd5", 28, 35);
    check_san_out(&st, "e4d5", "exd5");
    CHECK_EQ_INT(ph_play(E, &st, "e4d5", &err), -1);
    check_san(&st, "Qxd5", 59, 35);
    check_san_out(&st, "d8d5", "Qxd5");
    /* fool's mate in SAN */
    start(&st, 1);
    check_san_out(&st, "f2f3", "f3");
    CHECK_EQ_INT(ph_play(E, &st, "f2f3, e7e5, g2g4", &err), -1);
    check_san_out(&st, "d8h4", "Qh4#");
    check_san(&st, "Qh4#", 59, 31);
    check_san(&st, "Qh4", 59, 31);
    /* check mark */
    fen(&st, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    check_san_out(&st, "a1a8", "Ra8+");
    /* ambiguity and disambiguation by file, rank or both */
    fen(&st, "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    check_san_refused(&st, "Nd2", "Nd2 is ambiguous: b1d2 or f3d2 (add the file or rank it "
                                  "comes from)");
    check_san(&st, "Nbd2", 1, 11);
    check_san(&st, "Nfd2", 21, 11);
    check_san(&st, "N1d2", 1, 11);
    check_san(&st, "N3d2", 21, 11);
    check_san_out(&st, "b1d2", "Nbd2");
    check_san_out(&st, "f3d2", "Nfd2");
    check_san_out(&st, "f3e5", "Ne5");
    fen(&st, "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    check_san_out(&st, "a1a3", "R1a3");
    check_san_out(&st, "a5a3", "R5a3");
    check_san(&st, "R5a3", 32, 16);
    check_san_refused(&st, "Ra3", "Ra3 is ambiguous: a1a3 or a5a3 (add the file or rank it "
                                  "comes from)");
    fen(&st, "K7/8/k7/8/4Q2Q/8/8/7Q w - - 0 1");
    check_san_out(&st, "h4e1", "Qh4e1");
    check_san_out(&st, "e4e1", "Qee1");
    check_san_out(&st, "h1e1", "Q1e1");
    check_san(&st, "Qh4e1", 31, 4);
    /* a pinned piece: the engine's reason */
    fen(&st, "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    check_san_refused(&st, "Nf4", "illegal move: e2f4 leaves the white king in check");
    /* promotion: =Q, Q, or nothing; never another piece */
    fen(&st, "1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    check_san(&st, "a8=Q", 48, 56);
    check_san(&st, "a8Q", 48, 56);
    check_san(&st, "a8", 48, 56);
    check_san(&st, "axb8=Q+", 48, 57);
    check_san_out(&st, "a7a8", "a8=Q"); /* the knight on b8 blocks the check */
    check_san_out(&st, "a7b8", "axb8=Q+");
    check_san_refused(&st, "a8=N", "pawns always promote to a queen: write a8=Q");
    check_san_refused(&st, "Ka2=Q", "Ka2=Q: only a pawn reaching the last rank promotes");
    /* an illegal move has no SAN */
    uint8_t bad[2] = {0, 63};
    char out[16];
    CHECK_EQ_INT(zbc_chess_san(&st, bad, 2, out, sizeof out), -1);
    CHECK_EQ_INT(zbc_chess_san(&st, bad, 1, out, sizeof out), -1);
    uint8_t ok[2] = {48, 56};
    CHECK_EQ_INT(zbc_chess_san(&st, ok, 2, out, 3), -1); /* cap too small */
    /* format_move stays coordinates */
    CHECK(E->format_move(&st, ok, 2, out, sizeof out));
    CHECK_EQ_STR(out, "a7a8");
}

/* SAN of every legal move parses back to that move, all SANs of a position
 * differ, over random playouts. */
static void test_san_round_trip(void)
{
    uint64_t rng = 8128;
    static struct zbc_move moves[ZBC_MOVES_MAX];
    long checked = 0;
    for (int game = 0; game < 20; game++) {
        struct zbc_game_state st;
        start(&st, (uint8_t)(game & 1));
        for (int ply = 0; ply < 400 && E->turn(&st) != ZBC_NOBODY; ply++) {
            size_t n = E->gen_moves(&st, moves, ZBC_MOVES_MAX);
            char sans[256][16];
            CHECK(n > 0 && n <= 256);
            for (size_t i = 0; i < n && i < 256; i++) {
                uint8_t mv[8];
                size_t len = 0;
                struct zbc_err err;
                CHECK(zbc_chess_san(&st, moves[i].b, moves[i].len, sans[i], sizeof sans[i]) > 0);
                if (!E->parse_move(&st, (uint8_t)E->turn(&st), sans[i], mv, sizeof mv, &len,
                                   &err)) {
                    fprintf(stderr, "SAN %s does not parse: %s\n", sans[i], err.msg);
                    CHECK(0);
                    continue;
                }
                CHECK(len == 2 && mv[0] == moves[i].b[0] && mv[1] == moves[i].b[1]);
                for (size_t j = 0; j < i; j++)
                    CHECK(strcmp(sans[i], sans[j]) != 0);
                checked++;
            }
            size_t pick = (size_t)(ph_rand(&rng) % n);
            struct zbc_err err;
            CHECK(E->apply_move(&st, (uint8_t)E->turn(&st), moves[pick].b, 2, NULL, &err));
        }
    }
    printf("chess SAN round trips: %ld moves\n", checked);
    CHECK(checked > 10000);
}

static void test_bad_params(void)
{
    struct zbc_game_state st;
    struct zbc_err err;
    uint8_t p[1] = {0};
    CHECK(!E->check_params(3, NULL, 0, &err));
    CHECK_EQ_STR(err.msg, "chess takes 2 to 2 seats, not 3");
    CHECK(!E->check_params(2, p, 1, &err));
    CHECK_EQ_STR(err.msg, "chess takes no params (got 1 bytes)");
    CHECK(!E->init(&st, 2, NULL, 0, 2, NULL, &err));
    CHECK_EQ_STR(err.msg, "first seat 2 out of range 0-1");
    CHECK(!E->init(&st, 1, NULL, 0, 0, NULL, &err));
}

static void bad_fen(const char *f, const char *want)
{
    struct zbc_game_state st;
    struct zbc_err err;
    CHECK(!zbc_chess_from_fen(&st, f, &err));
    if (want != NULL)
        CHECK_EQ_STR(err.msg, want);
}

static void test_bad_fen(void)
{
    bad_fen("", "FEN needs 4 or 6 fields, not 0");
    bad_fen("8/8/8/8/8/8/8/K6k w - - 0", "FEN needs 4 or 6 fields, not 5");
    bad_fen("8/8/8/8/8/8/8/K6k x - -", "FEN side to move must be w or b");
    bad_fen("8/8/8/8/8/8/8/K6k w KX -", "bad FEN castling field");
    bad_fen("8/8/8/8/8/8/8/K6k w - e4", "bad FEN en-passant field");
    bad_fen("8/8/8/8/8/8/8/K6k w - - 151 1",
            "FEN halfmove clock: 151 is out of range 0-150");
    bad_fen("8/8/8/8/8/8/8/K6k w - - 0 0",
            "FEN fullmove number: 0 is out of range 1-9999");
    bad_fen("8/8/8/8/8/8/8/K7k w - -", "FEN rank 1 has more than 8 squares");
    bad_fen("8/8/8/8/8/8/K6k w - -", "FEN board must have 8 ranks of 8 squares");
    bad_fen("8/8/8/8/8/8/8/K6x w - -", "bad FEN piece letter 'x'");
    bad_fen("8/8/8/8/8/8/8/K6K w - -",
            "FEN position: white has 2 kings, needs exactly 1");
    bad_fen("8/8/8/8/8/8/8/K7 w - -",
            "FEN position: black has 0 kings, needs exactly 1");
    bad_fen("P7/8/8/8/8/8/8/K6k w - -", "FEN position: pawn on a8 (first or "
                                        "last rank)");
    bad_fen("8/8/8/8/8/8/8/K5Rk w - -", "FEN position: white is to move but "
                                        "the black king is in check");
    bad_fen("8/8/8/8/8/8/PPPPPPPP/QQK4k w - -",
            "FEN position: white has more promoted pieces than missing pawns");
    bad_fen("8/8/8/8/8/P7/PPPPPPPP/K6k w - -",
            "FEN position: white has 9 pawns, at most 8");
    bad_fen("8/8/8/8/8/8/8/K6k w - - 0 1 x", "FEN has more than 6 fields");
    bad_fen("8/8/8/8/8/8/8/K6k w - - 0 123456789",
            "FEN move counters too long");
    bad_fen("RRRRRRRk/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - -",
            "FEN position: white has 23 men, at most 16");
    bad_fen("8/8/8/8/8/8/8/K6k w KQkqK -", "bad FEN castling field");
}

static void test_decode_bad(void)
{
    struct zbc_game_state st, tmp;
    struct zbc_err err;
    uint8_t enc[512], bad[512];
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "e2e4,e7e5,g1f3,b8c6,f3g1", &err), -1);
    size_t n = E->encode(&st, enc, sizeof enc);
    CHECK_EQ_INT(n, 71 + 2 * 3);
    CHECK_EQ_INT(enc[70], 3);
    CHECK_EQ_INT(enc[65], 2); /* base ply: after e7e5 */
    CHECK_EQ_INT(enc[68], 52); /* last irreversible move e7e5 */
    CHECK_EQ_INT(enc[69], 36);
    ph_decode_garbage(E, &st, 7);
    memcpy(bad, enc, n);
    bad[0] = 2;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "white seat 2 out of range 0-1");
    memcpy(bad, enc, n);
    bad[70] = 4;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "chess state with 4 history moves must be 79 bytes, "
                          "not 77");
    memcpy(bad, enc, n);
    bad[1 + 12] = 13;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "bad piece code 13 on square 12");
    /* a history move that is not legal (g1 knight to g3) */
    memcpy(bad, enc, n);
    bad[n - 1] = 22;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "history move 3: illegal move: f3g3 is not a legal "
                          "knight move");
    /* a pawn move inside the reversible history */
    start(&st, 0);
    n = E->encode(&st, enc, sizeof enc);
    enc[70] = 1;
    enc[71] = 12;
    enc[72] = 20;
    CHECK(!E->decode(&tmp, enc, n + 2, &err));
    CHECK_EQ_STR(err.msg, "history move 1 is a pawn move or capture");
    enc[70] = 0;
    enc[67] = 151;
    CHECK(!E->decode(&tmp, enc, n, &err));
    CHECK_EQ_STR(err.msg, "halfmove clock 151 above 150");
    enc[67] = 0;
    enc[68] = 12;
    enc[69] = 28;
    CHECK(!E->decode(&tmp, enc, n, &err));
    CHECK_EQ_STR(err.msg, "last irreversible move needs ply > 0 and halfmove "
                          "clock 0");
    CHECK(!E->decode(&tmp, enc, 3, &err));
    CHECK_EQ_STR(err.msg, "chess state is 3 bytes, at least 71 needed");
    /* moves after a finished game */
    fen(&st, "k7/8/8/8/8/8/8/K6R w - - 149 80");
    CHECK_EQ_INT(ph_play(E, &st, "h1h2", &err), -1);
    n = E->encode(&st, enc, sizeof enc);
    CHECK_EQ_INT(n, 73);
    enc[70] = 2;
    enc[73] = 56;
    enc[74] = 57;
    CHECK(!E->decode(&tmp, enc, 75, &err));
    CHECK_EQ_STR(err.msg, "2 history moves after halfmove clock 149 exceed 150");
    fen(&st, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    CHECK_EQ_INT(ph_play(E, &st, "f1f7", &err), -1);
    n = E->encode(&st, enc, sizeof enc);
    enc[70] = 2;
    enc[73] = 63;
    enc[74] = 62;
    CHECK(!E->decode(&tmp, enc, 75, &err));
    CHECK_EQ_STR(err.msg, "history move 2 follows the end of the game");
    /* the last irreversible move must fit the board */
    start(&st, 0);
    CHECK_EQ_INT(ph_play(E, &st, "e2e4", &err), -1);
    n = E->encode(&st, enc, sizeof enc);
    CHECK_EQ_INT(n, 71);
    memcpy(bad, enc, n);
    bad[68] = 12;
    bad[69] = 12;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "bad last irreversible move 12-12");
    bad[69] = 64;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "bad last irreversible move 12-64");
    bad[68] = 11; /* d2 is not empty */
    bad[69] = 28;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "last irreversible move 11-28 does not fit the "
                          "board");
    bad[68] = 12; /* e2-e5: e5 holds no white piece */
    bad[69] = 36;
    CHECK(!E->decode(&tmp, bad, n, &err));
    CHECK_EQ_STR(err.msg, "last irreversible move 12-36 does not fit the "
                          "board");
    /* the ply counter: 65535 plies played, black to move */
    start(&st, 0);
    n = E->encode(&st, enc, sizeof enc);
    enc[65] = 0xFF;
    enc[66] = 0xFF;
    CHECK(E->decode(&tmp, enc, n, &err));
    CHECK_EQ_INT(E->turn(&tmp), 1);
    uint8_t mv[2] = {57, 42}; /* b8c6 */
    CHECK(!E->check_move(&tmp, 1, mv, 2, &err));
    CHECK_EQ_STR(err.msg, "ply counter would overflow");
    enc[70] = 1;
    enc[71] = 57;
    enc[72] = 42;
    CHECK(!E->decode(&tmp, enc, n + 2, &err));
    CHECK_EQ_STR(err.msg, "ply count overflows");
}

static void test_random_playouts(void)
{
    int counts[3], games = test_scaled(400);
    ph_random_games(E, 2, NULL, 0, games, 20000, 12345, counts);
    CHECK_EQ_INT(counts[0], 0);
    CHECK_EQ_INT(counts[1] + counts[2], games);
    printf("chess random games: %d wins, %d draws\n", counts[1], counts[2]);
}

int main(void)
{
    E = zbc_engine_by_name("chess");
    if (E == NULL || zbc_engine_by_type(2) != E) {
        fprintf(stderr, "chess engine not registered\n");
        return 1;
    }
    TEST_RUN(test_perft_vectors);
    TEST_RUN(test_perft_start_depth5);
    TEST_RUN(test_start_position);
    TEST_RUN(test_fools_mate);
    TEST_RUN(test_stalemate);
    TEST_RUN(test_insufficient_material);
    TEST_RUN(test_seventy_five_moves);
    TEST_RUN(test_fivefold_repetition);
    TEST_RUN(test_repetition_needs_same_side);
    TEST_RUN(test_promotion);
    TEST_RUN(test_no_castling_no_en_passant);
    TEST_RUN(test_bad_moves);
    TEST_RUN(test_san);
    TEST_RUN(test_san_round_trip);
    TEST_RUN(test_bad_params);
    TEST_RUN(test_bad_fen);
    TEST_RUN(test_decode_bad);
    TEST_RUN(test_random_playouts);
    return test_summary("chess");
}
