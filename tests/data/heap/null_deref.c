/* A NULL dereference inside linear memory: address 0 is a valid Wasm address,
 * so only the low page below the data tells it. The block is not made when
 * the flag is set, and the pointer is written through anyway. */
#include <stdlib.h>
#include "symplay.h"

int null_deref(void) {
  int flag = symplay_symbolic_i32("flag");
  int *p = flag ? 0 : malloc(2 * sizeof *p);
  p[1] = 7; /* BUG: NULL when flag is set */
  int r = p[1];
  free(p);
  return r;
}
