/* Fills a 4-int malloc block; on mode == 1 it is freed early, then read.
 * Bug: use after free (read) at the marked line when mode == 1. */
#include <stdlib.h>
#include "symplay.h"

int use_after_free_read(void) {
  int mode = symplay_symbolic_i32("mode");
  int *p = malloc(4 * sizeof(int));
  if (p == 0)
    return -1;
  for (int i = 0; i < 4; i++)
    p[i] = i * 10;
  if (mode == 1)
    free(p);
  int r = p[2]; /* BUG: use after free read when mode == 1 */
  if (mode != 1)
    free(p);
  return r;
}
