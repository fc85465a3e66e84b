;; memspn_ab.wat's loop as compilers rotate it: the test at the bottom
;; (a br_if back to the head), entered once under an if. A state comes to
;; the head only on the side of that fork, so the two ways of an
;; iteration (s[count] = 'a', or s[count] != 'a' then s[count] = 'b')
;; meet where the match's block starts, the start of a fork's side, as
;; in the seed's example: p differs there but is dead (set again).
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "s\00")
  (data (i32.const 32) "ab\00")
  (func (export "memspn") (result i32) (local $n i32) (local $p i32) (local $count i32)
    (local.set $n (call $sized (i32.const 64) (i32.const 3) (i32.const 16)))
    (local.set $p (i32.const 32))
    (if (i32.lt_u (local.get $count) (local.get $n))
      (then
        (loop $loop
          (if (i32.eq (i32.load8_u (local.get $p))
                      (i32.load8_u (i32.add (i32.const 64) (local.get $count))))
            (then
              (local.set $count (i32.add (local.get $count) (i32.const 1)))
              (local.set $p (i32.const 32)))
            (else (local.set $p (i32.add (local.get $p) (i32.const 1)))))
          (br_if $loop (i32.and (i32.ne (i32.load8_u (local.get $p)) (i32.const 0))
                                (i32.lt_u (local.get $count) (local.get $n)))))))
    (local.get $count)))
