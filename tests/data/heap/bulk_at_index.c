/* memmove and memset of a symbolic length at a symbolic offset into a
 * 16-byte malloc block or a local array, each one memory.copy or
 * memory.fill under -mbulk-memory: the range is resolved at both ends,
 * with nothing made concrete where it fits. */
#include <stdlib.h>
#include "symplay.h"

/* Inserts '!' into a line of up to 15 characters at a symbolic position,
 * moving the tail up one. Correct: the position is at most the length,
 * and the line has room for one more. Returns the last character. */
int bulk_insert(void) {
  unsigned len = (unsigned)symplay_symbolic_i32("len") & 15;
  unsigned at = (unsigned)symplay_symbolic_i32("at") & 15;
  char *line = malloc(16);
  if (line == 0)
    return -1;
  for (unsigned k = 0; k < 16; k++)
    line[k] = (char)('a' + k);
  if (at > len)
    at = len;
  __builtin_memmove(line + at + 1, line + at, len - at);
  line[at] = '!';
  int last = line[len];
  free(line);
  return last;
}

/* Clears n bytes from a symbolic offset. Bug: heap overflow (write) at
 * the marked line when at + n > 16. */
int bulk_clear(void) {
  unsigned at = (unsigned)symplay_symbolic_i32("at") & 15;
  unsigned n = (unsigned)symplay_symbolic_i32("n") & 15;
  char *block = malloc(16);
  if (block == 0)
    return -1;
  for (unsigned k = 0; k < 16; k++)
    block[k] = 1;
  __builtin_memset(block + at, 0, n); /* BUG: heap overflow write when at + n > 16 */
  free(block);
  return (int)at;
}

/* Clears n bytes of a local array from a symbolic offset. Bug: stack
 * buffer overflow (write) at the marked line when at + n > 16, into the
 * array beside it (found at -O0, where the frame's variables are known). */
int bulk_clear_local(void) {
  char line[16];
  char next[16];
  unsigned at = (unsigned)symplay_symbolic_i32("at") & 15;
  unsigned n = (unsigned)symplay_symbolic_i32("n") & 15;
  for (unsigned k = 0; k < 16; k++) {
    line[k] = 1;
    next[k] = 2;
  }
  __builtin_memset(line + at, 0, n); /* BUG: stack buffer overflow write when at + n > 16 */
  return (int)at;
}
