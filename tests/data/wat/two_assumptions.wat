(module
  (import "symplay" "assume" (func $assume (param i32)))
  (func (export "g") (param i32) (result i32)
    (if (i32.gt_u (local.get 0) (i32.const 10))
      (then (call $assume (i32.lt_u (local.get 0) (i32.const 5)))))
    (if (i32.eq (local.get 0) (i32.const 7))
      (then (call $assume (i32.const 0))))
    (local.get 0)))
