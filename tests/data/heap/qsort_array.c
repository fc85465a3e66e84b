/* Copies 4 symbolic bytes into a malloc'd int array, sorts it with qsort and
 * asserts the result is ascending, then frees it. Correct for every input. */
#include <stdlib.h>
#include "symplay.h"

static int compare(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int qsort_array(void) {
  unsigned char in[4];
  symplay_symbolic_buffer(in, sizeof in, "in");
  int *v = malloc(4 * sizeof(int));
  if (v == 0)
    return -1;
  for (int i = 0; i < 4; i++)
    v[i] = in[i];
  qsort(v, 4, sizeof(int), compare);
  for (int i = 0; i + 1 < 4; i++)
    symplay_assert(v[i] <= v[i + 1]);
  int r = v[0];
  free(v);
  return r;
}
