/* Recursion whose frames of about 1 KiB run the C stack pointer below the
 * stack's bottom (no data segment: the bottom comes from __data_end or the
 * global base). */
int step(int n) {
  volatile char frame[1024];
  frame[0] = (char)n;
  if (n == 0)
    return frame[0];
  return step(n - 1) + frame[0];
}

int deep_stack(int n) {
  if (n < 0 || n > 100)
    return -1;
  return step(n);
}
