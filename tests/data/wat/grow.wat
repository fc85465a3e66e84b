(module
  (memory (export "memory") 1 3)
  (func (export "grow") (param i32) (result i32)
    (block $done (block $two (block $one (block $zero
      (br_table $zero $one $two $done (local.get 0)))
      (drop (memory.grow (i32.const 0))) (br $done))
      (drop (memory.grow (i32.const 1))) (br $done))
      (drop (memory.grow (i32.const 5))))
    (i32.store (i32.const 65544) (i32.const 42))
    (i32.add (memory.size) (i32.load (i32.const 65544))))
  (func (export "grow_by") (param i32) (result i32)
    (if (i32.gt_u (local.get 0) (i32.const 3)) (then (return (i32.const -7))))
    (memory.grow (local.get 0))))
