#include <stdlib.h>
#include "symplay.h"

/* A use after free: a connection object is freed on the error path for a bad
 * port, but the code goes on to read its descriptor. Exploration reports the
 * read only for the ports that take the error path, with the block's malloc
 * and free sites; valid ports run clean. */
struct conn {
  int port;
  int fd;
};

int open_conn(void) {
  int port = symplay_symbolic_i32("port");
  struct conn *c = malloc(sizeof *c);
  if (c == 0)
    return -1;
  c->port = port;
  c->fd = 3;
  if (port <= 0 || port > 65535)
    free(c); /* error path: forgets to return */
  int fd = c->fd;
  free(c);
  return fd;
}
