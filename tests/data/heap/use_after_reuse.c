/* A block freed, then a block of the same size allocated, which an
 * allocator puts where the first one was; the first is then written
 * through its old pointer at a symbolic index.
 * Bug: use after free (write) at the marked line, whatever block now
 * lies there. */
#include <stdlib.h>
#include "symplay.h"

int use_after_reuse(void) {
  int k = symplay_symbolic_i32("k");
  int *old = malloc(4 * sizeof(int));
  if (old == 0)
    return -1;
  old[0] = 1;
  free(old);
  int *now = malloc(4 * sizeof(int));
  if (now == 0)
    return -1;
  now[0] = 2;
  old[(unsigned)k % 4] = 3; /* BUG: use after free write */
  int r = now[0];
  free(now);
  return r;
}
