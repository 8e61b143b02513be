#include <string.h>

#include "apps/engine.h"

#define GAME(n) extern const struct zbc_engine zbc_engine_##n;
#ifdef ZBC_HAVE_GAME_tictactoe
GAME(tictactoe)
#endif
#ifdef ZBC_HAVE_GAME_chess
GAME(chess)
#endif
#ifdef ZBC_HAVE_GAME_connect4
GAME(connect4)
#endif
#ifdef ZBC_HAVE_GAME_checkers
GAME(checkers)
#endif
#ifdef ZBC_HAVE_GAME_reversi
GAME(reversi)
#endif
#ifdef ZBC_HAVE_GAME_gomoku
GAME(gomoku)
#endif
#ifdef ZBC_HAVE_GAME_battleship
GAME(battleship)
#endif
#ifdef ZBC_HAVE_GAME_dots
GAME(dots)
#endif
#ifdef ZBC_HAVE_GAME_rps
GAME(rps)
#endif
#ifdef ZBC_HAVE_GAME_lines
GAME(lines)
#endif
#ifdef ZBC_HAVE_GAME_ludo
GAME(ludo)
#endif
#ifdef ZBC_HAVE_GAME_pig
GAME(pig)
#endif
#ifdef ZBC_HAVE_GAME_race
GAME(race)
#endif
#ifdef ZBC_HAVE_GAME_monopoly
GAME(monopoly)
#endif

/* In type order. */
static const struct zbc_engine *const ENGINES[] = {
#ifdef ZBC_HAVE_GAME_tictactoe
    &zbc_engine_tictactoe,
#endif
#ifdef ZBC_HAVE_GAME_chess
    &zbc_engine_chess,
#endif
#ifdef ZBC_HAVE_GAME_connect4
    &zbc_engine_connect4,
#endif
#ifdef ZBC_HAVE_GAME_checkers
    &zbc_engine_checkers,
#endif
#ifdef ZBC_HAVE_GAME_reversi
    &zbc_engine_reversi,
#endif
#ifdef ZBC_HAVE_GAME_gomoku
    &zbc_engine_gomoku,
#endif
#ifdef ZBC_HAVE_GAME_battleship
    &zbc_engine_battleship,
#endif
#ifdef ZBC_HAVE_GAME_dots
    &zbc_engine_dots,
#endif
#ifdef ZBC_HAVE_GAME_rps
    &zbc_engine_rps,
#endif
#ifdef ZBC_HAVE_GAME_lines
    &zbc_engine_lines,
#endif
#ifdef ZBC_HAVE_GAME_ludo
    &zbc_engine_ludo,
#endif
#ifdef ZBC_HAVE_GAME_pig
    &zbc_engine_pig,
#endif
#ifdef ZBC_HAVE_GAME_race
    &zbc_engine_race,
#endif
#ifdef ZBC_HAVE_GAME_monopoly
    &zbc_engine_monopoly,
#endif
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
