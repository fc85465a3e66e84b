; Which input makes a parser accept its header? The input is a byte array;
; the parser checks a 4-byte magic number, then reads a little-endian 32-bit
; length that must be non-zero and smaller than 4096, and a checksum byte.
(set-logic QF_ABV)
(set-option :produce-models true)
(declare-const input (Array (_ BitVec 32) (_ BitVec 8)))
(define-fun byte ((i (_ BitVec 32))) (_ BitVec 8) (select input i))
(define-fun len () (_ BitVec 32)
  (concat (byte #x00000007) (byte #x00000006) (byte #x00000005) (byte #x00000004)))
(assert (= (byte #x00000000) #x7f))
(assert (= (byte #x00000001) #x45))
(assert (= (byte #x00000002) #x4c))
(assert (= (byte #x00000003) #x46))
(assert (and (distinct len #x00000000) (bvult len #x00001000)))
(assert (= (bvadd (byte #x00000004) (byte #x00000005) (byte #x00000008)) #x00))
(check-sat)
(get-value (len (byte #x00000008)))
; A second branch: can the length also be a multiple of 1024 with an odd checksum?
(push 1)
(assert (= (bvurem len #x00000400) #x00000000))
(assert (= ((_ extract 0 0) (byte #x00000008)) #b1))
(check-sat)
(pop 1)
(exit)
