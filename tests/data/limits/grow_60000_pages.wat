;; memory.grow by 60,000 pages, a write near the new end, and a read at a
;; symbolic address in the first page: the new size plus that byte.
(module
  (memory 1)
  (func (export "f") (param $x i32) (result i32)
    (drop (memory.grow (i32.const 60000)))
    (i32.store (i32.const 3932160000) (local.get $x))
    (i32.add (memory.size) (i32.load8_u (i32.and (local.get $x) (i32.const 0xffff))))))
