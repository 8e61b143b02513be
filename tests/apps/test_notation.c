/* apps/notation: coordinates, numbers, tokens, the text writer. */
#include "apps/notation.h"
#include "testlib.h"

static void test_square_parse(void)
{
    struct zbc_err err;
    unsigned cell = 999;
    CHECK(zbc_notation_parse_square("a1", 8, 8, &cell, &err));
    CHECK_EQ_INT(cell, 0);
    CHECK(zbc_notation_parse_square("d3", 8, 8, &cell, &err));
    CHECK_EQ_INT(cell, 19); /* (3-1)*8 + 3 */
    CHECK(zbc_notation_parse_square("h8", 8, 8, &cell, &err));
    CHECK_EQ_INT(cell, 63);
    CHECK(zbc_notation_parse_square("H8", 8, 8, &cell, &err));
    CHECK_EQ_INT(cell, 63);
    CHECK(zbc_notation_parse_square("h8", 15, 15, &cell, &err));
    CHECK_EQ_INT(cell, 112); /* gomoku centre 7*15+7 */
    CHECK(zbc_notation_parse_square("o15", 15, 15, &cell, &err));
    CHECK_EQ_INT(cell, 224);
    CHECK(zbc_notation_parse_square("c3", 3, 3, &cell, &err));
    CHECK_EQ_INT(cell, 8);
}

static void test_square_bad(void)
{
    struct zbc_err err;
    unsigned cell = 77;
    CHECK(!zbc_notation_parse_square("i1", 8, 8, &cell, &err));
    CHECK_EQ_STR(err.msg, "'i1' is not a square: file must be a-h");
    CHECK(!zbc_notation_parse_square("a9", 8, 8, &cell, &err));
    CHECK_EQ_STR(err.msg, "'a9' is not a square: rank must be 1-8");
    CHECK(!zbc_notation_parse_square("a0", 8, 8, &cell, &err));
    CHECK(!zbc_notation_parse_square("a01", 8, 8, &cell, &err));
    CHECK(!zbc_notation_parse_square("a", 8, 8, &cell, &err));
    CHECK(!zbc_notation_parse_square("a1 ", 8, 8, &cell, &err));
    CHECK(!zbc_notation_parse_square("a+1", 8, 8, &cell, &err));
    CHECK(!zbc_notation_parse_square("", 8, 8, &cell, &err));
    CHECK_EQ_STR(err.msg, "expected a square a1-h8, got nothing");
    CHECK(!zbc_notation_parse_square("1a", 8, 8, &cell, &err));
    CHECK(!zbc_notation_parse_square("a99999999999999999999", 8, 8, &cell,
                                     &err));
    CHECK(!zbc_notation_parse_square("a1", 27, 8, &cell, &err));
    CHECK_EQ_STR(err.msg, "board size 27x8 cannot be named by letters");
    CHECK_EQ_INT(cell, 77); /* untouched on failure */
}

static void test_square_format(void)
{
    char buf[8];
    CHECK(zbc_notation_format_square(19, 8, buf, sizeof buf));
    CHECK_EQ_STR(buf, "d3");
    CHECK(zbc_notation_format_square(224, 15, buf, sizeof buf));
    CHECK_EQ_STR(buf, "o15");
    CHECK(!zbc_notation_format_square(224, 15, buf, 3));
    CHECK(!zbc_notation_format_square(0, 0, buf, sizeof buf));
    /* round trip over a whole 15x15 board */
    for (unsigned c = 0; c < 225; c++) {
        unsigned back;
        struct zbc_err err;
        CHECK(zbc_notation_format_square(c, 15, buf, sizeof buf));
        CHECK(zbc_notation_parse_square(buf, 15, 15, &back, &err));
        CHECK_EQ_INT(back, c);
    }
}

static void test_tokens(void)
{
    struct zbc_tokens t;
    struct zbc_err err;
    CHECK(zbc_notation_tokens(&t, "  h 2\t3\n", &err));
    CHECK_EQ_INT(t.count, 3);
    CHECK_EQ_STR(t.tok[0], "h");
    CHECK_EQ_STR(t.tok[1], "2");
    CHECK_EQ_STR(t.tok[2], "3");
    CHECK(zbc_notation_tokens(&t, "", &err));
    CHECK_EQ_INT(t.count, 0);
    CHECK(!zbc_notation_tokens(&t, "a b c d e f g h i", &err));
    CHECK_EQ_STR(err.msg, "too many words in 'a b c d e f g h i' (at most 8)");
    CHECK(!zbc_notation_tokens(&t, "x abcdefghijklmnopqrstuvwxyz", &err));
    CHECK_EQ_STR(err.msg,
                 "word 'abcdefghijklmnopqrstuvwx...' is too long (at most 23 "
                 "characters)");
}

static void test_text(void)
{
    char buf[8];
    struct zbc_text t;
    zbc_text_init(&t, buf, sizeof buf);
    zbc_text_printf(&t, "%s", "abc");
    zbc_text_printf(&t, "%d", 1234);
    CHECK_EQ_INT(zbc_text_result(&t), 7);
    CHECK_EQ_STR(buf, "abc1234");
    zbc_text_printf(&t, "x");
    CHECK_EQ_INT(zbc_text_result(&t), -1);
    CHECK_EQ_STR(buf, "abc1234");
    zbc_text_printf(&t, "%s", "");
    CHECK_EQ_INT(zbc_text_result(&t), -1);
    zbc_text_init(&t, buf, 0);
    CHECK_EQ_INT(zbc_text_result(&t), -1);
}

int main(void)
{
    TEST_RUN(test_square_parse);
    TEST_RUN(test_square_bad);
    TEST_RUN(test_square_format);
    TEST_RUN(test_tokens);
    TEST_RUN(test_text);
    return test_summary("notation");
}
