;; Memory shapes for the contents benchmark (tests/benches/memory.rs):
;; symbolic indices into tables and buffers, a string copy, branches on
;; input bytes. Sizes come from concrete parameters (--concrete).
(module
  (import "symplay" "symbolic_buffer" (func $symbolic_buffer (param i32 i32 i32)))
  (memory (export "memory") 16)
  (data (i32.const 16) "buf\00")
  (data (i32.const 1024) "\01\02\03\04\05\06\07\08\09\0a\0b\0c\0d\0e\0f\10\11\12\13\14\15\16\17\18\19\1a\1b\1c\1d\1e\1f\20\21\22\23\24\25\26\27\28\29\2a\2b\2c\2d\2e\2f\30\31\32\33\34\35\36\37\38\39\3a\3b\3c\3d\3e\3f\40\41\42\43\44\45\46\47\48\49\4a\4b\4c\4d\4e\4f\50\51\52\53\54\55\56\57\58\59\5a\5b\5c\5d\5e\5f\60\61\62\63\64\65\66\67\68\69\6a\6b\6c\6d\6e\6f\70\71\72\73\74\75\76\77\78\79\7a\7b\7c\7d\7e\7f\80\81\82\83\84\85\86\87\88\89\8a\8b\8c\8d\8e\8f\90\91\92\93\94\95\96\97\98\99\9a\9b\9c\9d\9e\9f\a0\a1\a2\a3\a4\a5\a6\a7\a8\a9\aa\ab\ac\ad\ae\af\b0\b1\b2\b3\b4\b5\b6\b7\b8\b9\ba\bb\bc\bd\be\bf\c0\c1\c2\c3\c4\c5\c6\c7\c8\c9\ca\cb\cc\cd\ce\cf\d0\d1\d2\d3\d4\d5\d6\d7\d8\d9\da\db\dc\dd\de\df\e0\e1\e2\e3\e4\e5\e6\e7\e8\e9\ea\eb\ec\ed\ee\ef\f0\f1\f2\f3\f4\f5\f6\f7\f8\f9\fa\fb\fc\fd\fe\ff\07")

  ;; 1 when the byte at table[i & 255] is 200, else 0.
  (func (export "table_lookup") (param $i i32) (result i32)
    (i32.eq
      (i32.load8_u offset=1024 (i32.and (local.get $i) (i32.const 255)))
      (i32.const 200)))

  ;; The same after filling half a mebibyte elsewhere with non-zero bytes.
  (func (export "table_after_fill") (param $i i32) (result i32)
    (memory.fill (i32.const 65536) (i32.const 7) (i32.const 524288))
    (i32.eq
      (i32.load8_u offset=1024 (i32.and (local.get $i) (i32.const 255)))
      (i32.const 200)))

  ;; A 4 KiB table at 8192 filled by a loop, read at a symbolic index.
  (func (export "table_4k") (param $i i32) (result i32)
    (local $k i32)
    (loop $fill
      (i32.store8 offset=8192 (local.get $k)
        (i32.add (i32.mul (local.get $k) (i32.const 7)) (i32.const 1)))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $k) (i32.const 4096))))
    (i32.eq
      (i32.load8_u offset=8192 (i32.and (local.get $i) (i32.const 4095)))
      (i32.const 200)))

  ;; Four reads of the 256-byte table at symbolic indices, after the
  ;; memory grew by $grow pages and $fill bytes from 65536 were filled with
  ;; non-zero bytes: 1 when the bytes read xor to 200. The reads reach the
  ;; table alone, whatever the memory's size and contents.
  (func (export "table_reads")
    (param $a i32) (param $b i32) (param $c i32) (param $d i32)
    (param $grow i32) (param $fill i32) (result i32)
    (drop (memory.grow (local.get $grow)))
    (memory.fill (i32.const 65536) (i32.const 7) (local.get $fill))
    (i32.eq
      (i32.xor
        (i32.xor
          (i32.load8_u offset=1024 (i32.and (local.get $a) (i32.const 255)))
          (i32.load8_u offset=1024 (i32.and (local.get $b) (i32.const 255))))
        (i32.xor
          (i32.load8_u offset=1024 (i32.and (local.get $c) (i32.const 255)))
          (i32.load8_u offset=1024 (i32.and (local.get $d) (i32.const 255)))))
      (i32.const 200)))

  ;; n symbolic bytes at 65536 (n a power of two), read at a symbolic index.
  (func (export "index_read") (param $i i32) (param $n i32) (result i32)
    (call $symbolic_buffer (i32.const 65536) (local.get $n) (i32.const 16))
    (i32.eq
      (i32.load8_u offset=65536
        (i32.and (local.get $i) (i32.sub (local.get $n) (i32.const 1))))
      (i32.const 120)))

  ;; Copies a string of at most n symbolic bytes from 65536 to 196608;
  ;; its length.
  (func (export "string_copy") (param $n i32) (result i32)
    (local $k i32) (local $c i32)
    (call $symbolic_buffer (i32.const 65536) (local.get $n) (i32.const 16))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (local.set $c (i32.load8_u offset=65536 (local.get $k)))
        (i32.store8 offset=196608 (local.get $k) (local.get $c))
        (br_if $done (i32.eqz (local.get $c)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $k))

  ;; n input bytes, each tested once: 2^n paths, each writing its count.
  (func (export "branches") (param $n i32) (result i32)
    (local $k i32) (local $count i32)
    (call $symbolic_buffer (i32.const 65536) (local.get $n) (i32.const 16))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (if (i32.eq (i32.load8_u offset=65536 (local.get $k)) (i32.const 97))
          (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (i32.store offset=131072 (i32.shl (local.get $k) (i32.const 2)) (local.get $count))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $count))

  ;; The same over the whole memory: byte k's count goes to page k (n at
  ;; most 16), so each path writes to n of the 16 pages.
  (func (export "page_writes") (param $n i32) (result i32)
    (local $k i32) (local $count i32)
    (call $symbolic_buffer (i32.const 65536) (local.get $n) (i32.const 16))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (if (i32.eq (i32.load8_u offset=65536 (local.get $k)) (i32.const 97))
          (then (local.set $count (i32.add (local.get $count) (i32.const 1)))))
        (i32.store offset=32768 (i32.shl (local.get $k) (i32.const 16)) (local.get $count))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (local.get $count)))
