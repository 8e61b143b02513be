/* crypto/bytes.h: the byte codec every encoder and decoder uses. */
#include "crypto/bytes.h"
#include "testlib.h"

static void test_fixed_width(void)
{
    uint8_t b[8];
    zbc_put_le16(b, 0x1234);
    CHECK(b[0] == 0x34 && b[1] == 0x12);
    CHECK_EQ_INT(zbc_get_le16(b), 0x1234);
    zbc_put_le32(b, 0xa1b2c3d4u);
    CHECK(b[0] == 0xd4 && b[3] == 0xa1);
    CHECK(zbc_get_le32(b) == 0xa1b2c3d4u);
    zbc_put_le64(b, 0x0102030405060708ull);
    CHECK(b[0] == 0x08 && b[7] == 0x01);
    CHECK(zbc_get_le64(b) == 0x0102030405060708ull);
    zbc_put_be32(b, 0xa1b2c3d4u);
    CHECK(b[0] == 0xa1 && b[3] == 0xd4);
    CHECK(zbc_get_be32(b) == 0xa1b2c3d4u);
    zbc_put_be64(b, 0x0102030405060708ull);
    CHECK(b[0] == 0x01 && b[7] == 0x08);
    CHECK(zbc_get_be64(b) == 0x0102030405060708ull);
    zbc_put_le64(b, UINT64_MAX);
    CHECK(zbc_get_le64(b) == UINT64_MAX);
}

static void test_reader_ok(void)
{
    const uint8_t in[] = {7, 0x34, 0x12, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
                          0xaa, 0xbb};
    struct zbc_rd r;
    zbc_rd_init(&r, in, sizeof in);
    CHECK_EQ_INT(zbc_rd_u8(&r, "a"), 7);
    CHECK_EQ_INT(zbc_rd_le16(&r, "b"), 0x1234);
    CHECK_EQ_INT(zbc_rd_le32(&r, "c"), 1);
    CHECK(zbc_rd_le64(&r, "d") == 2);
    CHECK(zbc_rd_ok(&r) && !zbc_rd_done(&r));
    uint8_t two[2];
    zbc_rd_copy(&r, two, 2, "e");
    CHECK(two[0] == 0xaa && two[1] == 0xbb);
    CHECK(zbc_rd_done(&r));
}

static void test_reader_failure_sticks(void)
{
    const uint8_t in[] = {1, 2, 3};
    struct zbc_rd r;
    struct zbc_err err;
    zbc_rd_init(&r, in, sizeof in);
    CHECK_EQ_INT(zbc_rd_u8(&r, "kind"), 1);
    CHECK_EQ_INT(zbc_rd_le32(&r, "height"), 0); /* 2 left: fails */
    CHECK(!zbc_rd_ok(&r));
    /* Later reads stay failed and return zeros, even ones that would fit. */
    CHECK_EQ_INT(zbc_rd_u8(&r, "flag"), 0);
    uint8_t out[2] = {9, 9};
    zbc_rd_copy(&r, out, 2, "tail");
    CHECK(out[0] == 0 && out[1] == 0);
    CHECK(zbc_rd_take(&r, 0, "nothing") == NULL);
    CHECK(!zbc_rd_done(&r));
    CHECK(zbc_rd_err(&r, &err, "truncated block") == 0);
    CHECK(strcmp(err.msg, "truncated block: height needs 4 bytes, 2 left") == 0);

    zbc_rd_init(&r, in, sizeof in);
    (void)zbc_rd_u8(&r, "kind");
    zbc_rd_fail(&r, "kind value");
    (void)zbc_rd_u8(&r, "next");
    CHECK(zbc_rd_err(&r, &err, "event") == 0);
    CHECK(strcmp(err.msg, "event: bad kind value") == 0);

    zbc_rd_init(&r, in, sizeof in);
    (void)zbc_rd_u8(&r, "kind");
    CHECK(zbc_rd_err(&r, &err, "record") == 0);
    CHECK(strcmp(err.msg, "record: 2 trailing bytes") == 0);

    /* A huge length cannot wrap the cursor. */
    zbc_rd_init(&r, in, sizeof in);
    CHECK(zbc_rd_take(&r, SIZE_MAX, "blob") == NULL);
    CHECK(!zbc_rd_ok(&r));
}

static void test_writer(void)
{
    uint8_t buf[8];
    struct zbc_wr w;
    zbc_wr_init(&w, buf, sizeof buf);
    zbc_wr_u8(&w, 1);
    zbc_wr_le16(&w, 0x0302);
    zbc_wr_le32(&w, 0x07060504);
    CHECK(zbc_wr_ok(&w));
    CHECK_EQ_INT(w.len, 7);
    for (int i = 0; i < 7; i++)
        CHECK_EQ_INT(buf[i], i + 1);
    zbc_wr_le16(&w, 0xffff); /* does not fit: nothing written past cap */
    CHECK(!zbc_wr_ok(&w));
    CHECK_EQ_INT(w.len, 9);
    zbc_wr_u8(&w, 5);
    CHECK(!zbc_wr_ok(&w));

    /* A NULL buffer measures. */
    zbc_wr_init(&w, NULL, 0);
    zbc_wr_le64(&w, 1);
    zbc_wr_bytes(&w, buf, 3);
    CHECK_EQ_INT(w.len, 11);
    CHECK(!zbc_wr_ok(&w));
}

static void test_decimal(void)
{
    struct zbc_err err;
    uint64_t v = 99;
    CHECK(zbc_parse_u64("0", 0, 10, &v, "n", &err) && v == 0);
    CHECK(zbc_parse_u64("18446744073709551615", 0, UINT64_MAX, &v, "n", &err) &&
          v == UINT64_MAX);
    CHECK(!zbc_parse_u64("18446744073709551616", 0, UINT64_MAX, &v, "amount", &err));
    CHECK(strcmp(err.msg, "amount: '18446744073709551616' is too large") == 0);
    CHECK(!zbc_parse_u64("", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64(NULL, 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64("-1", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64("+1", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64(" 1", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64("1 ", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64("01", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64("0x1", 0, 10, &v, "n", &err));
    CHECK(!zbc_parse_u64("11", 0, 10, &v, "seats", &err));
    CHECK(strcmp(err.msg, "seats: 11 is out of range 0-10") == 0);
    CHECK(!zbc_parse_u64("1", 2, 10, &v, "n", &err));
    CHECK(zbc_parse_u64n("123abc", 3, 0, 1000, &v, "n", &err) && v == 123);
    CHECK(!zbc_parse_u64n("123abc", 4, 0, 1000, &v, "n", &err));
}

int main(void)
{
    TEST_RUN(test_fixed_width);
    TEST_RUN(test_reader_ok);
    TEST_RUN(test_reader_failure_sticks);
    TEST_RUN(test_writer);
    TEST_RUN(test_decimal);
    return test_summary("crypto_bytes");
}
