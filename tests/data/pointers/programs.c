/* More programs that use pointers and the heap, for the benchmark set of
 * relocatable addressing (tests/benches/segments.rs) and its differential
 * (tests/tests/option_combinations.rs, tests/tests/replay_vs_wasmi.rs):
 * string functions, a linked list, a small parser, a sort, a stack, a
 * ring buffer, a growing vector, a symbol table, a field splitter and a
 * message decoder whose paths allocate differently.
 * Some hold a bug that every memory option must find alike; each says
 * which. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "symplay.h"

/* A copy of a symbolic string into a block of its length, then compared
 * with a word: strlen, memcpy and strcmp over heap bytes. */
int string_copy(void) {
  char input[6];
  symplay_symbolic_buffer(input, sizeof input - 1, "s");
  input[5] = 0;
  size_t n = strlen(input);
  char *copy = malloc(n + 1);
  memcpy(copy, input, n + 1);
  int result = strcmp(copy, "heap") == 0 ? 1 : 0;
  free(copy);
  return result;
}

/* Two heap strings joined into a block one byte too short for the
 * terminator when both are long. BUG: a heap overflow by one. */
int string_join(void) {
  char a[4], b[4];
  symplay_symbolic_buffer(a, 3, "a");
  symplay_symbolic_buffer(b, 3, "b");
  a[3] = b[3] = 0;
  size_t la = strlen(a), lb = strlen(b);
  char *joined = malloc(la + lb < 6 ? la + lb + 1 : la + lb);
  memcpy(joined, a, la);
  memcpy(joined + la, b, lb);
  joined[la + lb] = 0;
  int first = joined[0];
  free(joined);
  return first;
}

/* A sorted singly linked list: three symbolic keys inserted, the one
 * equal to a fourth removed, the list freed. */
struct item {
  int key;
  struct item *next;
};

static struct item *sorted_insert(struct item *head, int key) {
  struct item *node = malloc(sizeof *node);
  node->key = key;
  struct item **at = &head;
  while (*at && (*at)->key < key)
    at = &(*at)->next;
  node->next = *at;
  *at = node;
  return head;
}

int list_sorted(void) {
  struct item *head = 0;
  for (int k = 0; k < 3; k++)
    head = sorted_insert(head, symplay_symbolic_i32("key") & 7);
  int gone = symplay_symbolic_i32("gone") & 7;
  for (struct item **at = &head; *at; at = &(*at)->next)
    if ((*at)->key == gone) {
      struct item *dead = *at;
      *at = dead->next;
      free(dead);
      break;
    }
  int first = head ? head->key : -1;
  while (head) {
    struct item *next = head->next;
    free(head);
    head = next;
  }
  return first;
}

/* A tokenizer: digits and operators of a symbolic 4-byte text become
 * heap tokens, evaluated left to right. BUG: a text that ends on an
 * operator reads the number after it from the next token, which is not
 * there (a read past the token array). */
struct token {
  char op;
  int value;
};

int tokens(void) {
  char text[4];
  symplay_symbolic_buffer(text, sizeof text, "text");
  struct token *tok = malloc(4 * sizeof *tok);
  int n = 0;
  for (int i = 0; i < 4; i++) {
    char c = text[i];
    if (c >= '0' && c <= '9')
      tok[n++] = (struct token){0, c - '0'};
    else if (c == '+' || c == '-')
      tok[n++] = (struct token){c, 0};
    else
      break;
  }
  int value = n > 0 && tok[0].op == 0 ? tok[0].value : 0;
  for (int i = 1; i < n; i += 2) {
    if (tok[i].op == 0)
      break;
    int rhs = tok[i + 1].value;
    value = tok[i].op == '+' ? value + rhs : value - rhs;
  }
  free(tok);
  return value;
}

/* Records sorted by insertion sort over an array of pointers to them:
 * the comparisons read through pointers the swaps moved. */
struct record {
  int key;
  int payload;
};

int record_sort(void) {
  struct record *r[4];
  for (int k = 0; k < 4; k++) {
    r[k] = malloc(sizeof *r[k]);
    r[k]->key = symplay_symbolic_i32("key") & 3;
    r[k]->payload = k;
  }
  for (int i = 1; i < 4; i++)
    for (int j = i; j > 0 && r[j - 1]->key > r[j]->key; j--) {
      struct record *t = r[j];
      r[j] = r[j - 1];
      r[j - 1] = t;
    }
  int first = r[0]->payload;
  for (int k = 0; k < 4; k++)
    free(r[k]);
  return first;
}

/* A stack machine over a heap stack of four: pushes and pops from a
 * symbolic program. BUG: pop does not check for an empty stack (a read
 * before the block). */
int stack_machine(void) {
  unsigned char program[4];
  symplay_symbolic_buffer(program, sizeof program, "program");
  int *stack = malloc(4 * sizeof *stack);
  int top = 0;
  int result = 0;
  for (int i = 0; i < 4; i++) {
    if (program[i] < 8)
      stack[top++] = program[i];
    else if (program[i] == 8)
      result += stack[--top];
    else
      break;
  }
  free(stack);
  return result;
}

/* A ring buffer of eight bytes on the heap: a symbolic count of bytes
 * written, the oldest read back. */
struct ring {
  unsigned char *bytes;
  unsigned head, count;
};

int ring_buffer(void) {
  struct ring *ring = malloc(sizeof *ring);
  ring->bytes = calloc(8, 1);
  ring->head = ring->count = 0;
  unsigned writes = (unsigned)symplay_symbolic_i32("writes") % 12;
  for (unsigned k = 0; k < writes; k++) {
    ring->bytes[(ring->head + ring->count) % 8] = (unsigned char)k;
    if (ring->count == 8)
      ring->head = (ring->head + 1) % 8;
    else
      ring->count++;
  }
  int oldest = ring->count ? ring->bytes[ring->head] : -1;
  free(ring->bytes);
  free(ring);
  return oldest;
}

/* A vector grown by realloc to hold a symbolic count of items, then
 * read at a symbolic index checked against the count. */
int growing_vector(void) {
  unsigned count = (unsigned)symplay_symbolic_i32("count") % 6;
  unsigned capacity = 2;
  int *items = malloc(capacity * sizeof *items);
  for (unsigned k = 0; k < count; k++) {
    if (k == capacity) {
      capacity *= 2;
      items = realloc(items, capacity * sizeof *items);
    }
    items[k] = (int)(k * k);
  }
  unsigned i = symplay_symbolic_i32("i");
  int result = i < count ? items[i] : -1;
  free(items);
  return result;
}

/* A symbol table: names interned as heap strings behind an array of
 * entries, one looked up by a symbolic two-byte name. */
struct symbol {
  char *name;
  int id;
};

int symbol_table(void) {
  static const char *const WORDS[] = {"if", "do", "in", "or", "as"};
  struct symbol *table = malloc(5 * sizeof *table);
  for (int k = 0; k < 5; k++) {
    table[k].name = malloc(3);
    memcpy(table[k].name, WORDS[k], 3);
    table[k].id = k;
  }
  char name[2];
  symplay_symbolic_buffer(name, sizeof name, "name");
  int found = -1;
  for (int k = 0; k < 5; k++)
    if (table[k].name[0] == name[0] && table[k].name[1] == name[1]) {
      found = table[k].id;
      break;
    }
  for (int k = 0; k < 5; k++)
    free(table[k].name);
  free(table);
  return found;
}

/* A symbolic text split on commas into fields copied to blocks of their
 * own: strchr and memcpy over heap strings; the second field's length. */
int split_fields(void) {
  char text[6];
  symplay_symbolic_buffer(text, 5, "text");
  text[5] = 0;
  char *fields[3] = {0, 0, 0};
  int n = 0;
  const char *start = text;
  while (n < 3) {
    const char *comma = strchr(start, ',');
    size_t len = comma ? (size_t)(comma - start) : strlen(start);
    fields[n] = malloc(len + 1);
    memcpy(fields[n], start, len);
    fields[n][len] = 0;
    n++;
    if (!comma)
      break;
    start = comma + 1;
  }
  int second = n > 1 ? (int)strlen(fields[1]) : -1;
  for (int k = 0; k < n; k++)
    free(fields[k]);
  return second;
}

/* A message whose header byte says which optional parts follow (a name,
 * a pair of attributes): each part is allocated only when present, so the
 * paths through the header allocate differently before the decoder makes
 * its dictionary, which lies at another address on each. The body's codes
 * index the dictionary, and a code past its six words overflows it (the
 * bug every option must find); the words the other codes read decide the
 * sum. The paths after the header ask the same questions of the
 * dictionary wherever it lies: the seeds' situation for address-aware
 * caching. */
struct attribute {
  int key;
  int value;
};

int message_decode(void) {
  unsigned char message[5];
  symplay_symbolic_buffer(message, sizeof message, "message");
  char *name = 0;
  struct attribute *attributes = 0;
  if (message[0] & 1) {
    name = malloc(8);
    name[0] = (char)message[1];
    name[1] = 0;
  }
  if (message[0] & 2) {
    attributes = malloc(2 * sizeof *attributes);
    attributes[0] = (struct attribute){message[1], 1};
    attributes[1] = (struct attribute){0, 0};
  }
  int *dictionary = malloc(6 * sizeof *dictionary);
  for (int k = 0; k < 6; k++)
    dictionary[k] = 10 * k;
  int sum = 0;
  for (int i = 2; i < 5; i++) {
    int word = dictionary[message[i] & 7];
    if (word > 20)
      sum += word;
  }
  free(dictionary);
  free(attributes);
  free(name);
  return sum;
}
