;; Owi's `owi` module: a free symbol, a range symbol (lo inclusive, hi
;; exclusive), an assumption and an assertion, run from the start
;; function. The assertion y < 299 fails only for y = 299.
(module
  (import "owi" "i32_symbol" (func $i32_symbol (result i32)))
  (import "owi" "range_symbol" (func $range_symbol (param i32 i32) (result i32)))
  (import "owi" "assume" (func $assume (param i32)))
  (import "owi" "assert" (func $assert (param i32)))
  (func $main (local $x i32) (local $y i32)
    (local.set $x (call $range_symbol (i32.const 10) (i32.const 20)))
    (local.set $y (call $range_symbol (i32.const 200) (i32.const 300)))
    (call $assert (i32.ge_s (local.get $x) (i32.const 10)))
    (call $assert (i32.lt_s (local.get $x) (i32.const 20)))
    (call $assume (i32.ne (call $i32_symbol) (i32.const 0)))
    (call $assert (i32.lt_u (local.get $y) (i32.const 299))))
  (start $main))
