#include "node/wallet/passphrase.h"

#include <errno.h>
#include <fcntl.h>
#include <sodium.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

static int prompt(char out[ZBC_PASSPHRASE_MAX], int tty, const char *text)
{
    struct termios old, quiet;
    /* Echo goes off before the prompt shows, so nothing typed after the
     * prompt is ever echoed or flushed away. */
    int have_term = tcgetattr(tty, &old) == 0;
    if (have_term) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(tty, TCSAFLUSH, &quiet);
    }
    if (write(tty, text, strlen(text)) < 0) {
        if (have_term)
            tcsetattr(tty, TCSANOW, &old);
        return 0;
    }
    size_t n = 0;
    int ok = 1;
    for (;;) {
        char c;
        ssize_t r = read(tty, &c, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0 || c == '\n' || c == '\r')
            break;
        if (n + 1 < ZBC_PASSPHRASE_MAX)
            out[n++] = c;
        else
            ok = 0;
    }
    out[n] = '\0';
    if (have_term)
        tcsetattr(tty, TCSANOW, &old);
    if (write(tty, "\n", 1) < 0)
        return 0;
    return ok;
}

int zbc_passphrase_get(char out[ZBC_PASSPHRASE_MAX], const struct zbc_opts *o,
                       int confirm, struct zbc_wfail *f)
{
    out[0] = '\0';
    if (o->passphrase_file != NULL) {
        FILE *fp = fopen(o->passphrase_file, "r");
        if (fp == NULL)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "cannot read the passphrase file %s: %s",
                             o->passphrase_file, strerror(errno));
        if (fgets(out, ZBC_PASSPHRASE_MAX, fp) == NULL)
            out[0] = '\0';
        fclose(fp);
        chomp(out);
    } else if (o->passphrase_env != NULL) {
        if (strlen(o->passphrase_env) >= ZBC_PASSPHRASE_MAX)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "ZBC_PASSPHRASE is longer than %d bytes",
                             ZBC_PASSPHRASE_MAX - 1);
        strcpy(out, o->passphrase_env);
    } else {
        int tty = open("/dev/tty", O_RDWR | O_NOCTTY);
        if (tty < 0)
            return zbc_wfail(f, ZBC_EXIT_USAGE,
                             "a passphrase is needed: give --passphrase-file FILE or set ZBC_PASSPHRASE (no terminal to ask on)");
        int ok = prompt(out, tty, "wallet passphrase: ");
        if (ok && confirm) {
            char again[ZBC_PASSPHRASE_MAX];
            ok = prompt(again, tty, "repeat passphrase: ");
            if (ok && strcmp(again, out) != 0) {
                sodium_memzero(again, sizeof again);
                close(tty);
                sodium_memzero(out, ZBC_PASSPHRASE_MAX);
                return zbc_wfail(f, ZBC_EXIT_USAGE, "the two passphrases differ");
            }
            sodium_memzero(again, sizeof again);
        }
        close(tty);
        if (!ok)
            return zbc_wfail(f, ZBC_EXIT_USAGE, "could not read a passphrase from the terminal");
    }
    if (out[0] == '\0')
        return zbc_wfail(f, ZBC_EXIT_USAGE, "the passphrase is empty");
    return 1;
}
