;; The largest memory a module may declare, 65,536 pages (4 GiB), written
;; and read at its last bytes and at a symbolic address anywhere in it.
(module
  (memory 65536)
  (func (export "f") (param $x i32) (result i32)
    (i32.store (i32.const 0xfffffffc) (local.get $x))
    (if (result i32) (i32.eq (i32.load8_u (i32.const 0xfffffffd)) (i32.const 7))
      (then (i32.const 1))
      (else (i32.load (i32.and (local.get $x) (i32.const 0xfffffffc)))))))
