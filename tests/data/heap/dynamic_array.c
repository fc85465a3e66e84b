/* A growable int vector: pushes n (0..9) items, doubling the capacity with
 * realloc from 1, then sums them and frees the storage. Correct for every input. */
#include <stdlib.h>
#include "symplay.h"

int dynamic_array(void) {
  int n = symplay_symbolic_i32("n");
  symplay_assume(n >= 0 && n <= 9);
  int cap = 1, len = 0;
  int *v = malloc(cap * sizeof(int));
  if (v == 0)
    return -1;
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      int *w = realloc(v, 2 * cap * sizeof(int));
      if (w == 0) {
        free(v);
        return -1;
      }
      v = w;
      cap *= 2;
    }
    v[len++] = i * 3;
  }
  int sum = 0;
  for (int i = 0; i < len; i++)
    sum += v[i];
  free(v);
  return sum;
}
