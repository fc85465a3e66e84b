/* A recursive walker that does not advance when step == 0 recurses forever;
 * each frame holds a 512-byte array. Bug: stack overflow when step == 0. */
#include "symplay.h"

/* Not a tail call: the frame escapes into the callee, and the sum uses it after. */
static int walk(volatile char *prev, int n, int step) { /* BUG: step == 0 */
  volatile char frame[512];
  frame[0] = (char)n;
  frame[511] = prev ? prev[0] : 0;
  if (n == 0)
    return frame[511];
  return walk(frame, n - step, step) + frame[0];
}

int stack_overflow(void) {
  int step = symplay_symbolic_i32("step");
  symplay_assume(step == 0 || step == 1);
  return walk(0, 10, step);
}
