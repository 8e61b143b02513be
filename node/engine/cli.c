#include "node/engine/cli.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crypto/bytes.h"
#include "crypto/hex.h"

struct opt {
    const char *name;
    size_t off;
};

#define OPT(n, f) {n, offsetof(struct cli, f)}
static const struct opt OPTS[] = {
    OPT("--fen", fen),           OPT("--params", params),
    OPT("--rolls", rolls),       OPT("--state", state),
    OPT("--server-seed", server_seed), OPT("--client-seed", client_seed),
    OPT("--nonce", nonce),       OPT("--stake", stake),
    OPT("--direction", direction), OPT("--target", target),
    OPT("--side", side),         OPT("--kind", kind),
    OPT("--number", number),     OPT("--seats", seats),
    OPT("--first", first),       OPT("--rows", rows),
    OPT("--risk", risk),         OPT("--segments", segments),
    OPT("--cards", cards),       OPT("--picks", picks),
    OPT("--mines", mines),       OPT("--tiles", tiles),
    OPT("--difficulty", difficulty),
};

int cli_parse(struct cli *c, int argc, char **argv)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--json") == 0)
            c->json = true;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0)
            continue;
        if (strcmp(a, "--time") == 0) {
            c->time = true;
            continue;
        }
        if (strncmp(a, "--", 2) == 0) {
            size_t k = 0;
            while (k < sizeof OPTS / sizeof OPTS[0] &&
                   strcmp(OPTS[k].name, a) != 0)
                k++;
            if (k == sizeof OPTS / sizeof OPTS[0]) {
                cli_error(c, CLI_USAGE, "unknown option %s", a);
                return 0;
            }
            if (i + 1 == argc) {
                cli_error(c, CLI_USAGE, "option %s needs a value", a);
                return 0;
            }
            *(const char **)((char *)c + OPTS[k].off) = argv[++i];
            continue;
        }
        if (c->npos == CLI_POSITIONAL_MAX) {
            cli_error(c, CLI_USAGE, "too many arguments (at most %d)",
                      CLI_POSITIONAL_MAX);
            return 0;
        }
        c->pos[c->npos++] = a;
    }
    return 1;
}

int cli_error(const struct cli *c, int code, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c != NULL && c->json) {
        json_t *o = json_pack("{s:s, s:i}", "error", msg, "exit", code);
        cli_print_json(o);
    } else {
        fprintf(stderr, "zbc-engine: %s\n", msg);
    }
    return code;
}

void cli_print_json(json_t *v)
{
    char *s = v != NULL ? json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER)
                        : NULL;
    if (s != NULL) {
        puts(s);
        free(s);
    }
    json_decref(v);
}

const struct zbc_engine *cli_game(const struct cli *c, const char *name)
{
    const struct zbc_engine *e = zbc_engine_by_name(name);
    uint64_t type;
    struct zbc_err err;
    if (e == NULL && zbc_parse_u64(name, 0, 255, &type, "GAME", &err))
        e = zbc_engine_by_type((uint8_t)type);
    if (e == NULL)
        cli_error(c, CLI_USAGE, "unknown game '%s' (see zbc-engine list)",
                  name);
    return e;
}

int cli_u64(const struct cli *c, const char *what, const char *text,
            uint64_t min, uint64_t max, uint64_t *out)
{
    struct zbc_err err;
    if (!zbc_parse_u64(text, min, max, out, what, &err)) {
        cli_error(c, CLI_USAGE, "%s", err.msg);
        return 0;
    }
    return 1;
}

int cli_params(const struct cli *c, const struct zbc_engine *e, uint8_t *out,
               size_t cap, size_t *len)
{
    struct zbc_err err;
    if (!zbc_engine_params_from_text(e, c->params, out, cap, len, &err)) {
        cli_error(c, CLI_USAGE, "--params: %s", err.msg);
        return 0;
    }
    return 1;
}

int cli_rolls(const struct cli *c, struct zbc_roll *r)
{
    uint8_t bytes[ZBC_ROLL_LITERAL_MAX];
    size_t n = 0;
    if (c->rolls != NULL &&
        !zbc_hex_decode(bytes, sizeof bytes, &n, c->rolls, strlen(c->rolls))) {
        cli_error(c, CLI_USAGE, "--rolls must be hex of at most %d bytes",
                  ZBC_ROLL_LITERAL_MAX);
        return 0;
    }
    if (!zbc_roll_init_literal(r, bytes, n)) {
        cli_error(c, CLI_USAGE, "--rolls is too long");
        return 0;
    }
    return 1;
}

int cli_start(const struct cli *c, const struct zbc_engine *e,
              struct zbc_game_state *st, struct zbc_roll *rolls)
{
    uint8_t params[CLI_PARAMS_MAX];
    size_t plen;
    uint64_t seats = e->min_seats, first = 0;
    struct zbc_err err;
    if (c->seats != NULL &&
        !cli_u64(c, "--seats", c->seats, e->min_seats, e->max_seats, &seats))
        return CLI_USAGE;
    if (c->first != NULL &&
        !cli_u64(c, "--first", c->first, 0, seats - 1, &first))
        return CLI_USAGE;
    if (!cli_params(c, e, params, sizeof params, &plen))
        return CLI_USAGE;
    if (!e->init(st, (uint8_t)seats, params, plen, (uint8_t)first,
                 e->start_rolls ? rolls : NULL, &err))
        return cli_error(c, CLI_REFUSED, "cannot start %s: %s", e->name,
                         err.msg);
    return CLI_OK;
}

json_t *cli_state_json(const struct zbc_engine *e,
                       const struct zbc_game_state *st)
{
    static char buf[1 << 16];
    if (e->to_json(st, buf, sizeof buf) < 0)
        return NULL;
    return json_loads(buf, 0, NULL);
}

json_t *cli_result_json(const struct zbc_engine *e,
                        const struct zbc_game_state *st)
{
    struct zbc_result r;
    e->result(st, &r);
    const char *kind = "ongoing";
    switch (r.kind) {
    case ZBC_RESULT_ONGOING:
        kind = "ongoing";
        break;
    case ZBC_RESULT_WIN:
        kind = "win";
        break;
    case ZBC_RESULT_DRAW:
        kind = "draw";
        break;
    }
    return json_pack("{s:s, s:o, s:i}", "kind", kind, "winner",
                     r.kind == ZBC_RESULT_WIN ? json_integer(r.winner)
                                              : json_null(),
                     "out_mask", r.out_mask);
}

int cli_print_render(const struct zbc_engine *e,
                     const struct zbc_game_state *st)
{
    static char buf[1 << 16];
    if (e->render(st, buf, sizeof buf) < 0)
        return 0;
    fputs(buf, stdout);
    return 1;
}
