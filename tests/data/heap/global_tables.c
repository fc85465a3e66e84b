/* Correct: symbolic indices into global and static tables and a stack
 * matrix, each checked, some written as t[k - 1] (whose constant part lies
 * before the table). No memory bug on any input. */
#include "symplay.h"

static const char digits[16] = "0123456789abcdef";
int weights[5] = {1, 2, 4, 8, 16};
int counts[5];

static int histogram(int v) {
  static int seen[4];
  seen[v & 3]++;
  return seen[v & 3];
}

int global_tables(void) {
  int k = symplay_symbolic_i32("k");
  int v = symplay_symbolic_i32("v");
  if (k < 1 || k > 5)
    return 0;
  counts[k - 1] += weights[k - 1];
  int grid[3][4] = {{0}};
  int r = (v >> 8) & 0xff, c = v & 0xff;
  if (r < 3 && c < 4)
    grid[r][c] = digits[v & 15];
  return counts[k - 1] + histogram(v) + grid[r % 3][c % 4];
}
