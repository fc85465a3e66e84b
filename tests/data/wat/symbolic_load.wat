(module
  (import "symplay" "assert" (func $assert (param i32)))
  (memory 1) (data (i32.const 16) "\00\01\02\00")
  (func (export "byte_is") (param i32 i32)
    (call $assert (i32.ne (i32.load8_u offset=16 (i32.and (local.get 0) (i32.const 3))) (local.get 1)))))
