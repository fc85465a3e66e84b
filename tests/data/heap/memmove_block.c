/* Fills a 16-byte malloc block and moves its first 8 bytes to offset k (0..8)
 * with memmove, overlapping inside the one block, then frees it. Correct. */
#include <stdlib.h>
#include <string.h>
#include "symplay.h"

int memmove_block(void) {
  int k = symplay_symbolic_i32("k");
  symplay_assume(k >= 0 && k <= 8);
  char *buf = malloc(16);
  if (buf == 0)
    return -1;
  for (int i = 0; i < 16; i++)
    buf[i] = (char)i;
  memmove(buf + k, buf, 8);
  symplay_assert(buf[k] == 0 && buf[k + 7] == 7);
  int r = buf[15];
  free(buf);
  return r;
}
