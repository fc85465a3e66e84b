;; The seed prototype's regression tests: assume(n <= 10); p = malloc(n);
;; for (i = 0; i < n; i++) p[i * step] = 7; with step 1 ("fill", no bug)
;; and step 2 ("fill_strided", past the end for n = 2, 3, 4 under a
;; capacity of 4).
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
  (import "symplay" "assume" (func $assume (param i32)))
  (memory 1)
  (data (i32.const 16) "n\00")
  (func $fill (param $step i32) (local $n i32) (local $p i32) (local $i i32)
    (local.set $n (call $sym (i32.const 16)))
    (call $assume (i32.le_u (local.get $n) (i32.const 10)))
    (local.set $p (call $malloc (local.get $n)))
    (block $exit
      (loop $loop
        (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
        (i32.store8 (i32.add (local.get $p) (i32.mul (local.get $i) (local.get $step)))
                    (i32.const 7))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $loop))))
  (func (export "fill") (call $fill (i32.const 1)))
  (func (export "fill_strided") (call $fill (i32.const 2))))
