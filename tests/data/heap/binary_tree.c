/* Inserts 3 symbolic keys (0..3) into a binary search tree (duplicates ignored),
 * looks up a symbolic key and frees the tree recursively. Correct for every input. */
#include <stdlib.h>
#include "symplay.h"

struct tree {
  int key;
  struct tree *left, *right;
};

static struct tree *insert(struct tree *t, int key) {
  if (t == 0) {
    if ((t = calloc(1, sizeof *t)) != 0)
      t->key = key;
  } else if (key != t->key) {
    struct tree **child = key < t->key ? &t->left : &t->right;
    *child = insert(*child, key);
  }
  return t;
}

static void destroy(struct tree *t) {
  if (t == 0)
    return;
  destroy(t->left);
  destroy(t->right);
  free(t);
}

int binary_tree(void) {
  unsigned char k[4];
  symplay_symbolic_buffer(k, sizeof k, "keys");
  struct tree *root = 0;
  for (int i = 0; i < 3; i++)
    root = insert(root, k[i] & 3);
  int want = k[3] & 3, found = 0;
  for (struct tree *t = root; t != 0 && !found; t = want < t->key ? t->left : t->right)
    found = t->key == want;
  destroy(root);
  return found;
}
