#include "symplay.h"

/* A packet of 8 symbolic bytes: packets of another kind are rejected, and the
 * assertion claims no packet has the checksum 0xcafe1234. The solver finds
 * one that does, and the report gives it as the failing input. */
int check_packet(void) {
  unsigned char packet[8];
  symplay_symbolic_buffer(packet, sizeof packet, "packet");
  if (packet[0] != 0x7f)
    return -1;
  uint32_t sum = 0;
  for (int i = 0; i < 8; i++)
    sum = sum * 31 + packet[i];
  symplay_assert(sum != 0xcafe1234u);
  return (int)(sum & 0xff);
}
