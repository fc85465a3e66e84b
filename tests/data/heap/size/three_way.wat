;; A fork of three sides inside a loop over a size, one of which traps:
;; for (i = 0; i < n; i++) switch (x) { case 0: case 1: continue; default: trap }
;; with p = malloc(n). The two sides that go on merge at the loop's exit;
;; the trapping side ends inside the loop, so the merged condition must
;; not cover it (x >= 2 with n > 0 traps).
(module
  (import "env" "malloc" (func $malloc (param i32) (result i32)))
  (import "symplay" "symbolic_i32" (func $sym (param i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "n\00x\00")
  (func (export "three_way") (result i32) (local $n i32) (local $x i32) (local $p i32) (local $i i32)
    (local.set $n (call $sym (i32.const 16)))
    (local.set $x (call $sym (i32.const 18)))
    (local.set $p (call $malloc (local.get $n)))
    (block $exit
      (loop $loop
        (br_if $exit (i32.ge_u (local.get $i) (local.get $n)))
        (block $trap
          (block $one
            (block $zero
              (br_table $zero $one $trap (local.get $x)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $loop))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $loop))
        (unreachable)))
    (local.get $x)))
