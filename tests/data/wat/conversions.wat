(module (func (export "f") (param i32) (result i32)
  (if (i32.eqz (local.get 0)) (then (return (i32.trunc_f32_s (f32.const nan)))))
  (if (i32.eq (local.get 0) (i32.const 1)) (then (drop (i64.trunc_f32_u (f32.const -inf))) (return (i32.const 0))))
  (i32.trunc_f64_u (f64.const 5e9))))
