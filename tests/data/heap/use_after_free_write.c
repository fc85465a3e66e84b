/* A session record is freed on mode == 1 (an error path) and then still updated.
 * Bug: use after free (write) at the marked line when mode == 1. */
#include <stdlib.h>
#include "symplay.h"

int use_after_free_write(void) {
  int mode = symplay_symbolic_i32("mode");
  int *rec = malloc(4 * sizeof(int));
  if (rec == 0)
    return -1;
  rec[0] = mode;
  if (mode == 1)
    free(rec);
  rec[1] = 7; /* BUG: use after free write when mode == 1 */
  if (mode != 1)
    free(rec);
  return mode;
}
