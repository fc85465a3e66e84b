/* A 4-bucket hash table with chaining: inserts the first n (0..5) keys of a fixed list
 * (collisions, a duplicate), looks up a symbolic key, frees everything. Correct. */
#include <stdlib.h>
#include "symplay.h"

#define NB 4 /* buckets */

struct entry {
  int key;
  struct entry *next;
};

static const int keys[5] = {5, 9, 2, 5, 13};

int hash_table(void) {
  int n = symplay_symbolic_i32("n");
  int want = symplay_symbolic_i32("want");
  symplay_assume(n >= 0 && n <= 5 && want >= 0 && want < 16);
  struct entry **bucket = calloc(NB, sizeof *bucket);
  if (bucket == 0)
    return -1;
  for (int i = 0; i < n; i++) {
    int key = keys[i];
    struct entry *e = bucket[key % NB];
    while (e != 0 && e->key != key)
      e = e->next;
    if (e != 0 || (e = malloc(sizeof *e)) == 0)
      continue;
    e->key = key;
    e->next = bucket[key % NB];
    bucket[key % NB] = e;
  }
  int found = 0;
  for (struct entry *e = bucket[want % NB]; e != 0; e = e->next)
    found |= e->key == want;
  for (int b = 0; b < NB; b++)
    while (bucket[b] != 0) {
      struct entry *next = bucket[b]->next;
      free(bucket[b]);
      bucket[b] = next;
    }
  free(bucket);
  return found;
}
