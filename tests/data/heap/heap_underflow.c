/* Writes one byte at a[k] of an 8-byte malloc block, for a symbolic k in -4..7.
 * Bug: heap underflow (write before the block) at the marked line when k < 0. */
#include <stdlib.h>
#include "symplay.h"

int heap_underflow(void) {
  int k = symplay_symbolic_i32("k");
  symplay_assume(k >= -4 && k < 8);
  char *a = malloc(8);
  if (a == 0)
    return -1;
  a[k] = 1; /* BUG: heap underflow write when k < 0 */
  free(a);
  return k;
}
