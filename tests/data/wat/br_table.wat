(module (func (export "f") (param i32) (result i32)
  (block (block (block (br_table 0 1 2 1 (local.get 0))) (return (i32.const 10)))
    (return (i32.const 11)))
  (i32.const 12)))
