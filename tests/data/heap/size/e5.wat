;; symbolic_size.md §5 E5 (Fig. 1.8 of the thesis): chained searches over a
;; string of symbolic size, NUL included:
;;   p = s; for (j = 0; j < calls; j++) { p = find(p, 'a'); if (p) p++; else break; }
;; where find is strchr's loop. Each merge of a search's states embeds the
;; merged state of the search before it, so the merged formulas grow with
;; the number of calls and with the capacity.
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (memory 1)
  (data (i32.const 16) "s\00")
  ;; The first 'a' at or after p, or 0 at the NUL.
  (func $find (param $p i32) (result i32)
    (block $found
      (loop $scan
        (br_if $found (i32.eq (i32.load8_u (local.get $p)) (i32.const 97)))
        (if (i32.eqz (i32.load8_u (local.get $p))) (then (return (i32.const 0))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $scan)))
    (local.get $p))
  (func $chain (param $capacity i32) (param $calls i32) (result i32)
    (local $n i32) (local $p i32) (local $j i32)
    (local.set $n (call $sized (i32.const 64) (local.get $capacity) (i32.const 16)))
    (if (i32.eqz (local.get $n)) (then (return (i32.const -1))))
    ;; s[n - 1] = 0
    (i32.store8 (i32.add (i32.const 63) (local.get $n)) (i32.const 0))
    (local.set $p (i32.const 64))
    (block $out
      (loop $next
        (br_if $out (i32.ge_u (local.get $j) (local.get $calls)))
        (local.set $p (call $find (local.get $p)))
        (br_if $out (i32.eqz (local.get $p)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br $next)))
    (i32.sub (local.get $p) (i32.const 64)))
  (func (export "one_call") (result i32) (call $chain (i32.const 4) (i32.const 1)))
  (func (export "two_calls") (result i32) (call $chain (i32.const 4) (i32.const 2)))
  (func (export "two_calls_wider") (result i32) (call $chain (i32.const 6) (i32.const 2))))
