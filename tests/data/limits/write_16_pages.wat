;; A loop writing a symbolic byte to every byte of 16 pages, then a read at
;; a symbolic index: a million byte terms.
(module
  (memory 16)
  (func (export "f") (param $x i32) (param $i i32) (result i32)
    (local $k i32)
    (loop $next
      (i32.store8 (local.get $k) (i32.add (local.get $x) (local.get $k)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $next (i32.lt_u (local.get $k) (i32.const 1048576))))
    (i32.load8_u (i32.and (local.get $i) (i32.const 4095)))))
