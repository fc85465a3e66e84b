#include "symplay.h"

/* A loop with a symbolic bound: one path per trip count. The assumption
 * bounds n so that exploration ends; without it every n is a new path. */
int sum_to(int n) {
  symplay_assume(n >= 0 && n <= 8);
  int sum = 0;
  for (int i = 1; i <= n; i++)
    sum += i;
  symplay_assert(sum == n * (n + 1) / 2);
  return sum;
}
