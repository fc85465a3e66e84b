/* Builds a singly linked list of n (0..5) nodes holding symbolic bytes, sums it
 * by traversal and frees every node. Correct for every input. */
#include <stdlib.h>
#include "symplay.h"

struct node {
  int value;
  struct node *next;
};

int linked_list(void) {
  unsigned char in[5];
  symplay_symbolic_buffer(in, sizeof in, "in");
  int n = symplay_symbolic_i32("n");
  symplay_assume(n >= 0 && n <= 5);
  struct node *head = 0;
  for (int i = 0; i < n; i++) {
    struct node *e = malloc(sizeof *e);
    if (e == 0)
      break;
    e->value = in[i];
    e->next = head;
    head = e;
  }
  int sum = 0;
  for (struct node *e = head; e != 0; e = e->next)
    sum += e->value;
  while (head != 0) {
    struct node *next = head->next;
    free(head);
    head = next;
  }
  return sum;
}
