#include <stdlib.h>
#include "symplay.h"

/* Three chained hash tables of 64 buckets, five keys each, and one lookup
 * of a symbolic key in the first. The bucket read is one read of one
 * array; the node it yields may be any of the first table's five, so
 * reading its key forks a path per node (--resolve fork), or moves the
 * five into one segment and reads them as one array (--resolve segment).
 * Either way the lookup finds every key of the first table and no other. */
#define TABLES 3
#define BUCKETS 64
#define KEYS 5

struct node {
  unsigned key;
  struct node *next;
};

struct table {
  struct node **buckets;
};

static void insert(struct table *t, unsigned key) {
  struct node *n = malloc(sizeof *n);
  n->key = key;
  n->next = t->buckets[key % BUCKETS];
  t->buckets[key % BUCKETS] = n;
}

static int lookup(struct table *t, unsigned key) {
  for (struct node *n = t->buckets[key % BUCKETS]; n != 0; n = n->next)
    if (n->key == key)
      return 1;
  return 0;
}

int find_key(void) {
  struct table tables[TABLES];
  for (int t = 0; t < TABLES; t++) {
    tables[t].buckets = calloc(BUCKETS, sizeof(struct node *));
    for (unsigned k = 0; k < KEYS; k++)
      insert(&tables[t], 7 * k + 100 * t + 1);
  }
  unsigned key = symplay_symbolic_i32("key");
  int found = lookup(&tables[0], key);
  for (int t = 0; t < TABLES; t++) {
    for (int b = 0; b < BUCKETS; b++)
      while (tables[t].buckets[b] != 0) {
        struct node *next = tables[t].buckets[b]->next;
        free(tables[t].buckets[b]);
        tables[t].buckets[b] = next;
      }
    free(tables[t].buckets);
  }
  return found;
}
