#include "symplay.h"

/* memspn over a line of symbolic size (NUL included, at most 8): how many
 * of its first bytes are blanks. Without merging every way through the
 * loop is a path of its own (each length, and where the first other byte
 * is); merged at the loop's exit (--merge smopt under fork-lazy) the
 * states of the loop become one, whose count is an ite over them, and the
 * result splits into the counts it can be: a path per count. */
static unsigned memspn(const char *s, unsigned n, const char *set) {
  unsigned i = 0;
  for (; i < n; i++) {
    const char *c = set;
    while (*c != 0 && *c != s[i])
      c++;
    if (*c == 0)
      break;
  }
  return i;
}

int blank_run(void) {
  char line[8];
  int size = symplay_symbolic_sized_buffer(line, sizeof line, "line");
  if (size == 0)
    return 0;
  return memspn(line, size - 1, " \t");
}
