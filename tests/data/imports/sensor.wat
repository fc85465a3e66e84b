;; An import the engine does not provide (env.sensor), called on one side
;; of a branch only, and a WASI import nothing calls (clock_res_get).
(module
  (import "env" "sensor" (func $sensor (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_res_get" (func (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "read_sensor") (param $x i32) (result i32)
    (if (result i32) (i32.gt_s (local.get $x) (i32.const 5))
      (then
        (if (result i32) (i32.eq (call $sensor (local.get $x)) (i32.const 42))
          (then (i32.const 1))
          (else (i32.const 2))))
      (else (i32.const 0)))))
