;; quantified_merging.md §2.2's memspn with chars = "a" over a buffer s
;; of symbolic size n <= 3:
;;   p = chars; count = 0;
;;   while (*p && count < n) { if (*p == s[count]) { count++; p = chars; } else p++; }
;; *p is concrete, so the branches are count < n, the size check of
;; s[count] (one feasible side) and s[count] = 'a'. Its seven states leave
;; the loop at one exit. The engine simplifies the first iteration's
;; conditions to other shapes (n != 0 where later ones read n > c), so
;; their words fall into two regular patterns after it: the unit
;; (s[count] = 'a', count < n, the size check) k = 0..2 times, then
;; count >= n, or s[count] != 'a'; the state for n = 0 is in neither.
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "s\00")
  (data (i32.const 32) "a\00")
  (func (export "memspn") (result i32) (local $n i32) (local $p i32) (local $count i32)
    (local.set $n (call $sized (i32.const 64) (i32.const 3) (i32.const 16)))
    (local.set $p (i32.const 32))
    (block $exit
      (loop $loop
        (br_if $exit (i32.eqz (i32.load8_u (local.get $p))))
        (br_if $exit (i32.ge_u (local.get $count) (local.get $n)))
        (if (i32.eq (i32.load8_u (local.get $p))
                    (i32.load8_u (i32.add (i32.const 64) (local.get $count))))
          (then
            (local.set $count (i32.add (local.get $count) (i32.const 1)))
            (local.set $p (i32.const 32)))
          (else (local.set $p (i32.add (local.get $p) (i32.const 1)))))
        (br $loop)))
    (local.get $count)))
