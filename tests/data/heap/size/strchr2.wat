;; quantified_merging.md §3.4 (T8): strchr(s, 'a') called twice, the
;; second call from the byte after the first match, over a buffer s of
;; symbolic size n <= 4 (the seed's n <= 3 would leave the second call's
;; matches at k2 = 0 and 1, a unit that repeats in no word, which this
;; engine's partitioning does not take for a pattern):
;;   i = from; while (i < n && s[i] != 0) { if (s[i] == 'a') return i; i++; } return -1;
;;   first = strchr(0); if (first < 0) return -1; return strchr(first + 1);
;; Each call's loop is left by its `return` where s[i] = 'a': under PAT
;; the first call's matches merge over k1 (the match's index), and the
;; second's over k2, at k1 + k2 + 1.
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "s\00")
  (func $strchr (param $from i32) (param $n i32) (result i32) (local $i i32)
    (local.set $i (local.get $from))
    (block $none
      (loop $loop
        (br_if $none (i32.ge_u (local.get $i) (local.get $n)))
        (br_if $none (i32.eqz (i32.load8_u (i32.add (i32.const 64) (local.get $i)))))
        (if (i32.eq (i32.load8_u (i32.add (i32.const 64) (local.get $i))) (i32.const 97))
          (then (return (local.get $i))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop)))
    (i32.const -1))
  (func (export "strchr2") (result i32) (local $n i32) (local $first i32)
    (local.set $n (call $sized (i32.const 64) (i32.const 4) (i32.const 16)))
    (local.set $first (call $strchr (i32.const 0) (local.get $n)))
    (if (i32.lt_s (local.get $first) (i32.const 0))
      (then (return (i32.const -1))))
    (call $strchr (i32.add (local.get $first) (i32.const 1)) (local.get $n))))
