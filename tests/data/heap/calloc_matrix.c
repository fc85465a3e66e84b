/* Allocates an r x c (1..3 each) int matrix as calloc'd rows, fills it, sums
 * its diagonal and frees every row and the row table. Correct for every input. */
#include <stdlib.h>
#include "symplay.h"

int calloc_matrix(void) {
  int r = symplay_symbolic_i32("rows");
  int c = symplay_symbolic_i32("cols");
  symplay_assume(r >= 1 && r <= 3 && c >= 1 && c <= 3);
  int **m = calloc(r, sizeof(int *));
  if (m == 0)
    return -1;
  for (int i = 0; i < r; i++) {
    m[i] = calloc(c, sizeof(int));
    if (m[i] == 0) {
      for (int j = 0; j < i; j++)
        free(m[j]);
      free(m);
      return -1;
    }
    for (int j = 0; j < c; j++)
      m[i][j] = i * c + j;
  }
  int trace = 0;
  for (int i = 0; i < r && i < c; i++)
    trace += m[i][i];
  for (int i = 0; i < r; i++)
    free(m[i]);
  free(m);
  return trace;
}
