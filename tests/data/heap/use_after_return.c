/* A helper formats a symbolic reading into a local buffer and keeps a
 * pointer to it; the caller reads the text back for large readings.
 * Bug: use after return (read) at the marked lines: the helper's frame is
 * gone, but its bytes lie inside the C stack, where Wasm sees nothing
 * wrong. In use_after_call another call has reused them first, so the
 * text read back is that call's data. */
#include "symplay.h"

static const char *last;

__attribute__((noinline)) static void format(char *out, int reading) {
  out[0] = (char)('0' + reading % 10);
  out[1] = 0;
}

__attribute__((noinline)) static void parse(int reading) {
  char text[4];
  format(text, reading);
  last = text; /* the pointer outlives the frame */
}

__attribute__((noinline)) static int checksum(int reading) {
  volatile char digits[12];
  int sum = 0;
  for (int i = 0; i < 12; i++) {
    digits[i] = (char)(reading >> i);
    sum += digits[i];
  }
  return sum;
}

int use_after_return(void) {
  int reading = symplay_symbolic_i32("reading");
  parse(reading);
  if (reading <= 100)
    return 0;
  return last[0]; /* BUG: use after return (read) when reading > 100 */
}

int use_after_call(void) {
  int reading = symplay_symbolic_i32("reading");
  parse(reading);
  int sum = checksum(reading); /* reuses parse's frame: no error there */
  if (reading <= 100)
    return sum;
  return last[0] + sum; /* BUG: use after return (read) when reading > 100 */
}
