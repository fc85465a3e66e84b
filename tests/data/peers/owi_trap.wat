;; Owi's `owi` module: a trap reachable for some symbol values, an exit
;; with a code and an abort, which ends its path silently.
(module
  (import "owi" "i32_symbol" (func $i32_symbol (result i32)))
  (import "owi" "exit" (func $exit (param i32)))
  (import "owi" "abort" (func $abort))
  (func $main (local $x i32)
    (local.set $x (call $i32_symbol))
    (if (i32.gt_s (local.get $x) (i32.const 5)) (then (unreachable)))
    (if (i32.eq (local.get $x) (i32.const 3)) (then (call $exit (i32.const 7))))
    (if (i32.eq (local.get $x) (i32.const 4)) (then (call $abort))))
  (start $main))
