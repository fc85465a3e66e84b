/* Clamps x into [lo, hi]: three paths. Built with --export-all, as a
 * quick clang build often is, so the module also exports clang's
 * __wasm_call_ctors (and its data globals): the function to explore is
 * found without naming it. */
int clamp(int x, int lo, int hi) {
  if (x < lo)
    return lo;
  if (x > hi)
    return hi;
  return x;
}
