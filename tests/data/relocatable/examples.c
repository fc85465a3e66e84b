/* The worked examples of relocatable addressing, dynamic segments, splitting
 * and address-aware caching (../shared/design/relocatable_and_caching.md §5),
 * as wasm32 programs: 4-byte pointers, as in the thesis. Each entry frees
 * what it allocated, so that its only outcomes are the ones the example is
 * about. tests/tests/relocatable.rs says what each explores to. */
#include <stdlib.h>
#include "symplay.h"

/* E1-E3: two 256-byte blocks behind an array of two pointers, one byte
 * read through a symbolic pointer. calloc zero-fills, so the branch is
 * never taken: 2 paths when the read forks per block (E1), 1 when both
 * blocks are one segment (E2), 4 when each block is split into 64-byte
 * pieces of which j < 100 reaches two (E3). */
int blocks(void) {
  char **array = calloc(2, sizeof(char *));
  for (int k = 0; k < 2; k++)
    array[k] = calloc(256, 1);
  unsigned i = symplay_symbolic_i32("i");
  unsigned j = symplay_symbolic_i32("j");
  symplay_assume(i < 2 && j < 100);
  int found = array[i][j] == 1;
  for (int k = 0; k < 2; k++)
    free(array[k]);
  free(array);
  return found;
}

/* E4: the same read, reached by two states that allocated alike: the
 * second merge of the two blocks is the first one again (segment reuse). */
int blocks_twice(void) {
  int z = symplay_symbolic_i32("z");
  char **array = calloc(2, sizeof(char *));
  for (int k = 0; k < 2; k++)
    array[k] = calloc(256, 1);
  int bias = z > 0 ? 1 : 2;
  unsigned i = symplay_symbolic_i32("i");
  unsigned j = symplay_symbolic_i32("j");
  symplay_assume(i < 2 && j < 100);
  int found = array[i][j] == bias;
  for (int k = 0; k < 2; k++)
    free(array[k]);
  free(array);
  return found;
}

/* E4 with the branch before the read: each side logs which it took (a
 * global, outside the heap) and then reads array[i][j]. Neither side
 * allocates after the fork, so each merges the two blocks at the same
 * place with the same bytes: the second merge is the first one again, and
 * its queries are the first one's (segment reuse by construction). */
static volatile int side_taken;

__attribute__((noinline)) static void take_side(int side) { side_taken = side; }

int blocks_after_branch(void) {
  int z = symplay_symbolic_i32("z");
  char **array = calloc(2, sizeof(char *));
  for (int k = 0; k < 2; k++)
    array[k] = calloc(256, 1);
  unsigned i = symplay_symbolic_i32("i");
  unsigned j = symplay_symbolic_i32("j");
  symplay_assume(i < 2 && j < 100);
  if (z > 0)
    take_side(1);
  else
    take_side(2);
  int found = array[i][j] == side_taken;
  for (int k = 0; k < 2; k++)
    free(array[k]);
  free(array);
  return found;
}

/* E5: three chained hash tables of 300 buckets, five concrete keys each,
 * one looked up by a symbolic key in the first. The bucket read resolves
 * into one bucket array; a node's key read resolves among the first
 * table's nodes only. */
#define TABLES 3
#define BUCKETS 300
#define KEYS 5

struct node {
  unsigned key;
  struct node *next;
};

struct table {
  struct node **buckets;
};

static void insert(struct table *t, unsigned key) {
  struct node *n = calloc(1, sizeof *n);
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

int hash_tables(void) {
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

/* E6: the two sides of a branch allocate differently before the same
 * blocks are made, so the blocks lie at other addresses on each side:
 * their queries differ by addresses alone (address-aware caching). */
int divergent_allocations(void) {
  int z = symplay_symbolic_i32("z");
  char *extra = 0;
  if (z > 0)
    extra = malloc(64);
  char **array = calloc(2, sizeof(char *));
  for (int k = 0; k < 2; k++)
    array[k] = calloc(2, 1);
  array[0][1] = 7;
  unsigned i = symplay_symbolic_i32("i");
  unsigned j = symplay_symbolic_i32("j");
  symplay_assume(i < 2 && j < 2);
  int found = array[i][j] == 7;
  for (int k = 0; k < 2; k++)
    free(array[k]);
  free(array);
  free(extra);
  return found;
}

/* E6 as the thesis writes it: a branch on the byte through a pointer
 * loaded from memory, which may be either block's: where it lands depends
 * on where the other block lies, so its queries keep their addresses and
 * address-aware caching answers none of them (E7's argument needs j's
 * bound). The volatile store keeps the branch a branch. */
volatile int hits;

int divergent_branch(void) {
  int z = symplay_symbolic_i32("z");
  char *extra = 0;
  if (z > 0)
    extra = malloc(64);
  char **array = calloc(2, sizeof(char *));
  for (int k = 0; k < 2; k++)
    array[k] = calloc(2, 1);
  array[0][1] = 7;
  array[1][0] = 5;
  unsigned i = symplay_symbolic_i32("i");
  unsigned j = symplay_symbolic_i32("j");
  symplay_assume(i < 2 && j < 2);
  if (array[i][j] == 7)
    hits = hits + 1;
  for (int k = 0; k < 2; k++)
    free(array[k]);
  free(array);
  free(extra);
  return 0;
}

/* E6 through a pointer into its own block: the buffer is made after the
 * sides of z allocated differently, and read at a symbolic index that may
 * pass its end, so each side's path keeps the read's bound check on the
 * buffer's address; the branches' queries differ between the sides by
 * that address alone, and the first one can never hold. */
int divergent_buffer(void) {
  int z = symplay_symbolic_i32("z");
  char *extra = 0;
  if (z > 0)
    extra = malloc(64);
  char *buffer = calloc(4, 1);
  buffer[1] = 7;
  buffer[2] = 5;
  unsigned j = symplay_symbolic_i32("j");
  char c = buffer[j & 7];
  if (c == 9)
    hits = hits + 1;
  if (c == 7)
    hits = hits + 2;
  free(buffer);
  free(extra);
  return 0;
}

/* E8 as branches: which block lies higher decides the first, so both
 * blocks are pinned (each is at its address in the address-aware cache's
 * keys); the low bits of a third block's address decide the second, the
 * same in every layout the engine tries, so it is not pinned, and the
 * cache's guard leaves those queries to the solver chain. */
int ordered_blocks(void) {
  char *p = malloc(10);
  char *q = malloc(50);
  char *r = malloc(8);
  int k = symplay_symbolic_i32("k");
  if ((p < q) == (k > 0))
    hits = hits + 1;
  if (((unsigned long)r & 7) == (unsigned)k)
    hits = hits + 2;
  free(r);
  free(q);
  free(p);
  return 0;
}

/* E8: conditions on the addresses themselves: which block lies higher,
 * and a read far past the first block (a heap overflow here, where the
 * thesis's model could land in the second block). */
int address_dependent(void) {
  char *p = malloc(10);
  char *q = malloc(50);
  int k = symplay_symbolic_i32("k");
  symplay_assume(k >= 0 && k < 50);
  q[k] = 3;
  int higher = p > q;
  int same = *(p + 100) == *q;
  free(q);
  free(p);
  return higher + same;
}

/* A pointer chosen by an input, read through (under segments the two
 * blocks move into one segment there) and returned: a replay, which moves
 * nothing, returns another number for the same place in the same block. */
char *chosen_block(void) {
  char **array = calloc(2, sizeof(char *));
  for (int k = 0; k < 2; k++) {
    array[k] = calloc(4, 1);
    array[k][0] = (char)(k + 1);
  }
  unsigned i = symplay_symbolic_i32("i");
  symplay_assume(i < 2);
  char *p = array[i];
  free(array);
  if (p[0] == 2)
    p += 1;
  return p;
}
