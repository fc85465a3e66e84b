/* Stack frames reused the way correct C reuses them: a callee writes into
 * its caller's buffer, a later call takes the bytes of a returned frame,
 * a recursive function keeps an array per level, and an alloca and a
 * variable-length array grow the caller's frame over returned ones. No
 * memory error on any input. */
#include "symplay.h"

__attribute__((noinline)) static void fill(char *out, int n, char c) {
  for (int i = 0; i < n; i++)
    out[i] = (char)(c + i);
}

__attribute__((noinline)) static int scratch(int x) {
  volatile int tmp[6];
  for (int i = 0; i < 6; i++)
    tmp[i] = x + i;
  return tmp[x & 3];
}

__attribute__((noinline)) static int depth_sum(int level, int x) {
  volatile char here[8];
  fill((char *)here, 8, (char)x);
  if (level == 0)
    return here[7];
  return here[level & 7] + depth_sum(level - 1, x + 1);
}

__attribute__((noinline)) static int scratch_size(void) { return 24; }

int stack_frames(void) {
  int x = symplay_symbolic_i32("x");
  if (x < 0 || x > 5)
    return -1;
  char buf[8];
  fill(buf, 8, 'a');
  int total = scratch(x) + scratch(x + 1) + buf[x];
  total += depth_sum(x, 1);
  /* A concrete size the compiler cannot see: the entry's own bytes. */
  char *more = __builtin_alloca(scratch_size());
  fill(more, 24, 'p');
  total += more[23] + more[x];
  char grown[x + 2]; /* a frame that grows over the returned ones */
  fill(grown, x + 2, 'k');
  return total + grown[x + 1];
}
