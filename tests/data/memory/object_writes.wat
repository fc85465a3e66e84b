;; A 1 KiB input object (a sized buffer of its full length) written $n
;; times at offsets its own bytes give, text[text[k]] = k, after half a
;; mebibyte elsewhere was filled; 1 when text[i & 1023] is then 200. Each
;; write is one store over the object's array (the memory benchmark's
;; "writes into 1 KiB" shapes).
(module
  (import "symplay" "symbolic_sized_buffer" (func $sized (param i32 i32 i32) (result i32)))
  (import "symplay" "assume" (func $assume (param i32)))
  (memory 16)
  (data (i32.const 16) "text\00")
  (func (export "object_writes") (param $i i32) (param $n i32) (result i32)
    (local $k i32)
    (call $assume
      (i32.eq (call $sized (i32.const 65536) (i32.const 1024) (i32.const 16))
              (i32.const 1024)))
    (memory.fill (i32.const 131072) (i32.const 7) (i32.const 524288))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (i32.store8 offset=65536
          (i32.load8_u offset=65536 (local.get $k)) (local.get $k))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (i32.eq
      (i32.load8_u offset=65536 (i32.and (local.get $i) (i32.const 1023)))
      (i32.const 200))))
