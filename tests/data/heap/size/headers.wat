;; The libosip shape (symbolic_size.md §5, E6): a buffer of symbolic length
;; up to 8; past a first byte, the next is read, which is past the end on a
;; buffer of length 1 only.
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "s\00")
  (func (export "headers") (local $len i32)
    (local.set $len (call $sized (i32.const 256) (i32.const 8) (i32.const 16)))
    (if (i32.ge_u (local.get $len) (i32.const 1))
      (then (drop (i32.load8_u (i32.const 257)))))))
