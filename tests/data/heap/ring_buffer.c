/* A 4-slot ring buffer in a malloc block driven by 5 symbolic push/pop ops;
 * full and empty are checked, indices wrap modulo 4. Correct for every input. */
#include <stdlib.h>
#include "symplay.h"

#define CAP 4

int ring_buffer(void) {
  unsigned char ops[5];
  symplay_symbolic_buffer(ops, sizeof ops, "ops");
  int *buf = malloc(CAP * sizeof(int));
  if (buf == 0)
    return -1;
  int head = 0, count = 0, sum = 0;
  for (int i = 0; i < 5; i++) {
    if (ops[i] & 1) { /* push */
      if (count < CAP) {
        buf[(head + count) % CAP] = i;
        count++;
      }
    } else if (count > 0) { /* pop */
      sum += buf[head];
      head = (head + 1) % CAP;
      count--;
    }
  }
  free(buf);
  return sum + count;
}
