#include "symplay.h"

/* strlen and strchr over a symbolic string of at most 7 characters. */
static int length(const char *s) {
  int n = 0;
  while (s[n] != 0)
    n++;
  return n;
}

static int index_of(const char *s, char c) {
  for (int i = 0; s[i] != 0; i++)
    if (s[i] == c)
      return i;
  return -1;
}

/* One path per length, 0 to 7. */
int string_length(void) {
  char s[8];
  symplay_symbolic_buffer(s, sizeof s, "s");
  s[7] = 0;
  return length(s);
}

/* The position of ':' in a "key:value" string; the key must not be empty. */
int split_key(void) {
  char s[8];
  symplay_symbolic_buffer(s, sizeof s, "s");
  s[7] = 0;
  int colon = index_of(s, ':');
  symplay_assert(colon != 0);
  return colon;
}
