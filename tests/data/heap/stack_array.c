/* A stack-allocated array of 8 symbolic ints is passed to a function that sums
 * its first n (0..8) entries and to one that copies them to the heap. Correct. */
#include <stdlib.h>
#include "symplay.h"

static unsigned sum(const int *a, int n) {
  unsigned s = 0; /* unsigned: wraps instead of overflowing */
  for (int i = 0; i < n; i++)
    s += (unsigned)a[i];
  return s;
}

static int *copy(const int *a, int n) {
  int *c = malloc((n ? n : 1) * sizeof(int));
  if (c != 0)
    for (int i = 0; i < n; i++)
      c[i] = a[i];
  return c;
}

int stack_array(void) {
  int a[8];
  symplay_symbolic_buffer(a, sizeof a, "a");
  int n = symplay_symbolic_i32("n");
  symplay_assume(n >= 0 && n <= 8);
  unsigned s = sum(a, n);
  int *c = copy(a, n);
  if (c == 0)
    return -1;
  unsigned t = sum(c, n);
  symplay_assert(s == t);
  free(c);
  return (int)s;
}
