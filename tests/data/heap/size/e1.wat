;; symbolic_size.md §5 E1 (Fig. 3 of the paper): p = malloc(n) with n
;; symbolic (capacity 3 in the tests), then
;; for (i = 0; i < n; i++) { if (z == 0) break; p[i] = i; }
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "n\00z\00")
  (func (export "e1") (local $n i32) (local $z i32) (local $p i32) (local $i i32)
    (local.set $n (call $sym (i32.const 16)))
    (local.set $z (call $sym (i32.const 18)))
    (local.set $p (call $malloc (local.get $n)))
    (block $exit
      (loop $loop
        (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
        (br_if $exit (i32.eqz (local.get $z)))
        (i32.store8 (i32.add (local.get $p) (local.get $i)) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop))))
  ;; The same loop, returning how many bytes it wrote: merged, i is an ite
  ;; over the iterations, and the result splits into its values.
  (func (export "e1_count") (result i32) (local $n i32) (local $z i32) (local $p i32) (local $i i32)
    (local.set $n (call $sym (i32.const 16)))
    (local.set $z (call $sym (i32.const 18)))
    (local.set $p (call $malloc (local.get $n)))
    (block $exit
      (loop $loop
        (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
        (br_if $exit (i32.eqz (local.get $z)))
        (i32.store8 (i32.add (local.get $p) (local.get $i)) (local.get $i))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop)))
    (local.get $i))
  ;; symbolic_size.md E2: the body writes p[i] for i > 0 only, and the
  ;; break leaves by an exit of its own, so the states that ran the loop to
  ;; its test and the one that broke out wait in two groups.
  (func (export "e2") (local $n i32) (local $z i32) (local $p i32) (local $i i32)
    (local.set $n (call $sym (i32.const 16)))
    (local.set $z (call $sym (i32.const 18)))
    (local.set $p (call $malloc (local.get $n)))
    (block $broke
      (block $done
        (loop $loop
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (br_if $broke (i32.eqz (local.get $z)))
          (if (i32.gt_u (local.get $i) (i32.const 0))
            (then (i32.store8 (i32.add (local.get $p) (local.get $i)) (local.get $i))))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $loop)))
      (local.set $i (i32.const 100)))))
