;; A header parser over a buffer and its length: after a '#' it reads the
;; next byte without checking that the length is 2 or more. The bug is
;; there for a buffer of length 1 only. Explored with the buffer as a
;; parameter: `symplay explore header.wat --buffer 0:8:1`.
(module
  (memory (export "memory") 1)
  (func (export "header") (param $s i32) (param $n i32) (result i32)
    (if (i32.eqz (local.get $n)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (local.get $s)) (i32.const 35)) (then (return (i32.const 1))))
    (i32.load8_u offset=1 (local.get $s)))
  ;; The same over a NUL-terminated string: the length is not passed.
  (func (export "count_hashes") (param $s i32) (result i32) (local $count i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (i32.load8_u (local.get $s))))
        (if (i32.eq (i32.load8_u (local.get $s)) (i32.const 35))
          (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (local.set $s (i32.add (local.get $s) (i32.const 1)))
        (br $next)))
    (local.get $count))
  (func (export "takes_float") (param f32) (param i64)))
