/* Writes one byte at a[k] of an 8-byte malloc block, for a symbolic k in 0..15.
 * Bug: heap overflow (write) at the marked line when k >= 8. */
#include <stdlib.h>
#include "symplay.h"

int heap_overflow_write(void) {
  int k = symplay_symbolic_i32("k");
  symplay_assume(k >= 0 && k < 16);
  char *a = malloc(8);
  if (a == 0)
    return -1;
  a[k] = 1; /* BUG: heap overflow write when k >= 8 */
  free(a);
  return k;
}
