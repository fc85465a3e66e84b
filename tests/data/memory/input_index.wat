;; A sized input buffer of at most 16 bytes read at a symbolic index: the
;; read is the input's array at that offset, text[i - 1] in the readable
;; form, and the paths split on it. `after_write` first writes a zero at a
;; symbolic offset into the buffer: the read is then the input's array with
;; that one store.
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "text\00")
  (func (export "before") (param $i i32) (result i32)
    (local $len i32)
    (local.set $len (call $sized (i32.const 256) (i32.const 16) (i32.const 16)))
    (if (i32.or (i32.eqz (local.get $i)) (i32.gt_u (local.get $i) (local.get $len)))
      (then (return (i32.const -1))))
    (i32.eq (i32.load8_u offset=255 (local.get $i)) (i32.const 58)))
  (func (export "after_write") (param $i i32) (param $j i32) (result i32)
    (local $len i32)
    (local.set $len (call $sized (i32.const 256) (i32.const 16) (i32.const 16)))
    (if (i32.or (i32.eqz (local.get $i)) (i32.gt_u (local.get $i) (local.get $len)))
      (then (return (i32.const -1))))
    (if (i32.or (i32.eqz (local.get $j)) (i32.gt_u (local.get $j) (local.get $len)))
      (then (return (i32.const -2))))
    (i32.store8 offset=255 (local.get $j) (i32.const 0))
    (i32.eq (i32.load8_u offset=255 (local.get $i)) (i32.const 58))))
