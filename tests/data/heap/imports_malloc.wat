;; Heap checking with malloc and free imported from the host ("env"), as in
;; modules built without a libc; the index k comes from symplay.symbolic_i32.
;; overflow: byte store at p+k, k in 0..31, past a 16-byte block when k >= 16.
;; use_after_free: load from a freed block. double_free: frees a block twice.
;; ok: byte store and load at p+k, k in 0..15, then one free (no bug).
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "env" "free" (func $free (param i32)))
  (import "symplay" "symbolic_i32" (func $symbolic_i32 (param i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "k\00")

  (func (export "overflow") (result i32)
    (local $p i32) (local $k i32)
    (local.set $p (call $malloc (i32.const 16)))
    (local.set $k (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 31)))
    (i32.store8 (i32.add (local.get $p) (local.get $k)) (i32.const 1))
    (call $free (local.get $p))
    (local.get $k))

  (func (export "use_after_free") (result i32)
    (local $p i32)
    (local.set $p (call $malloc (i32.const 16)))
    (i32.store (local.get $p) (i32.const 42))
    (call $free (local.get $p))
    (i32.load (local.get $p)))

  (func (export "double_free")
    (local $p i32)
    (local.set $p (call $malloc (i32.const 16)))
    (call $free (local.get $p))
    (call $free (local.get $p)))

  (func (export "ok") (result i32)
    (local $p i32) (local $k i32) (local $r i32)
    (local.set $p (call $malloc (i32.const 16)))
    (local.set $k (i32.and (call $symbolic_i32 (i32.const 16)) (i32.const 15)))
    (i32.store8 (i32.add (local.get $p) (local.get $k)) (local.get $k))
    (local.set $r (i32.load8_u (i32.add (local.get $p) (local.get $k))))
    (call $free (local.get $p))
    (local.get $r))
)
