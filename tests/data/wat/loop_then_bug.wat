(module
  (func (export "after_loop") (param $n i32) (param $x i32) (result i32) (local $i i32)
    ;; Each round forks on the symbolic bound; the state that stays in the
    ;; loop is the newest, so depth first never leaves it.
    (block $done
      (loop $l
        (br_if $done (i32.eq (local.get $i) (local.get $n)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $l)))
    (if (i32.eq (local.get $x) (i32.const 42)) (then unreachable))
    (local.get $i)))
