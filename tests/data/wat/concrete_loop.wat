(module (memory 1) (func (export "f") (result i32) (local i32 i32)
  (loop
    (i32.store (local.get 0) (local.get 0))
    (local.set 1 (i32.add (local.get 1) (i32.load8_u (local.get 0))))
    (br_if 0 (i32.lt_u (local.tee 0 (i32.add (local.get 0) (i32.const 4))) (i32.const 40))))
  (local.get 1)))
