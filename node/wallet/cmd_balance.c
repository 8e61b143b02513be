/* zbc balance [ADDRESS|NAME]: GET /api/v1/accounts/<address>. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "crypto/address.h"
#include "node/wallet/amount.h"
#include "node/wallet/client.h"
#include "node/wallet/cmds.h"
#include "node/wallet/keystore.h"
#include "node/wallet/names.h"

int zbc_cmd_balance(const struct zbc_opts *o, int argc, const char *const *argv,
                    json_t **result, struct zbc_wfail *f)
{
    if (argc > 1)
        return zbc_wfail(f, ZBC_EXIT_USAGE, "usage: zbc balance [ADDRESS|KEY-NAME]");
    struct zbc_addr a;
    char name[ZBC_KEY_NAME_MAX + 1] = "";
    if (argc == 1) {
        if (!zbc_name_resolve(&a, name, o, argv[0], "account", f))
            return 0;
    } else {
        uint8_t pk[32];
        if (!zbc_keystore_pubkey(o, NULL, pk, name, f))
            return 0;
        zbc_addr_from_ed25519(&a, pk);
    }
    char text[ZBC_ADDR_TEXT_MAX], path[200];
    zbc_addr_to_text(text, &a);
    snprintf(path, sizeof path, "/api/v1/accounts/%s", text);
    struct zbc_client api = {o->api, o->timeout_s, 0};
    json_t *reply;
    bool funded = true;
    if (!zbc_client_call(&api, path, NULL, &reply, f)) {
        /* an account that never held funds has balance 0 (docs/wallet.md
         * "balance"), as on every chain people know */
        const char *e = f->api_response != NULL
                            ? json_string_value(json_object_get(f->api_response, "error"))
                            : NULL;
        if (f->http_code != 404 || e == NULL || strcasecmp(e, "Account not found") != 0)
            return 0;
        zbc_wfail_clear(f);
        reply = json_pack("{s:i, s:i}", "balance", 0, "spendable_balance", 0);
        funded = false;
    }
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
    if (funded) {
        json_object_set_new(r, "api_response", reply);
    } else {
        json_object_set_new(r, "funded", json_false());
        json_decref(reply);
    }
    char human[320];
    snprintf(human, sizeof human, "%s%s%s: %s (%" PRIu64 " units)%s\n", name[0] ? name : "",
             name[0] ? " " : "", text, zbc, units,
             funded ? "" : ", never funded");
    json_object_set_new(r, "_text", json_string(human));
    *result = r;
    return 1;
}
