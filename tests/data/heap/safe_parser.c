/* The fixed length_dependent_read: copies an input of symbolic length (0..8)
 * into malloc(n + 1), skips spaces and peeks at p[1] only before the NUL. Correct. */
#include <stdlib.h>
#include "symplay.h"

int safe_parser(void) {
  char in[8];
  int n = symplay_symbolic_sized_buffer(in, sizeof in, "in");
  char *s = malloc(n + 1);
  if (s == 0)
    return -1;
  for (int i = 0; i < n; i++)
    s[i] = in[i];
  s[n] = 0;
  const char *p = s;
  while (*p == ' ')
    p++;
  int r = 0;
  if (*p != 0 && p[1] == ':')
    r = 1;
  free(s);
  return r;
}
