/* malloc/free/malloc again of the same size (dlmalloc hands the block back),
 * then a node pool that recycles freed nodes before mallocing. Correct. */
#include <stdlib.h>
#include "symplay.h"

struct node {
  struct node *next;
  int value;
};

int freelist_reuse(void) {
  int x = symplay_symbolic_i32("x");
  symplay_assume(x >= 0 && x < 3);
  int *a = malloc(24);
  if (a == 0)
    return -1;
  a[0] = x;
  free(a);
  int *b = malloc(24); /* usually the same address as a */
  if (b == 0)
    return -1;
  b[5] = x + 1;
  int r = b[5];
  free(b);
  struct node *pool = 0, *held[3];
  for (int round = 0; round < 2; round++) {
    int taken = 0;
    while (taken <= x) { /* take from the pool, else malloc */
      struct node *n = pool;
      if (n != 0)
        pool = n->next;
      else if ((n = malloc(sizeof *n)) == 0)
        break;
      n->value = round + taken;
      held[taken++] = n;
    }
    while (taken > 0) { /* give back to the pool */
      struct node *n = held[--taken];
      r += n->value;
      n->next = pool;
      pool = n;
    }
  }
  while (pool != 0) {
    struct node *next = pool->next;
    free(pool);
    pool = next;
  }
  return r;
}
