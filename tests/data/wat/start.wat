(module
  (global $g (mut i32) (i32.const 5))
  (func $init (global.set $g (i32.const 40)))
  (start $init)
  (func (export "get") (param i32) (result i32)
    (if (i32.lt_s (local.get 0) (i32.const 0)) (then (return (global.get $g))))
    (i32.add (global.get $g) (local.get 0))))
