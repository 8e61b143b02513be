/* Keccak-256 against published Ethereum values. */
#include "crypto/hex.h"
#include "crypto/keccak.h"
#include "testlib.h"

static void check_hex(const void *data, size_t len, const char *want)
{
    uint8_t out[32];
    char hex[65];
    zbc_keccak256(out, data, len);
    zbc_hex_encode(hex, out, 32);
    CHECK_EQ_STR(hex, want);
}

static void test_empty(void)
{
    check_hex("", 0, "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470");
}

static void test_abc(void)
{
    check_hex("abc", 3, "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45");
}

/* The ERC-20 Transfer event topic, published in EIP-20 tooling and every
 * block explorer. */
static void test_erc20_transfer_topic(void)
{
    const char *s = "Transfer(address,address,uint256)";
    check_hex(s, strlen(s),
              "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef");
}

/* Around the 136-byte block boundary the padding changes shape (135 bytes
 * leave one pad byte holding both 0x01 and 0x80; 136 need a whole pad
 * block).  The exact values for these and longer multi-block inputs come
 * from an independent implementation in test_interop.c; here, only that
 * the three lengths give three different digests. */
static void test_multiblock(void)
{
    uint8_t buf[200];
    memset(buf, 'a', sizeof buf);
    uint8_t a[32], b[32], c[32];
    zbc_keccak256(a, buf, 135);
    zbc_keccak256(b, buf, 136);
    zbc_keccak256(c, buf, 137);
    CHECK(memcmp(a, b, 32) != 0);
    CHECK(memcmp(b, c, 32) != 0);
}

int main(void)
{
    TEST_RUN(test_empty);
    TEST_RUN(test_abc);
    TEST_RUN(test_erc20_transfer_topic);
    TEST_RUN(test_multiblock);
    return test_summary("test_crypto_keccak");
}
