// Small classroom functions whose outcomes optimised code computes as
// values (selects, lookup tables, comparisons' results) rather than
// branches. tests/tests/outcomes.rs runs them natively over a grid of
// inputs and checks that exploring each build (-O0, -O1, -O2) reports
// every outcome the grid found. Each returns one of a few codes, and none
// has undefined behaviour on any input.

int classify(int x, int y) {
  if (x > 10) {
    if ((unsigned)y == (unsigned)x * 2) return 1;
    return 2;
  }
  if ((unsigned)x + (unsigned)y == 7) return 3;
  return 4;
}

int clamp3(int x) { return x < 0 ? -1 : (x > 100 ? 1 : 0); }

int sign(int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

int min_max(int x, int y) {
  int lo = x < y ? x : y;
  int hi = x > y ? x : y;
  return (lo == x) + 2 * (hi == y) + 4 * (lo == hi);
}

int abs_bucket(int x) {
  unsigned a = x < 0 ? 0u - (unsigned)x : (unsigned)x;
  if (a < 10) return 0;
  if (a < 100) return 1;
  return 2;
}

int weekday_hours(int day) {
  switch (day) {
  case 0: return 0;
  case 1: return 8;
  case 2: return 9;
  case 3: return 7;
  case 4: return 10;
  case 5: return 6;
  case 6: return 4;
  default: return -1;
  }
}

static const int digits_of_pi[8] = {3, 1, 4, 1, 5, 9, 2, 6};

int pi_digit(int i) { return (unsigned)i < 8 ? digits_of_pi[i] : -1; }

static int counter;

int bump(int x) {
  if (x > 5) counter++;
  if (x > 10) counter++;
  return counter;
}

int square_root_of(int x) {
  for (int i = 0; i < 10; i++)
    if (x == i * i) return i;
  return -1;
}

int valid_port(int port) { return port >= 1 && port <= 65535; }

int char_class(int c) {
  if (c >= '0' && c <= '9') return 1;
  if ((c | 32) >= 'a' && (c | 32) <= 'z') return 2;
  if (c == ' ') return 3;
  return 0;
}

int positives(int x, int y) { return (x > 0) + (y > 0) * 2; }

int argmax3(int x, int y, int z) { return x >= y && x >= z ? 0 : y >= z ? 1 : 2; }

int grade(int score) {
  if (score >= 90) return 'A';
  if (score >= 80) return 'B';
  if (score >= 70) return 'C';
  if (score >= 60) return 'D';
  return 'F';
}

int parity_side(int x) { return (x & 1) ? (x > 0 ? 1 : 2) : (x > 0 ? 3 : 4); }

int leap_year(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

// An optional minus and one or two digits, as the characters a, b, c
// (0 ends the text): 1 when they read as such a number.
int is_number(int a, int b, int c) {
  int i = 0;
  int text[3] = {a, b, c};
  if (text[0] == '-') i = 1;
  int digits = 0;
  while (i < 3 && text[i] >= '0' && text[i] <= '9') {
    digits++;
    i++;
  }
  return digits >= 1 && digits <= 2 && (i == 3 || text[i] == 0);
}
