;; quantified_merging.md §5's memspn with chars = "ab" over a buffer s
;; of symbolic size n <= 3 (T9):
;;   p = chars; count = 0;
;;   while (*p && count < n) { if (*p == s[count]) { count++; p = chars; } else p++; }
;; Each iteration comes back to the loop's head with count + 1 and p =
;; chars two ways: s[count] = 'a', or s[count] != 'a' then s[count] =
;; 'b'. Without merging, the states double each iteration; under PAT the
;; two merge incrementally at the head into one, whose edge is the
;; disjunction of the two ways, and the exit's states fall into the
;; regular partitions of memspn over "a" (memspn_a.wat).
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "s\00")
  (data (i32.const 32) "ab\00")
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
