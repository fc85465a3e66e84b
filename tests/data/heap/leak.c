/* Allocates a 32-byte buffer; the early return on n < 0 forgets to free it.
 * Bug: leak of the block allocated at the marked line when n < 0. */
#include <stdlib.h>
#include "symplay.h"

int leak(void) {
  int n = symplay_symbolic_i32("n");
  char *buf = malloc(32); /* BUG: leaked when n < 0 */
  if (buf == 0)
    return -1;
  buf[0] = (char)n;
  if (n < 0)
    return -2;
  int r = buf[0];
  free(buf);
  return r;
}
