#include <stdlib.h>
#include "symplay.h"

/* A double free in goto-style cleanup: parsing a "key=value" pair frees the
 * value buffer when the key is empty and then jumps to the shared cleanup,
 * which frees it again. Exploration reports the second free only for inputs
 * that start with '='. */
int parse_pair(void) {
  char in[3];
  symplay_symbolic_buffer(in, sizeof in, "pair");
  int status = -1;
  char *key = malloc(2);
  char *val = malloc(2);
  if (key == 0 || val == 0)
    goto done;
  if (in[0] == '=') {
    free(val); /* empty key: drop the value early */
    goto done;
  }
  key[0] = in[0];
  val[0] = in[1] == '=' ? in[2] : 0;
  status = key[0] + val[0];
done:
  free(key);
  free(val);
  return status;
}
