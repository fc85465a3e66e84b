;; s = s * y + x, 3,000 times over two symbolic i64s, then a branch on s:
;; the one query's circuit has tens of millions of gates.
(module (func (export "poly") (param $x i64) (param $y i64) (result i32) (local $s i64) (local $i i32)
  (loop $l
    (local.set $s (i64.add (i64.mul (local.get $s) (local.get $y)) (local.get $x)))
    (local.set $i (i32.add (local.get $i) (i32.const 1)))
    (br_if $l (i32.lt_u (local.get $i) (i32.const 3000))))
  (if (result i32) (i64.eq (local.get $s) (i64.const 12345)) (then (i32.const 1)) (else (i32.const 0)))))
