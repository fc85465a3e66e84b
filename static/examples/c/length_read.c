#include "symplay.h"

/* A read past the end that exists for one length only (libosip's shape): a
 * header string of symbolic size, NUL included, has its first character
 * skipped before a search, which reads past the buffer when the string is
 * empty. Only a symbolic size finds it (size 1); --size-mode base pins the
 * size to its capacity, 8, and misses it. */
static const char *find(const char *s, char c) {
  for (; *s != c; s++)
    if (*s == 0)
      return 0;
  return s;
}

int first_header(void) {
  char buf[8];
  int size = symplay_symbolic_sized_buffer(buf, sizeof buf, "headers");
  if (size == 0)
    return -1;
  buf[size - 1] = 0;
  const char *amp = find(buf + 1, '&'); /* + 1 skips the leading '?' */
  return amp == 0 ? size - 1 : amp - buf;
}
