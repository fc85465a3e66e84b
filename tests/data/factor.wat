;; Can x * y be this 62-bit semiprime (two 31-bit primes)? One solver query
;; of minutes: the tests of stopping and of time limits inside a query.
(module (func (export "factor") (param $x i64) (param $y i64) (result i32)
  (if (result i32)
    (i32.and (i64.eq (i64.mul (local.get $x) (local.get $y)) (i64.const 2949305686811325649))
      (i32.and (i32.and (i64.gt_u (local.get $x) (i64.const 1)) (i64.gt_u (local.get $y) (i64.const 1)))
        (i32.and (i64.lt_u (local.get $x) (i64.const 0x80000000)) (i64.lt_u (local.get $y) (i64.const 0x80000000)))))
    (then (i32.const 1)) (else (i32.const 0)))))
