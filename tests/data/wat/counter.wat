(module
  (memory 1)
  (global $n (export "n") (mut i32) (i32.const 0))
  (func (export "bump") (param i32) (result i32)
    (global.set $n (i32.add (global.get $n) (local.get 0)))
    (i32.store (i32.const 8) (global.get $n))
    (if (i32.gt_s (local.get 0) (i32.const 100)) (then unreachable))
    (global.get $n))
  (func (export "stored") (result i32) (i32.load (i32.const 8))))
