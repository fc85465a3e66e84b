; SMT-LIB defines division by zero: bvudiv gives all ones, bvurem gives the
; dividend, bvsdiv gives 1 or all ones depending on the sign of the dividend.
(set-logic QF_BV)
(declare-const x (_ BitVec 8))
(assert (= x #x85))
(check-sat)
(get-value ((bvudiv x #x00) (bvurem x #x00) (bvsdiv x #x00) (bvsrem x #x00) (bvsmod x #x00)))
; There is no x for which bvudiv x 0 differs from #xff.
(assert (distinct (bvudiv x #x00) #xff))
(check-sat)
