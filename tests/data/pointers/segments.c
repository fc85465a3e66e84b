/* Pointer-heavy programs for dynamic segments (`--resolve segment`): an
 * access through a pointer that may point into one of several heap
 * blocks, chosen by a symbolic input. Forking makes a path per block at
 * each such access; a segment makes one, over one array of the blocks'
 * bytes. tests/benches/segments.rs runs each both ways, and
 * tests/tests/option_combinations.rs checks that both find the same
 * outcomes. The last two show where segments cannot help: a search whose
 * branches fix the pointer, and blocks a branch ordered (pinned). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symplay.h"

/* Rows of a matrix, each a block of its own; one cell read at symbolic
 * row and column, compared with a cell of a fixed row. */
#define ROWS 8
#define COLS 16
int matrix_rows(void) {
  int **rows = malloc(ROWS * sizeof *rows);
  for (int r = 0; r < ROWS; r++) {
    rows[r] = malloc(COLS * sizeof **rows);
    for (int c = 0; c < COLS; c++)
      rows[r][c] = r * COLS + c;
  }
  unsigned i = symplay_symbolic_i32("i");
  unsigned j = symplay_symbolic_i32("j");
  int result = 0;
  if (i < ROWS && j < COLS)
    result = rows[i][j] == rows[3][5] ? 1 : 2;
  for (int r = 0; r < ROWS; r++)
    free(rows[r]);
  free(rows);
  return result;
}

/* A table of names, each a string of its own, one compared with a
 * symbolic buffer: strcmp reads through the chosen name byte by byte. */
static const char *const NAMES[] = {"alpha", "beta", "gamma", "delta", "epsilon", "zeta"};
#define NAME_COUNT (sizeof NAMES / sizeof *NAMES)
int name_table(void) {
  char **table = malloc(NAME_COUNT * sizeof *table);
  for (unsigned k = 0; k < NAME_COUNT; k++) {
    size_t n = strlen(NAMES[k]) + 1;
    table[k] = malloc(n);
    memcpy(table[k], NAMES[k], n);
  }
  char guess[4];
  symplay_symbolic_buffer(guess, sizeof guess, "guess");
  unsigned i = symplay_symbolic_i32("i");
  int result = 0;
  if (i < NAME_COUNT)
    result = table[i][0] == guess[0] && table[i][1] == guess[1] ? 1 : 2;
  for (unsigned k = 0; k < NAME_COUNT; k++)
    free(table[k]);
  free(table);
  return result;
}

/* Records reached through an array of pointers: one picked by a symbolic
 * id, a field updated, then all summed. */
struct account {
  uint32_t id;
  int32_t balance;
};
#define ACCOUNTS 6
int account_update(void) {
  struct account *accounts[ACCOUNTS];
  for (int k = 0; k < ACCOUNTS; k++) {
    accounts[k] = malloc(sizeof **accounts);
    accounts[k]->id = 100 + k;
    accounts[k]->balance = 10 * k;
  }
  unsigned id = symplay_symbolic_i32("id");
  int amount = symplay_symbolic_i32("amount");
  int total = 0;
  if (id < ACCOUNTS && amount > 0 && amount < 1000) {
    accounts[id]->balance += amount;
    for (int k = 0; k < ACCOUNTS; k++)
      total += accounts[k]->balance;
  }
  for (int k = 0; k < ACCOUNTS; k++)
    free(accounts[k]);
  return total > 200 ? 1 : 0;
}

/* A chained hash table of 16 buckets and 24 keys, looked up by a
 * symbolic key: a bucket's chain is walked through node pointers read at
 * a symbolic index. */
struct node {
  unsigned key;
  struct node *next;
};
#define BUCKETS 16
#define KEYS 24
int hash_lookup(void) {
  struct node **buckets = calloc(BUCKETS, sizeof *buckets);
  for (unsigned k = 0; k < KEYS; k++) {
    struct node *n = malloc(sizeof *n);
    n->key = 3 * k + 1;
    n->next = buckets[n->key % BUCKETS];
    buckets[n->key % BUCKETS] = n;
  }
  unsigned key = symplay_symbolic_i32("key");
  int found = 0;
  for (struct node *n = buckets[key % BUCKETS]; n; n = n->next)
    if (n->key == key) {
      found = 1;
      break;
    }
  for (unsigned b = 0; b < BUCKETS; b++)
    while (buckets[b]) {
      struct node *next = buckets[b]->next;
      free(buckets[b]);
      buckets[b] = next;
    }
  free(buckets);
  return found;
}

/* A list walked a symbolic number of steps: the node reached is one of
 * the list's, read once. */
#define LENGTH 10
int list_walk(void) {
  struct node *head = 0;
  for (unsigned k = 0; k < LENGTH; k++) {
    struct node *n = malloc(sizeof *n);
    n->key = k * k;
    n->next = head;
    head = n;
  }
  unsigned steps = symplay_symbolic_i32("steps");
  symplay_assume(steps < LENGTH);
  struct node *at = head;
  for (unsigned k = 0; k < LENGTH - 1; k++)
    at = k < steps ? at->next : at;
  int result = at->key > 20 ? 1 : 0;
  while (head) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return result;
}

/* Pointers to values sorted by the values, which are symbolic: the
 * pointer array's entries become choices among the blocks, and each read
 * through one after the sort points into any of them. */
#define VALUES 4
int pointer_sort(void) {
  int *values[VALUES];
  for (int k = 0; k < VALUES; k++) {
    values[k] = malloc(sizeof **values);
    *values[k] = symplay_symbolic_i32("v") & 0xff;
  }
  for (int a = 0; a < VALUES; a++)
    for (int b = a + 1; b < VALUES; b++) {
      int *low = *values[a] <= *values[b] ? values[a] : values[b];
      int *high = *values[a] <= *values[b] ? values[b] : values[a];
      values[a] = low;
      values[b] = high;
    }
  int sorted = 1;
  for (int k = 0; k + 1 < VALUES; k++)
    sorted &= *values[k] <= *values[k + 1];
  for (int k = 0; k < VALUES; k++)
    free(values[k]);
  return sorted;
}

/* A binary search tree searched for a symbolic key: each step's branch
 * fixes which node comes next, so no access has a choice of blocks. */
struct tree {
  int key;
  struct tree *left, *right;
};
static struct tree *tree_insert(struct tree *t, int key) {
  if (!t) {
    t = calloc(1, sizeof *t);
    t->key = key;
  } else if (key < t->key) {
    t->left = tree_insert(t->left, key);
  } else {
    t->right = tree_insert(t->right, key);
  }
  return t;
}
static void tree_free(struct tree *t) {
  if (t) {
    tree_free(t->left);
    tree_free(t->right);
    free(t);
  }
}
int tree_search(void) {
  static const int keys[] = {50, 30, 70, 20, 40, 60, 80, 35, 65};
  struct tree *root = 0;
  for (unsigned k = 0; k < sizeof keys / sizeof *keys; k++)
    root = tree_insert(root, keys[k]);
  int key = symplay_symbolic_i32("key");
  int depth = 0;
  for (struct tree *t = root; t && t->key != key; t = key < t->key ? t->left : t->right)
    depth++;
  tree_free(root);
  return depth;
}

/* Two blocks whose order a branch observed, then one write through a
 * pointer to either: the blocks are pinned, and the write forks. */
int ordered_blocks(void) {
  char *a = calloc(32, 1);
  char *b = calloc(32, 1);
  int lower_first = 0;
  if (a < b)
    lower_first = symplay_symbolic_i32("w") & 1;
  char *pair[2] = {a, b};
  unsigned i = symplay_symbolic_i32("i") & 1;
  unsigned j = symplay_symbolic_i32("j") & 31;
  pair[i][j] = 1;
  int result = a[j] + b[j] + lower_first;
  free(a);
  free(b);
  return result;
}
