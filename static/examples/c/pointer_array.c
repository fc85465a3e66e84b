#include <stdlib.h>
#include "symplay.h"

/* A pointer array: four heap blocks of 2, 4, 6 and 8 bytes, a symbolic index k
 * picks one and a symbolic offset j writes into it, checked against the
 * largest size only. The symbolic pointer forks a path for each block it may
 * hit in bounds and one for the rest, the pairs past a smaller block (k = 0
 * and j >= 2, k = 1 and j >= 4, k = 2 and j >= 6): a heap overflow. */
int store(void) {
  char *blocks[4];
  for (int i = 0; i < 4; i++) {
    blocks[i] = malloc(2 * (i + 1));
    if (blocks[i] == 0)
      return -1;
  }
  unsigned k = symplay_symbolic_i32("k");
  unsigned j = symplay_symbolic_i32("j");
  symplay_assume(k < 4);
  int stored = 0;
  if (j < 8) { /* should be j < 2 * (k + 1) */
    blocks[k][j] = 1;
    stored = 1;
  }
  for (int i = 0; i < 4; i++)
    free(blocks[i]);
  return stored;
}
