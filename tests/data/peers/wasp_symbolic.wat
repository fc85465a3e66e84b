;; The `symbolic` module of WASP and the Owi/WASP benchmarks: i32 symbols,
;; a byte symbol and assume_positive_i32, from the start function.
(module
  (import "symbolic" "i32_symbol" (func $i32_symbol (result i32)))
  (import "symbolic" "char_symbol" (func $char_symbol (result i32)))
  (import "symbolic" "assume_positive_i32" (func $assume_positive (param i32)))
  (import "symbolic" "assert" (func $assert (param i32)))
  (func $main (local $a i32) (local $c i32)
    (local.set $a (call $i32_symbol))
    (local.set $c (call $char_symbol))
    (call $assume_positive (local.get $a))
    (call $assert (i32.le_u (local.get $c) (i32.const 255)))
    (call $assert (i32.ne (i32.add (local.get $a) (local.get $c)) (i32.const 300))))
  (start $main))
