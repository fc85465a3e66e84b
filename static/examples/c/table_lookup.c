/* A lookup in a constant table with an unchecked index: indices outside the
 * table read other data (a global overflow), large ones trap past memory. */
static const int squares[8] = {0, 1, 4, 9, 16, 25, 36, 49};

int lookup(int i) { return squares[i]; }

/* The checked version cannot trap. */
int lookup_checked(unsigned i) { return i < 8 ? squares[i] : -1; }
