/* zbc balance [ADDRESS|NAME]: GET /api/v1/accounts/<address>. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "crypto/address.h"
#include "node/wallet/amount.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/keystore.h"

int zbc_cmd_balance(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f)
{
    if (argc > 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc balance [ADDRESS|KEY-NAME]");
    struct zbc_addr a;
    struct zbc_err err;
    char name[ZBC_KEY_NAME_MAX + 1] = "";
    if (argc == 1 && zbc_addr_parse_text(&a, argv[0], &err)) {
        /* an address */
    } else {
        uint8_t pk[32];
        if (argc == 1 && strchr(argv[0], '_') != NULL && strlen(argv[0]) > 60)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "'%s' is not a valid address: %s", argv[0], err.msg);
        if (!zbc_keystore_pubkey(o, argc == 1 ? argv[0] : NULL, pk, name, f)) {
            if (argc == 1 && f->code == ZBC_EXIT_USAGE)
                return zbc_wfail(f, ZBC_EXIT_USAGE,
                                 "'%s' is neither a valid address (%s) nor a key in the wallet",
                                 argv[0], err.msg);
            return 0;
        }
        zbc_addr_from_ed25519(&a, pk);
    }
    char text[ZBC_ADDR_TEXT_MAX], path[200];
    zbc_addr_to_text(text, &a);
    snprintf(path, sizeof path, "/api/v1/accounts/%s", text);
    struct zbc_client api = {o->api, o->timeout_s, 0};
    json_t *reply;
    if (!zbc_client_call(&api, path, NULL, &reply, f))
        return 0;
    uint64_t units = 0;
    struct zbc_err rerr;
    if (!zbc_client_check_balance(reply, &units, &rerr))
        return zbc_client_bad_reply(f, reply, &rerr);
    json_t *bal = json_object_get(reply, "balance");
    json_t *r = json_object();
    json_object_set_new(r, "address", json_string(text));
    if (name[0] != '\0')
        json_object_set_new(r, "name", json_string(name));
    char zbc[32];
    zbc_amount_format(zbc, units);
    json_object_set(r, "balance", bal);
    json_object_set_new(r, "balance_zbc", json_string(zbc));
    json_t *sp = json_object_get(reply, "spendable_balance");
    if (sp != NULL)
        json_object_set(r, "spendable_balance", sp);
    json_object_set_new(r, "api_response", reply);
    char human[256];
    snprintf(human, sizeof human, "%s%s%s: %s (%" PRIu64 " units)\n", name[0] ? name : "",
             name[0] ? " " : "", json_string_value(json_object_get(r, "address")), zbc, units);
    json_object_set_new(r, "_text", json_string(human));
    *result = r;
    return 1;
}
