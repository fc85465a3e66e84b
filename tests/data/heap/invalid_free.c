/* A record with a 4-byte header (when flag == 1) is skipped by advancing the
 * pointer, which is then freed. Bug: invalid free of p+4 at the marked line. */
#include <stdlib.h>
#include "symplay.h"

int invalid_free(void) {
  int flag = symplay_symbolic_i32("flag");
  char *p = malloc(16);
  if (p == 0)
    return -1;
  for (int i = 0; i < 16; i++)
    p[i] = (char)i;
  if (flag == 1)
    p += 4; /* skip the header */
  int r = p[0];
  free(p); /* BUG: invalid free (p + 4) when flag == 1 */
  return r;
}
