#include "symplay.h"

/* A password check: the failed assertion on the "granted" path gives the
 * password, found by the solver one character at a time. */
static const char secret[] = "s3cr3t!";

int check_password(void) {
  char guess[8];
  symplay_symbolic_buffer(guess, sizeof guess, "guess");
  for (int i = 0; i < 8; i++)
    if (guess[i] != secret[i])
      return 0;
  symplay_assert(0); /* access granted */
  return 1;
}
