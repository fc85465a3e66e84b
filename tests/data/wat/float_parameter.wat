(module
  (func (export "half") (param f64) (result i32)
    (if (result i32) (f64.gt (local.get 0) (f64.const 0.5)) (then (i32.const 1)) (else (i32.const 0))))
  (func (export "scaled") (param i32) (result i32)
    (i32.trunc_f64_s (f64.mul (f64.convert_i32_s (local.get 0)) (f64.const 0.25)))))
