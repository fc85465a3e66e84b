/* Reads days_in[m] of a global table of 12 months, for a symbolic month m
 * checked against the wrong bound. Bug: global overflow (read) at the marked
 * line when m is 12; the table's neighbour is another global, so the read
 * stays inside the data and Wasm itself sees nothing wrong. */
#include "symplay.h"

int days_in[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
int leap_years_seen = 0;

int global_overflow(void) {
  int m = symplay_symbolic_i32("m");
  if (m < 0 || m > 12) /* should be m >= 12 */
    return -1;
  return days_in[m]; /* BUG: global overflow read when m == 12 */
}
