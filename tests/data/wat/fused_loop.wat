(module (memory 1)
      (func (export "f") (result i32) (local $i i32) (local $s i32)
        (loop $l
          (i32.store8 (local.get $i) (local.get $i))
          (local.set $s (i32.add (local.get $s) (i32.load8_u (local.get $i))))
          (local.set $s (i32.rotl (local.get $s) (i32.const 3)))
          (br_if $l (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1)))
            (i32.const 8))))
        (local.get $s)))
