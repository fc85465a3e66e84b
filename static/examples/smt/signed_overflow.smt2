; Can `a + b` overflow in 32-bit signed arithmetic when both are positive?
; And is `(a + b) / 2` (the classic midpoint bug) ever negative then?
(set-logic QF_BV)
(set-option :produce-models true)
(declare-const a (_ BitVec 32))
(declare-const b (_ BitVec 32))
(define-fun sum () (_ BitVec 32) (bvadd a b))
(assert (bvsgt a #x00000000))
(assert (bvsgt b #x00000000))
(assert (bvslt sum #x00000000))
(check-sat)
(get-value (a b sum (bvsdiv sum #x00000002)))
; The safe midpoint a + (b - a) / 2, with a <= b, never goes negative.
(push 1)
(assert (bvsle a b))
(assert (bvslt (bvadd a (bvsdiv (bvsub b a) #x00000002)) #x00000000))
(check-sat)
(pop 1)
