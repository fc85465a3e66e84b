#include <stdlib.h>
#include "symplay.h"

/* The loop of the seed's first example (symbolic_size.md E1): a block of
 * symbolic size n, at most 3, filled up to n or until z says stop. Under
 * fork-lazy each way out of the loop is a path: n = 0, a stop at once, and
 * 1 to 3 bytes filled. Merged at the loop's exit (SMOpt) the states become
 * one, whose condition folds to true: every case the loop started with is
 * covered, and the count it returns splits into its values. */
unsigned fill_prefix(void) {
  unsigned n = symplay_symbolic_i32("n");
  unsigned z = symplay_symbolic_i32("z");
  symplay_assume(n <= 3);
  char *p = malloc(n);
  if (p == 0)
    return 0;
  unsigned i = 0;
  for (; i < n; i++) {
    if (z == 0)
      break;
    p[i] = (char)i;
  }
  free(p);
  return i;
}
