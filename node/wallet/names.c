#include "node/wallet/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "node/wallet/help.h"

void zbc_names_load(struct zbc_names *nm, const struct zbc_opts *o)
{
    nm->n = 0;
    nm->e = NULL;
    json_t *arr = NULL;
    struct zbc_wfail f = {0};
    if (!zbc_keystore_list(o, &arr, &f)) {
        zbc_wfail_clear(&f);
        return;
    }
    size_t n = json_array_size(arr);
    nm->e = n > 0 ? calloc(n, sizeof *nm->e) : NULL;
    size_t i;
    json_t *k;
    json_array_foreach(arr, i, k) {
        const char *name = json_string_value(json_object_get(k, "name"));
        const char *addr = json_string_value(json_object_get(k, "address"));
        if (nm->e == NULL || name == NULL || addr == NULL)
            continue;
        snprintf(nm->e[nm->n].name, sizeof nm->e[nm->n].name, "%s", name);
        snprintf(nm->e[nm->n].addr, sizeof nm->e[nm->n].addr, "%s", addr);
        nm->n++;
    }
    json_decref(arr);
}

const char *zbc_names_find(const struct zbc_names *nm, const char *addr_text)
{
    for (size_t i = 0; addr_text != NULL && i < nm->n; i++)
        if (strcmp(nm->e[i].addr, addr_text) == 0)
            return nm->e[i].name;
    return NULL;
}

void zbc_names_free(struct zbc_names *nm)
{
    free(nm->e);
    nm->e = NULL;
    nm->n = 0;
}

int zbc_name_resolve(struct zbc_addr *a, char *name_out, const struct zbc_opts *o,
                     const char *arg, const char *what, struct zbc_wfail *f)
{
    if (name_out != NULL)
        name_out[0] = '\0';
    struct zbc_names nm;
    zbc_names_load(&nm, o);
    const struct zbc_name_entry *key = NULL;
    for (size_t i = 0; i < nm.n; i++)
        if (strcmp(nm.e[i].name, arg) == 0)
            key = &nm.e[i];
    struct zbc_err err;
    bool is_addr = zbc_addr_parse_text(a, arg, &err);
    int ok = 1;
    if (is_addr && key != NULL) {
        char text[ZBC_ADDR_TEXT_MAX];
        zbc_addr_to_text(text, a);
        if (strcmp(text, key->addr) != 0)
            ok = zbc_wfail(f, ZBC_EXIT_USAGE,
                           "%s '%s' is ambiguous: it is an address and also the name of the "
                           "wallet key %s (%s); rename the key or give the address you mean",
                           what, arg, key->name, key->addr);
    } else if (!is_addr && key != NULL) {
        struct zbc_err perr;
        if (!zbc_addr_parse_text(a, key->addr, &perr))
            ok = zbc_wfail(f, ZBC_EXIT_INTERNAL, "the wallet key %s has a bad address %s: %s",
                           key->name, key->addr, perr.msg);
        else if (name_out != NULL)
            snprintf(name_out, ZBC_KEY_NAME_MAX + 1, "%s", key->name);
    } else if (!is_addr) {
        /* neither: say which it looked like */
        const char **words = nm.n > 0 ? calloc(nm.n, sizeof *words) : NULL;
        for (size_t i = 0; words != NULL && i < nm.n; i++)
            words[i] = nm.e[i].name;
        char hint[128] = "";
        zbc_suggest_text(hint, sizeof hint, arg, words, words != NULL ? nm.n : 0);
        bool looks_addr = strlen(arg) > 40 || strncasecmp(arg, "ZBC_", 4) == 0 ||
                          strncmp(arg, "0x", 2) == 0;
        if (looks_addr)
            ok = zbc_wfail(f, ZBC_EXIT_USAGE, "%s '%s' is not a valid address: %s", what, arg,
                           err.msg);
        else if (nm.n == 0)
            ok = zbc_wfail(f, ZBC_EXIT_USAGE,
                           "%s '%s' is neither an address nor a key name (the wallet has no "
                           "keys)", what, arg);
        else
            ok = zbc_wfail(f, ZBC_EXIT_USAGE,
                           "%s '%s' is neither an address nor a key name in the wallet%s "
                           "(zbc key list shows the names)", what, arg, hint);
        free(words);
    }
    zbc_names_free(&nm);
    return ok;
}
