;; A sized input buffer of at most 16 bytes read at a symbolic index: the
;; read is the input's array at that offset, text[i - 1] in the readable
;; form, and the paths split on it.
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "text\00")
  (func (export "before") (param $i i32) (result i32)
    (local $len i32)
    (local.set $len (call $sized (i32.const 256) (i32.const 16) (i32.const 16)))
    (if (i32.or (i32.eqz (local.get $i)) (i32.gt_u (local.get $i) (local.get $len)))
      (then (return (i32.const -1))))
    (i32.eq (i32.load8_u offset=255 (local.get $i)) (i32.const 58))))
