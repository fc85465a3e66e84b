#include "symplay.h"

/* Chained string scans over a line of symbolic size (NUL included, at most 6):
 * skip the leading blanks, find a ':', then a ';' after it. The code is
 * correct, so no path fails; the size modes differ in path count: base pins
 * the size to 6, fork-eager runs each size apart, fork-lazy keeps it symbolic. */
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

static const char *find(const char *s, char c) {
  for (; *s != c; s++)
    if (*s == 0)
      return 0;
  return s;
}

int field_gap(void) {
  char line[6];
  int size = symplay_symbolic_sized_buffer(line, sizeof line, "line");
  if (size == 0)
    return -1;
  line[size - 1] = 0;
  const char *colon = find(line + memspn(line, size - 1, " \t"), ':');
  const char *semi = colon == 0 ? 0 : find(colon + 1, ';');
  return semi == 0 ? -1 : semi - colon;
}
