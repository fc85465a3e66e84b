/* wasi-libc's own strchr (word-wise, through __strchrnul) over a string of
 * symbolic length: it reads aligned words past the terminator, which is no
 * bug; strchr(buf + 1, ...) on the empty string (a buffer of 1 byte) is one. */
#include <string.h>
#include "symplay.h"

int libc_strchr(void) {
  char buf[8];
  int size = symplay_symbolic_sized_buffer(buf, sizeof buf, "headers");
  if (size == 0)
    return -1;
  buf[size - 1] = 0;
  const char *amp = strchr(buf + 1, '&'); /* BUG: past the end when size is 1 */
  return amp == 0 ? size - 1 : amp - buf;
}
