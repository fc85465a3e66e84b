/* Signed division traps twice in Wasm: by zero, and INT_MIN / -1. */
int divide(int a, int b) { return a / b; }

/* The remainder traps only by zero: INT_MIN % -1 is 0 in Wasm. */
int remainder_of(int a, int b) { return a % b; }
