/* zbc's help and suggestions (docs/wallet.md "Help"): edit distance, "did
 * you mean", the generated game list, every help topic. */
#include "apps/engine.h"
#include "node/wallet/help.h"
#include "node/wallet/textbuf.h"
#include "testlib.h"

static void test_distance(void)
{
    CHECK_EQ_INT(zbc_edit_distance("", ""), 0);
    CHECK_EQ_INT(zbc_edit_distance("chess", "chess"), 0);
    CHECK_EQ_INT(zbc_edit_distance("chesss", "chess"), 1);  /* insertion */
    CHECK_EQ_INT(zbc_edit_distance("lst", "list"), 1);      /* deletion */
    CHECK_EQ_INT(zbc_edit_distance("blance", "balance"), 1);
    CHECK_EQ_INT(zbc_edit_distance("kitten", "sitting"), 3);
    CHECK_EQ_INT(zbc_edit_distance("abc", ""), 3);
    CHECK_EQ_INT(zbc_edit_distance("", "abcd"), 4);
    CHECK_EQ_INT(zbc_edit_distance("ab", "ba"), 1);         /* a swap */
    CHECK_EQ_INT(zbc_edit_distance("lsit", "list"), 1);
    CHECK_EQ_INT(zbc_edit_distance("ca", "abc"), 3);         /* OSA, not Damerau (2) */
    CHECK_EQ_INT(zbc_edit_distance("stauts", "status"), 1);
    /* words longer than 64 bytes are compared on their first 64 */
    char a[200], b[200];
    memset(a, 'x', 199);
    a[199] = '\0';
    memset(b, 'x', 199);
    b[199] = '\0';
    b[150] = 'y';
    CHECK_EQ_INT(zbc_edit_distance(a, b), 0);
}

static void test_suggest(void)
{
    static const char *const games[] = {"tictactoe", "chess", "connect4", "checkers", "dots"};
    CHECK_EQ_STR(zbc_suggest("chesss", games, 5), "chess");
    CHECK_EQ_STR(zbc_suggest("chekers", games, 5), "checkers");
    CHECK_EQ_STR(zbc_suggest("tic", games, 5), "tictactoe"); /* a unique prefix */
    CHECK(zbc_suggest("c", games, 5) == NULL);                /* prefix of three */
    CHECK(zbc_suggest("monopoly", games, 5) == NULL);
    CHECK(zbc_suggest("", games, 5) == NULL);
    CHECK_EQ_STR(zbc_suggest("dtos", games, 5), "dots");      /* a swap */
    CHECK(zbc_suggest("doxy", games, 5) == NULL);             /* 2 edits on 4 letters */
    CHECK_EQ_STR(zbc_suggest("dot", games, 5), "dots");
    char t[128];
    zbc_suggest_text(t, sizeof t, "chesss", games, 5);
    CHECK_EQ_STR(t, " (did you mean chess?)");
    zbc_suggest_text(t, sizeof t, "zzz", games, 5);
    CHECK_EQ_STR(t, "");
    struct zbc_wfail f = {0};
    CHECK(!zbc_fail_unknown(&f, "game", "chesss", games, 5));
    CHECK_EQ_INT(f.code, ZBC_EXIT_USAGE);
    CHECK_EQ_STR(f.err.msg, "unknown game 'chesss' (did you mean chess?); games: tictactoe, "
                            "chess, connect4, checkers, dots");
}

/* Every engine of the registry is listed with its seats and an example;
 * each params example's first word is accepted by the engine. */
static void test_games(void)
{
    char *g = zbc_help_games();
    CHECK(g != NULL);
    for (const struct zbc_engine *const *e = zbc_engines(); *e != NULL; e++) {
        const char *ex = zbc_help_game_example((*e)->name);
        CHECK(ex != NULL);
        if (ex == NULL)
            fprintf(stderr, "no notation example for %s in node/wallet/help.c\n", (*e)->name);
        char line[64];
        snprintf(line, sizeof line, "\n  %-11s %u", (*e)->name, (*e)->min_seats);
        CHECK(g != NULL && strstr(g, line) != NULL);
        if (g != NULL && ex != NULL)
            CHECK(strstr(g, ex) != NULL);
        /* the params example, when the game has one */
        snprintf(line, sizeof line, "\n  %-11s ", (*e)->name);
        const char *row = g != NULL ? strstr(g, line) : NULL;
        const char *p = row != NULL ? strstr(row, "--params ") : NULL;
        const char *nl = row != NULL ? strchr(row + 1, '\n') : NULL;
        if (p != NULL && nl != NULL && p < nl) {
            char word[64];
            size_t n = strcspn(p + 9, " \n");
            snprintf(word, sizeof word, "%.*s", (int)n, p + 9);
            uint8_t params[64];
            size_t len = 0;
            struct zbc_err err;
            CHECK((*e)->params_word != NULL);
            CHECK(zbc_engine_params_from_text(*e, word, params, sizeof params, &len, &err));
            CHECK((*e)->check_params((*e)->min_seats, params, len, &err));
        }
    }
    CHECK(zbc_help_game_example("nosuchgame") == NULL);
    CHECK(g != NULL && strstr(g, "dice under|over") != NULL);
    CHECK(g != NULL && strstr(g, "withdraws your") != NULL);
    free(g);
}

static char *help_of(int n, const char *const *topic, int *ok, struct zbc_wfail *f)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    *ok = zbc_help_print(fp, n, topic, f);
    fclose(fp);
    return text;
}

static void test_topics(void)
{
    static const char *const topics[][2] = {
        {"key", NULL},       {"key", "new"},      {"key", "import"},  {"key", "list"},
        {"key", "show"},     {"key", "derive"},   {"address", NULL},  {"balance", NULL},
        {"send", NULL},      {"history", NULL},   {"app", NULL},      {"app", "create"},
        {"app", "join"},     {"app", "move"},     {"app", "show"},    {"app", "list"},
        {"app", "watch"},    {"app", "resign"},   {"app", "claim-timeout"},
        {"app", "claim"},    {"bet", NULL},       {"bet", "dice"},    {"verify", NULL},
        {"tx", NULL},        {"tx", "status"},    {"tx", "show"},     {"tx", "prepare"},
        {"tx", "submit"},    {"help", NULL},
    };
    for (size_t i = 0; i < sizeof topics / sizeof topics[0]; i++) {
        int n = topics[i][1] != NULL ? 2 : 1, ok;
        struct zbc_wfail f = {0};
        char *t = help_of(n, topics[i], &ok, &f);
        CHECK(ok);
        /* each names its own command */
        char want[64];
        snprintf(want, sizeof want, "zbc %s%s%s", topics[i][0],
                 topics[i][1] != NULL && strcmp(topics[i][0], "bet") != 0 ? " " : "",
                 topics[i][1] != NULL && strcmp(topics[i][0], "bet") != 0 ? topics[i][1] : "");
        CHECK(t != NULL && strstr(t, want) != NULL);
        if (t == NULL || strstr(t, want) == NULL)
            fprintf(stderr, "help %s %s lacks '%s'\n", topics[i][0],
                    topics[i][1] ? topics[i][1] : "", want);
        free(t);
    }
    int ok;
    struct zbc_wfail f = {0};
    char *t = help_of(0, NULL, &ok, &f);
    CHECK(ok && t != NULL && strstr(t, "exit codes") != NULL && strstr(t, "history") != NULL);
    /* the summary names every app sub-command (pgn was missing) */
    CHECK(t != NULL && strstr(t, "app create|join|move|show|list|watch|pgn|resign|claim-timeout")
                           != NULL);
    free(t);
    static const char *const bad[] = {"app", "lst"};
    t = help_of(2, bad, &ok, &f);
    CHECK(!ok);
    CHECK(strstr(f.err.msg, "unknown app command 'lst' (did you mean list?)") != NULL);
    CHECK(strstr(f.err.msg, "claim-timeout") != NULL);
    free(t);
    static const char *const bad2[] = {"blance"};
    t = help_of(1, bad2, &ok, &f);
    CHECK(!ok && strstr(f.err.msg, "did you mean balance?") != NULL);
    free(t);
    CHECK(strstr(zbc_version_text(), "zbc ") == zbc_version_text());
}

/* The text buffer never overflows, whatever it is given. */
/* zbc bet --help and zbc bet GAME --help: every game with its words, the maximum
 * multiplier computed from the payout tables, an example; unknown games suggested. */
static void test_bets(void)
{
    char *t = zbc_help_bets(NULL);
    CHECK(t != NULL);
    static const char *const lines[] = {
        "  dice     under|over PCT                    9900.99x\n",
        "  coin     heads|tails                       1.98x\n",
        "  roulette KIND [N]                          36.00x\n",
        "  limbo    X                                 the target\n",
        "  plinko   ROWS low|medium|high              95.85x\n",
        "  keno     N1,N2,... [--risk classic|high]   10000.00x\n",
        "  wheel    SEGMENTS low|medium|high          49.50x\n",
        "  baccarat player|banker|tie                 10.3745x\n",
        "  blitz    K                                 13.0489x\n",
        "  zbc bet plinko 12 medium --stake 1ZBC --wait\n",
        "  zbc bet keno 3,17,22,40 --risk high --stake 1ZBC\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        CHECK(t != NULL && strstr(t, lines[i]) != NULL);
        if (t != NULL && strstr(t, lines[i]) == NULL)
            fprintf(stderr, "zbc bet --help lacks: %s", lines[i]);
    }
    free(t);
    static const char *const games[] = {"dice", "coin", "roulette", "limbo", "plinko",
                                        "keno", "wheel", "baccarat", "blitz"};
    for (size_t i = 0; i < sizeof games / sizeof games[0]; i++) {
        const char *topic[] = {"bet", games[i], "12"}; /* arguments after the game */
        int ok;
        struct zbc_wfail f = {0};
        t = help_of(3, topic, &ok, &f);
        char want[64];
        snprintf(want, sizeof want, "usage: zbc bet %s ", games[i]);
        CHECK(ok && t != NULL && strstr(t, want) == t && strstr(t, "maximum multiplier: ") &&
              strstr(t, "example: zbc bet ") != NULL);
        free(t);
    }
    const char *bad[] = {"bet", "whell"};
    int ok;
    struct zbc_wfail f = {0};
    t = help_of(2, bad, &ok, &f);
    CHECK(!ok && strstr(f.err.msg, "unknown bet 'whell' (did you mean wheel?)") != NULL);
    free(t);
    zbc_wfail_clear(&f);
}

static void test_textbuf(void)
{
    struct zbc_textbuf b = {0};
    char *t = zbc_textbuf_take(&b);
    CHECK(t != NULL && t[0] == '\0');
    free(t);
    char big[5000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    size_t want = 0;
    for (int i = 0; i < 50; i++) {
        zbc_textbuf_add(&b, "%d:%s\n", i, i % 10 == 0 ? big : "y");
        want += (size_t)snprintf(NULL, 0, "%d:%s\n", i, i % 10 == 0 ? big : "y");
    }
    CHECK_EQ_INT(want, 25230);
    t = zbc_textbuf_take(&b);
    CHECK(t != NULL && strlen(t) == want);
    CHECK(t != NULL && strncmp(t, "0:xxx", 5) == 0 && strstr(t, "\n49:y\n") != NULL);
    free(t);
}

int main(void)
{
    TEST_RUN(test_textbuf);
    TEST_RUN(test_distance);
    TEST_RUN(test_suggest);
    TEST_RUN(test_games);
    TEST_RUN(test_topics);
    TEST_RUN(test_bets);
    return test_summary("wallet_help");
}
