// Runs the functions of outcomes.c natively: each line of standard input
// is a function's name and its arguments, each line of output its result.
#include <stdio.h>
#include <string.h>
#include "outcomes.c"

int main(void) {
  char name[64];
  int a, b, c;
  while (scanf("%63s %d %d %d", name, &a, &b, &c) == 4) {
    int r;
    // bump counts across calls in one process; each exploration starts
    // from a fresh instance, so does each call here.
    counter = 0;
    if (!strcmp(name, "classify")) r = classify(a, b);
    else if (!strcmp(name, "clamp3")) r = clamp3(a);
    else if (!strcmp(name, "sign")) r = sign(a);
    else if (!strcmp(name, "min_max")) r = min_max(a, b);
    else if (!strcmp(name, "abs_bucket")) r = abs_bucket(a);
    else if (!strcmp(name, "weekday_hours")) r = weekday_hours(a);
    else if (!strcmp(name, "pi_digit")) r = pi_digit(a);
    else if (!strcmp(name, "bump")) r = bump(a);
    else if (!strcmp(name, "square_root_of")) r = square_root_of(a);
    else if (!strcmp(name, "valid_port")) r = valid_port(a);
    else if (!strcmp(name, "char_class")) r = char_class(a);
    else if (!strcmp(name, "positives")) r = positives(a, b);
    else if (!strcmp(name, "argmax3")) r = argmax3(a, b, c);
    else if (!strcmp(name, "grade")) r = grade(a);
    else if (!strcmp(name, "parity_side")) r = parity_side(a);
    else if (!strcmp(name, "leap_year")) r = leap_year(a);
    else if (!strcmp(name, "is_number")) r = is_number(a, b, c);
    else {
      fprintf(stderr, "unknown function %s\n", name);
      return 1;
    }
    printf("%d\n", r);
  }
  return 0;
}
