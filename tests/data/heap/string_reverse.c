/* Duplicates a NUL-terminated input of up to 5 bytes with strdup, reverses the
 * copy in place, copies it again with strlen/strcpy, and frees both. Correct. */
#include <stdlib.h>
#include <string.h>
#include "symplay.h"

int string_reverse(void) {
  char in[6];
  symplay_symbolic_buffer(in, 5, "in");
  in[5] = 0;
  char *d = strdup(in);
  if (d == 0)
    return -1;
  size_t len = strlen(d);
  for (size_t i = 0; i < len / 2; i++) {
    char t = d[i];
    d[i] = d[len - 1 - i];
    d[len - 1 - i] = t;
  }
  char *e = malloc(len + 1);
  if (e == 0) {
    free(d);
    return -1;
  }
  strcpy(e, d);
  int r = (int)strlen(e) + (len ? e[0] : 0);
  free(e);
  free(d);
  return r;
}
