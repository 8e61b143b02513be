/* zbc address <pubkey-hex|address>: every text form and the typed bytes. */
#include <string.h>

#include "crypto/address.h"
#include "node/wallet/cmds.h"
#include "node/wallet/out.h"

static const char *type_name(uint32_t type)
{
    switch (type) {
    case ZBC_ACCT_ZBC: return "zoobc";
    case ZBC_ACCT_BTC_LEGACY: return "bitcoin-legacy";
    case ZBC_ACCT_EMPTY: return "empty";
    case ZBC_ACCT_ETH: return "ethereum";
    case ZBC_ACCT_BTC_P2PKH: return "bitcoin-p2pkh";
    }
    return "other";
}

json_t *zbc_addr_forms_json(const struct zbc_addr *a)
{
    json_t *o = json_object();
    char text[ZBC_ADDR_TEXT_MAX];
    uint8_t bytes[ZBC_ADDR_BYTES_MAX];
    zbc_addr_to_text(text, a);
    size_t n = zbc_addr_write(bytes, a);
    json_object_set_new(o, "address", json_string(text));
    json_object_set_new(o, "account_type", json_integer(a->type));
    json_object_set_new(o, "account_type_name", json_string(type_name(a->type)));
    json_object_set_new(o, "account_bytes", zbc_json_hex(bytes, n));
    if (a->type == ZBC_ACCT_ZBC) {
        char znk[ZBC_ADDR_TEXT_MAX];
        zbc_addr_zbc_text(znk, a->payload, "ZNK");
        json_object_set_new(o, "public_key", zbc_json_hex(a->payload, 32));
        json_object_set_new(o, "node_address", json_string(znk));
    } else {
        json_object_set_new(o, "payload", zbc_json_hex(a->payload, a->len));
    }
    return o;
}

int zbc_cmd_address(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f)
{
    if (argc != 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc address <public-key-hex|address>");
    struct zbc_addr a;
    struct zbc_err err;
    if (!zbc_addr_parse_text(&a, argv[0], &err))
        return zbc_wfail(f, ZBC_EXIT_USAGE, "'%s' is not a valid address: %s", argv[0], err.msg);
    *result = zbc_addr_forms_json(&a);
    return 1;
}
