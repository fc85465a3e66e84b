#include <stdlib.h>
#include "symplay.h"

/* An off-by-one heap overflow: a name of up to 4 bytes is copied into a block
 * of exactly its length, stopping early at a NUL, and then terminated. The
 * terminator lands one past the block only when the name holds no NUL, so
 * exploration reports the overflow once per length and passes the names that
 * hold a NUL. */
int copy_name(void) {
  unsigned char record[5];
  symplay_symbolic_buffer(record, sizeof record, "record");
  unsigned len = record[0];
  symplay_assume(len <= 4);
  char *name = malloc(len); /* should be len + 1 */
  if (name == 0)
    return -1;
  unsigned i = 0;
  while (i < len && record[1 + i] != 0) {
    name[i] = record[1 + i];
    i++;
  }
  name[i] = 0;
  free(name);
  return i;
}
