;; symbolic_size.md §5 E3 and E4: no loop, so no merge mode merges here, and
;; each explores what it does without merging.
;; E3: p = calloc(n, 1); q = calloc(10, 1): q lies past p's capacity
;; whatever n is, so q - p is one constant on every path.
;; E4 (the seed's stated limitation): p = calloc(n, 1), capacity 3; if
;; (n > 0 && n < 3) { p[n - 1] = 17; if (p[0] == 0) ... }: the read of p[0]
;; is over the write at the symbolic index n - 1.
(module
  (import "env" "calloc" (func $calloc (param i32 i32) (result i32)))
  (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "n\00")
  (func (export "e3") (result i32) (local $n i32) (local $p i32) (local $q i32)
    (local.set $n (call $sym (i32.const 16)))
    (local.set $p (call $calloc (local.get $n) (i32.const 1)))
    (local.set $q (call $calloc (i32.const 10) (i32.const 1)))
    (i32.sub (local.get $q) (local.get $p)))
  (func (export "e4") (result i32) (local $n i32) (local $p i32)
    (local.set $n (call $sym (i32.const 16)))
    (local.set $p (call $calloc (local.get $n) (i32.const 1)))
    (if (i32.and (i32.gt_u (local.get $n) (i32.const 0)) (i32.lt_u (local.get $n) (i32.const 3)))
      (then
        (i32.store8 (i32.add (local.get $p) (i32.sub (local.get $n) (i32.const 1))) (i32.const 17))
        (if (i32.eqz (i32.load8_u (local.get $p)))
          (then (return (i32.const 1)))
          (else (return (i32.const 2))))))
    (i32.const 0)))
