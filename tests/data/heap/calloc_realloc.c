/* Grows a calloc'd array of 4 ints to 8 with realloc, then reads b[k] for a
 * symbolic k in 0..11. Bug: heap overflow read at the marked line when k >= 8. */
#include <stdlib.h>
#include "symplay.h"

int calloc_realloc(void) {
  int k = symplay_symbolic_i32("k");
  symplay_assume(k >= 0 && k < 12);
  int *a = calloc(4, sizeof(int));
  if (a == 0)
    return -1;
  int *b = realloc(a, 8 * sizeof(int));
  if (b == 0) {
    free(a);
    return -1;
  }
  for (int i = 4; i < 8; i++)
    b[i] = i;
  int r = b[k]; /* BUG: heap overflow read past the new size when k >= 8 */
  free(b);
  return r;
}
