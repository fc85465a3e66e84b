/* Copies a symbolic number of bytes (0 to 31) of a stack buffer into a
 * 16-byte malloc block with memcpy, which -mbulk-memory makes one
 * memory.copy of a symbolic length. Bug: heap overflow (write) at the
 * marked line when n > 16. */
#include <stdlib.h>
#include "symplay.h"

int bulk_copy_overflow(void) {
  char source[32];
  for (int k = 0; k < 32; k++)
    source[k] = (char)(k + 1);
  unsigned n = (unsigned)symplay_symbolic_i32("n") & 31;
  char *block = malloc(16);
  if (block == 0)
    return -1;
  __builtin_memcpy(block, source, n); /* BUG: heap overflow write when n > 16 */
  int last = n > 0 ? block[n - 1] : 0;
  free(block);
  return last;
}
