/* The human view of an app (zbc app show / watch): header, seats, money,
 * clock, the engine's board, the last history entries, the result. */
#ifndef ZBC_WALLET_APP_VIEW_H
#define ZBC_WALLET_APP_VIEW_H

#include <jansson.h>

/* malloc'ed text of the app view (GET /api/v1/apps/<id>); me = the
 * caller's address text ("" when unknown), marked "(you)".  NULL when out
 * of memory. */
char *zbc_app_view_text(const json_t *app, const char *me);

#endif
