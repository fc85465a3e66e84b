/* An error path frees the buffer, and the common exit frees it again.
 * Bug: double free at the marked line when n > 10. */
#include <stdlib.h>
#include "symplay.h"

int double_free(void) {
  int n = symplay_symbolic_i32("n");
  char *buf = malloc(16);
  if (buf == 0)
    return -1;
  buf[0] = (char)n;
  int r = 0;
  if (n > 10) {
    free(buf); /* error path cleans up... */
    r = -2;
  }
  free(buf); /* BUG: double free when n > 10 */
  return r;
}
