/* Fills an 8-byte malloc block, then reads a[k] for a symbolic k in 0..15.
 * Bug: heap overflow (read) at the marked line when k >= 8. */
#include <stdlib.h>
#include "symplay.h"

int heap_overflow_read(void) {
  int k = symplay_symbolic_i32("k");
  symplay_assume(k >= 0 && k < 16);
  char *a = malloc(8);
  if (a == 0)
    return -1;
  for (int i = 0; i < 8; i++)
    a[i] = (char)(i + 1);
  int r = a[k]; /* BUG: heap overflow read when k >= 8 */
  free(a);
  return r;
}
