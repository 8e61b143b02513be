#include <string.h>

#include "apps/engine.h"

/* Adding a game (docs/architecture.md, "Adding a game"): its file in
 * apps/games/, its name in apps_games in apps/meson.build, and one line in
 * each list below. */
extern const struct zbc_engine zbc_engine_tictactoe;
extern const struct zbc_engine zbc_engine_chess;
extern const struct zbc_engine zbc_engine_connect4;
extern const struct zbc_engine zbc_engine_checkers;
extern const struct zbc_engine zbc_engine_reversi;
extern const struct zbc_engine zbc_engine_gomoku;
extern const struct zbc_engine zbc_engine_battleship;
extern const struct zbc_engine zbc_engine_dots;
extern const struct zbc_engine zbc_engine_rps;
extern const struct zbc_engine zbc_engine_lines;
extern const struct zbc_engine zbc_engine_ludo;
extern const struct zbc_engine zbc_engine_mines;
extern const struct zbc_engine zbc_engine_tower;
extern const struct zbc_engine zbc_engine_hilo;
extern const struct zbc_engine zbc_engine_blackjack;
extern const struct zbc_engine zbc_engine_pig;
extern const struct zbc_engine zbc_engine_race;
extern const struct zbc_engine zbc_engine_monopoly;

/* In type order. */
static const struct zbc_engine *const ENGINES[] = {
    &zbc_engine_tictactoe,
    &zbc_engine_chess,
    &zbc_engine_connect4,
    &zbc_engine_checkers,
    &zbc_engine_reversi,
    &zbc_engine_gomoku,
    &zbc_engine_battleship,
    &zbc_engine_dots,
    &zbc_engine_rps,
    &zbc_engine_lines,
    &zbc_engine_ludo,
    &zbc_engine_mines,
    &zbc_engine_tower,
    &zbc_engine_hilo,
    &zbc_engine_blackjack,
    &zbc_engine_pig,
    &zbc_engine_race,
    &zbc_engine_monopoly,
    NULL,
};

const struct zbc_engine *const *zbc_engines(void)
{
    return ENGINES;
}

const struct zbc_engine *zbc_engine_by_type(uint8_t type)
{
    for (size_t i = 0; ENGINES[i] != NULL; i++)
        if (ENGINES[i]->type == type)
            return ENGINES[i];
    return NULL;
}

const struct zbc_engine *zbc_engine_by_name(const char *name)
{
    for (size_t i = 0; ENGINES[i] != NULL; i++)
        if (strcmp(ENGINES[i]->name, name) == 0)
            return ENGINES[i];
    return NULL;
}
