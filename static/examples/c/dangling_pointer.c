/* A dangling pointer: a helper spells a word into a buffer on its own stack
 * and keeps a pointer to it, which outlives the frame. Reading the word back
 * after the helper returned is a use after return for the codes that take
 * that path, inside the C stack, where Wasm sees nothing wrong; Symplay
 * names the buffer, its function and where that returned. */
#include "symplay.h"

static const char *last_word;

__attribute__((noinline)) static void spell(char *out, int code) {
  for (int i = 0; i < 3; i++)
    out[i] = (char)('a' + (code >> (4 * i)) % 16);
  out[3] = 0;
}

__attribute__((noinline)) static void pick_word(int code) {
  char word[4];
  spell(word, code);
  last_word = word; /* BUG: the pointer outlives the frame */
}

int first_letter(int code) {
  pick_word(code);
  if (code < 0)
    return -1;
  return last_word[0]; /* use after return for every code >= 0 */
}
