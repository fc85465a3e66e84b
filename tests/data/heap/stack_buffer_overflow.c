/* Copies a symbolic name into an 8-byte stack buffer and cuts it with a NUL
 * at name[n], for a symbolic n checked against the wrong bound.
 * Bug: stack buffer overflow (write) at the marked line when n == 8: the
 * NUL lands in the neighbouring variable, inside the C stack, where Wasm
 * sees nothing wrong. */
#include "symplay.h"

static int checksum(const char *s) {
  int sum = 0;
  for (int i = 0; s[i] != 0; i++)
    sum = sum * 31 + s[i];
  return sum;
}

int stack_buffer_overflow(void) {
  char input[8];
  char name[8];
  symplay_symbolic_buffer(input, sizeof input, "input");
  int n = symplay_symbolic_i32("n");
  if (n < 0 || n > 8) /* should be n > 7: the NUL needs a byte */
    return -1;
  for (int i = 0; i < 7; i++)
    name[i] = input[i];
  name[n] = 0; /* BUG: stack buffer overflow write when n == 8 */
  return checksum(name);
}
