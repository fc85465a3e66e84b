(module
  (import "symplay" "symbolic_buffer" (func $buf (param i32 i32 i32)))
  (memory 1) (data (i32.const 0) "key\00") (data (i32.const 16) "SymplayX")
  (func (export "f") (result i32) (local $i i32)
    (call $buf (i32.const 32) (i32.const 8) (i32.const 0))
    (block $out (loop $next
      (br_if $out (i32.ne (i32.load8_u offset=32 (local.get $i)) (i32.load8_u offset=16 (local.get $i))))
      (br_if $next (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (i32.const 8)))))
    (local.get $i)))
