#include <stdio.h>

/* A wasm32-wasi reactor module: printf goes through wasi-libc to fd_write,
 * which Symplay captures per path. Formatting a symbolic number forks once
 * per digit count. */
int classify(int x) {
  if (x > 100) {
    printf("big %d\n", x);
    return 2;
  }
  printf("small\n");
  return 1;
}
