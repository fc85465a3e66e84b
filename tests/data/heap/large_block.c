#include <stdlib.h>
#include "symplay.h"

/* A buffer of 4 * n bytes for a symbolic n below 50,000, filled and
 * checked: the check fails only once n reaches 40, which needs a block
 * larger than the default capacity of 100 bytes. */
int large_block(void) {
  int n = symplay_symbolic_i32("n");
  symplay_assume(n > 0 && n < 50000);
  int *data = malloc(4 * n);
  if (data == 0)
    return -1;
  for (int i = 0; i < n && i < 64; i++)
    data[i] = i;
  symplay_assert(n < 40 || data[39] != 39);
  free(data);
  return 0;
}
