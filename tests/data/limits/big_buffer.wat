;; A symbolic buffer of 16 MiB: sixteen million symbolic bytes.
(module
  (import "symplay" "symbolic_buffer" (func $buf (param i32 i32 i32)))
  (memory 300) (data (i32.const 0) "buf\00")
  (func (export "big") (result i32)
    (call $buf (i32.const 16) (i32.const 16777216) (i32.const 0))
    (if (result i32) (i32.eq (i32.load8_u (i32.const 100)) (i32.const 7)) (then (i32.const 1)) (else (i32.const 0)))))
