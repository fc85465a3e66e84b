/* KLEE's first tutorial: three paths, one per sign of x. */
int get_sign(int x) {
  if (x == 0)
    return 0;
  if (x < 0)
    return -1;
  else
    return 1;
}
