/* A struct copied whole, one zeroed and one moved: clang emits calls of
 * memcpy, memset and memmove, which a build without libc imports from
 * `env`. */
struct record {
  int id;
  char name[200];
  int score;
};

struct record table[4];

int keep(int slot, int id, int score) {
  if (slot < 0 || slot > 3)
    return -1;
  struct record r;
  __builtin_memset(&r, 0, sizeof r);
  r.id = id;
  r.score = score;
  table[slot] = r;
  __builtin_memmove(&table[0], &table[slot], sizeof r);
  if (table[0].score > 100)
    return -2;
  return table[0].id + table[0].name[199];
}
