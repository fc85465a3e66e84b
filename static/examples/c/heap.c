#include <stdlib.h>
#include <string.h>
#include "symplay.h"

/* Heap allocation through wasi-libc's malloc (compiled into the module): a
 * symbolic record is copied into a buffer sized by its length field, and the
 * symbolic bytes flow through the heap. The assertion rejects records that
 * start with 'X'; exploration finds one for every non-empty length. */
int copy_record(void) {
  unsigned char record[5];
  symplay_symbolic_buffer(record, sizeof record, "record");
  unsigned len = record[0];
  symplay_assume(len <= 4);
  char *copy = malloc(len + 1);
  if (copy == 0)
    return -1;
  memcpy(copy, record + 1, len);
  copy[len] = 0;
  int checksum = 0;
  for (unsigned i = 0; i < len; i++)
    checksum += copy[i];
  symplay_assert(len == 0 || copy[0] != 'X');
  free(copy);
  return checksum;
}
