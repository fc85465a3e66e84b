#include "symplay.h"

/* A small parser: an optional '-' and up to 4 decimal digits, ended by NUL.
 * Returns the value, or -10000 for malformed input. The assertion states a
 * property the parser should have, and exploration finds the input that
 * breaks it: "-0" parses to 0 but is a negative number in the text. */
int parse_int(void) {
  char s[6];
  symplay_symbolic_buffer(s, sizeof s, "text");
  s[5] = 0;
  int i = 0, negative = 0, value = 0;
  if (s[i] == '-') {
    negative = 1;
    i++;
  }
  if (s[i] == 0)
    return -10000;
  for (; s[i] != 0; i++) {
    if (s[i] < '0' || s[i] > '9')
      return -10000;
    value = value * 10 + (s[i] - '0');
  }
  symplay_assert(!negative || value != 0);
  return negative ? -value : value;
}
