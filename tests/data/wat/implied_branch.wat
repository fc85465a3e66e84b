(module (func (export "f") (param i32) (result i32)
  (if (i32.gt_s (local.get 0) (i32.const 10))
    (then (if (i32.gt_s (local.get 0) (i32.const 5)) (then (return (i32.const 1))))))
  (i32.const 0)))
