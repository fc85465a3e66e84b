//! Bit-blasting (placeholder until the bit-blaster lands).
