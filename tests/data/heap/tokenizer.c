/* Copies an input of symbolic length (0..5) into malloc(n + 1) and splits it at
 * spaces without strtok, duplicating each token into its own block. Correct. */
#include <stdlib.h>
#include "symplay.h"

int tokenizer(void) {
  char in[5];
  int n = symplay_symbolic_sized_buffer(in, sizeof in, "in");
  char *s = malloc(n + 1);
  if (s == 0)
    return -1;
  for (int i = 0; i < n; i++)
    s[i] = in[i] == ' ' ? ' ' : 'x';
  s[n] = 0;
  int tokens = 0;
  for (char *p = s; *p != 0;) {
    while (*p == ' ')
      p++;
    char *start = p;
    while (*p != 0 && *p != ' ')
      p++;
    if (p == start)
      continue;
    char *tok = malloc(p - start + 1);
    if (tok == 0)
      break;
    for (int i = 0; i < p - start; i++)
      tok[i] = start[i];
    tok[p - start] = 0;
    tokens++;
    free(tok);
  }
  free(s);
  return tokens;
}
