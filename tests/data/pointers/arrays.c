/* Array-heavy programs for splitting (`--split`): reads and writes at
 * symbolic offsets into objects and regions larger than the threshold.
 * Splitting pays where the path bounds an offset that its shape does not
 * (a checked index into a large block: one piece is feasible), and costs
 * where every piece is (an index masked into a large table: a fork per
 * piece at every read). tests/benches/split.rs runs each with and without
 * splitting; tests/tests/split.rs checks that both find the same
 * outcomes. */
#include <stdint.h>
#include <stdlib.h>
#include "symplay.h"

#define BLOCK 4096

/* A checked index into a 4 KiB block of non-zero bytes, read four times:
 * without splitting each read selects from 4,096 bytes; split, from the
 * one 128-byte piece that i < 100 reaches. */
int checked_index(void) {
  unsigned char *block = malloc(BLOCK);
  for (int k = 0; k < BLOCK; k++)
    block[k] = (unsigned char)(k * k / 8 + k + 1);
  unsigned i = symplay_symbolic_i32("i");
  int result = 0;
  if (i < 100) {
    unsigned sum = block[i] + block[i + 1] + block[i + 2] + block[i + 3];
    unsigned at_50 = block[50] + block[51] + block[52] + block[53];
    result = sum == at_50 ? 1 : 2;
  }
  free(block);
  return result;
}

/* Records of 32 bytes in a 4 KiB block, one picked by a symbolic id
 * below 8, a field read and written back: reads and writes at symbolic
 * offsets into one piece of a large block. */
struct record {
  uint32_t id;
  uint32_t balance;
  char name[24];
};

int record_update(void) {
  struct record *records = calloc(BLOCK / sizeof(struct record), sizeof(struct record));
  for (unsigned k = 0; k < BLOCK / sizeof(struct record); k++) {
    records[k].id = k;
    records[k].balance = 100 * k;
  }
  unsigned id = symplay_symbolic_i32("id");
  unsigned amount = symplay_symbolic_i32("amount");
  int result = 0;
  if (id < 8 && amount < 1000) {
    records[id].balance -= amount;
    if (records[id].balance > 600)
      result = 1;
    else if (records[id].id == 3)
      result = 2;
  }
  free(records);
  return result;
}

/* A 1 KiB lookup table in the data section read at a masked index: each
 * of the two reads may land in any piece, so splitting forks at each. */
static uint32_t table[256];

int masked_table(void) {
  for (uint32_t k = 0; k < 256; k++)
    table[k] = k * 2654435761u;
  unsigned a = symplay_symbolic_i32("a");
  unsigned b = symplay_symbolic_i32("b");
  uint32_t h = table[a & 255] ^ table[b & 255];
  return h == (table[3] ^ table[200]);
}

/* A string of at most 15 symbolic bytes at a symbolic place in the first
 * 64 bytes of a 4 KiB buffer, its length measured: each byte read is at a
 * symbolic offset that the path bounds to one or two pieces. */
int string_in_buffer(void) {
  char *buffer = calloc(BLOCK, 1);
  for (int k = 0; k < BLOCK; k++)
    buffer[k] = 'x';
  unsigned at = symplay_symbolic_i32("at");
  symplay_assume(at < 64);
  char text[16];
  symplay_symbolic_buffer(text, 16, "text");
  text[15] = 0;
  for (int k = 0; k < 16; k++)
    buffer[at + k] = text[k];
  int n = 0;
  while (n < 16 && buffer[at + n] != 0)
    n++;
  free(buffer);
  return n;
}
