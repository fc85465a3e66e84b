#!/usr/bin/env bash
# Rebuilds the example modules from their C sources. The .wasm files are
# committed, so running the examples needs no C compiler; this needs Debian's
# clang-14 and lld-14, and for the WASI example wasi-libc and
# libclang-rt-14-dev-wasm32. -fno-builtin keeps LLVM from replacing the loops with
# library calls; no wasm-opt may be on PATH (clang would run it and strip the
# name section). -g adds the DWARF line tables that map code to C lines
# (the code itself is the same); the prefix map keeps the build path out.
set -euo pipefail
cd "$(dirname "$0")"
build() {
  local opt=$1 src=$2; shift 2
  local exports=()
  for f in "$@"; do exports+=("-Wl,--export=$f"); done
  clang-14 --target=wasm32 -nostdlib "$opt" -g -fdebug-prefix-map="$PWD"=. -fno-builtin -I ../.. \
    -Wl,--no-entry -Wl,--allow-undefined "${exports[@]}" \
    "$src.c" -o "$src.wasm"
}
# -O0 keeps get_sign's two branches: -O1 turns them into `select`s.
build -O0 get_sign get_sign
build -O1 divide divide remainder_of
build -O1 table_lookup lookup lookup_checked
build -O1 checksum check_packet
build -O1 string_scan string_length split_key
build -O1 parse_int parse_int
# -O0 keeps sum_to's loop: -O1 computes the sum in closed form.
build -O0 sum_to sum_to
build -O1 password check_password
# A reactor module against wasi-libc (Debian installs its sysroot under /usr).
clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. -mexec-model=reactor \
  -Wl,--export=classify wasi_classify.c -o wasi_classify.wasm
# malloc and free from wasi-libc, compiled into the module.
clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. -mexec-model=reactor -I ../.. \
  -Wl,--export=copy_record heap.c -o heap.wasm
# Heap bugs, against wasi-libc's malloc and free like heap.c.
libc() {
  clang-14 --target=wasm32-wasi --sysroot=/usr -O1 -g -fdebug-prefix-map="$PWD"=. -mexec-model=reactor \
    -fno-builtin -I ../.. -Wl,--export="$2" "$1.c" -o "$1.wasm"
}
# An off-by-one write past a malloc'd block, for names without a NUL.
libc heap_overflow copy_name
# A read of a block freed on the error path.
libc use_after_free open_conn
# A second free in goto cleanup, for input starting with '='.
libc double_free parse_pair
# A read past a buffer of symbolic length, at size 1 only: missed by --size-mode base.
libc length_read first_header
# A symbolic index into an array of heap pointers, and a symbolic offset.
libc pointer_array store
# Correct chained scans over a string of symbolic length: path counts per size mode.
libc strchr_chain field_gap
# A pointer to a returned frame's buffer, read back by the caller.
libc dangling_pointer first_letter
# Chained hash tables: a node pointer read at a symbolic bucket forks per node, or one segment.
libc hash_tables find_key
# A loop over a line of symbolic length whose states merge at its exit (--merge smopt).
libc memspn blank_run
# The seed's first loop (E1); -O0 keeps the stop test inside the loop (-O1 hoists it out).
clang-14 --target=wasm32-wasi --sysroot=/usr -O0 -g -fdebug-prefix-map="$PWD"=. -mexec-model=reactor \
  -fno-builtin -I ../.. -Wl,--export=fill_prefix size_loop.c -o size_loop.wasm
