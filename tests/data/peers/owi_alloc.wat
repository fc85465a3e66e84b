;; Owi's `owi` module: blocks of Owi's C library (a bump allocator that
;; hands each block to `alloc`) freed with `dealloc`, one write one byte
;; too far for one symbol value, a second free on another, and the
;; characters printed with `print_char`.
(module
  (import "owi" "i32_symbol" (func $i32_symbol (result i32)))
  (import "owi" "alloc" (func $alloc (param i32 i32) (result i32)))
  (import "owi" "dealloc" (func $dealloc (param i32) (result i32)))
  (import "owi" "print_char" (func $print_char (param i32)))
  (memory 1)
  (global $next (mut i32) (i32.const 4096))
  (func $bump (param $size i32) (result i32) (local $block i32)
    (local.set $block (global.get $next))
    (global.set $next (i32.add (global.get $next) (local.get $size)))
    (call $alloc (local.get $block) (local.get $size)))
  (func $main (local $p i32) (local $i i32)
    (local.set $p (call $bump (i32.const 8)))
    (local.set $i (call $i32_symbol))
    ;; i <= 8: one byte past the block of 8 when i == 8.
    (if (i32.le_u (local.get $i) (i32.const 8))
      (then (i32.store8 (i32.add (local.get $p) (local.get $i)) (i32.const 33))))
    (call $print_char (i32.const 111))
    (call $print_char (i32.const 107))
    (drop (call $dealloc (local.get $p)))
    ;; Freed twice when i == 100.
    (if (i32.eq (local.get $i) (i32.const 100))
      (then (drop (call $dealloc (local.get $p))))))
  (start $main))
