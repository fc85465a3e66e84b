;; memory.fill of a symbolic length, up to 4 GiB, into a one-page memory.
(module
  (memory 1)
  (func (export "f") (param $n i32) (result i32)
    (memory.fill (i32.const 0) (i32.const 7) (local.get $n))
    (i32.load8_u (i32.const 100))))
