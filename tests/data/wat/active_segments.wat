(module (memory 1) (data (i32.const 0) "ab")
  (func (export "f") (result i32) (memory.init 0 (i32.const 4) (i32.const 0) (i32.const 1)) (i32.const 0)))
