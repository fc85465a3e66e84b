(module
  (func (export "count") (param $p i32) (result i32) (local $i i32)
    (block
      (br_if 0 (i32.gt_u (local.get $p) (i32.const 5)))
      (loop $l
        (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1)))
          (local.get $p)))))
    (i32.add (local.get $i) (i32.mul (local.get $p) (i32.const 0))))
  (func (export "step") (param $p i32) (result i32) (local $i i32)
    (local.set $i (i32.and (local.get $p) (i32.const 3)))
    (loop $l
      (local.set $p (i32.xor (local.get $p) (i32.shl (local.get $i) (i32.const 1))))
      (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1)))
        (i32.const 5))))
    (i32.add (local.get $i) (local.get $p))))
