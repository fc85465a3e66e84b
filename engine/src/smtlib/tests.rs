//! Parsing every construct to the term built directly, scoping, and the
//! responses and errors of whole scripts.

use super::*;
use crate::expr::{BvBinOp, BvCmp, BvUnOp, Node, Sort, TermId, TermStore};

const PRELUDE: &str = "
    (set-logic QF_ABV)
    (declare-const x (_ BitVec 8))
    (declare-fun y () (_ BitVec 8))
    (declare-const p Bool)
    (declare-const q Bool)
    (declare-const m (Array (_ BitVec 32) (_ BitVec 8)))
    (declare-const i (_ BitVec 32))
";

struct Vars {
    x: TermId,
    y: TermId,
    p: TermId,
    q: TermId,
    m: TermId,
    i: TermId,
}

fn script(prelude: &str) -> (Script, Vars) {
    let mut script = Script::new(&RunOptions::default());
    script.execute(prelude).unwrap();
    let store = script.store_mut();
    let var = |name: &str| store.symbol_term(store.symbol_named(name).unwrap());
    let vars = Vars {
        x: var("x"),
        y: var("y"),
        p: var("p"),
        q: var("q"),
        m: var("m"),
        i: var("i"),
    };
    (script, vars)
}

fn parse(script: &mut Script, text: &str) -> TermId {
    script
        .parse_term(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn parse_err(script: &mut Script, text: &str) -> String {
    match script.parse_term(text) {
        Ok(_) => panic!("{text} parsed"),
        Err(e) => e.message,
    }
}

/// Builds the term a test expects.
type Builder<'a> = dyn Fn(&mut TermStore, &Vars) -> TermId + 'a;

/// Asserts that each text parses to the term its builder makes.
fn check_terms(prelude: &str, cases: &[(&str, &Builder<'_>)]) {
    let (mut script, vars) = script(prelude);
    for (text, build) in cases {
        let got = parse(&mut script, text);
        let expected = build(script.store_mut(), &vars);
        let store = script.store_mut();
        assert_eq!(
            got,
            expected,
            "{text} gave {} instead of {}",
            store.to_smtlib(got),
            store.to_smtlib(expected)
        );
    }
}

fn run(text: &str) -> ScriptOutput {
    run_script(text, &RunOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn run_err(text: &str) -> String {
    match run_script(text, &RunOptions::default()) {
        Ok(out) => panic!("no error; output {:?}", out.text),
        Err(e) => e.to_string(),
    }
}

#[test]
fn literals_and_core_operators() {
    check_terms(
        PRELUDE,
        &[
            ("#x0f", &|s, _| s.bv_const(8, 0x0f)),
            ("#b101", &|s, _| s.bv_const(3, 5)),
            ("#xffffffffffffffff", &|s, _| s.bv_const(64, u64::MAX)),
            ("(_ bv300 8)", &|s, _| s.bv_const(8, 300 % 256)),
            ("(_ bv99999999999999999999999 16)", &|s, _| {
                s.bv_const(16, (99_999_999_999_999_999_999_999u128 % 65536) as u64)
            }),
            ("true", &|s, _| s.tru()),
            ("false", &|s, _| s.fls()),
            ("|x|", &|_, v| v.x),
            ("(not p)", &|s, v| s.not(v.p)),
            ("(and p q p)", &|s, v| {
                let pq = s.and(v.p, v.q);
                s.and(pq, v.p)
            }),
            ("(and)", &|s, _| s.tru()),
            ("(or p q)", &|s, v| s.or(v.p, v.q)),
            ("(xor p q q)", &|s, v| {
                let pq = s.xor(v.p, v.q);
                s.xor(pq, v.q)
            }),
            // => is right-associative.
            ("(=> p q p)", &|s, v| {
                let inner = s.implies(v.q, v.p);
                s.implies(v.p, inner)
            }),
            // = is chainable.
            ("(= x y x)", &|s, v| {
                let a = s.eq(v.x, v.y);
                let b = s.eq(v.y, v.x);
                s.and(a, b)
            }),
            ("(distinct x y #x00)", &|s, v| {
                let zero = s.bv_const(8, 0);
                let pairs = [(v.x, v.y), (v.x, zero), (v.y, zero)];
                let diffs: Vec<TermId> = pairs
                    .iter()
                    .map(|&(a, b)| {
                        let e = s.eq(a, b);
                        s.not(e)
                    })
                    .collect();
                s.and_all(&diffs)
            }),
            ("(ite p x y)", &|s, v| s.ite(v.p, v.x, v.y)),
        ],
    );
}

#[test]
fn every_binary_bit_vector_operator_and_comparison() {
    let (mut script, v) = script(PRELUDE);
    for op in BvBinOp::ALL {
        let got = parse(&mut script, &format!("({} x y)", op.smtlib_name()));
        assert_eq!(got, script.store_mut().bin(op, v.x, v.y), "{op:?}");
    }
    for op in BvCmp::ALL {
        let got = parse(&mut script, &format!("({} x y)", op.smtlib_name()));
        assert_eq!(got, script.store_mut().cmp(op, v.x, v.y), "{op:?}");
    }
    let swapped = [
        ("bvugt", BvCmp::Ult),
        ("bvuge", BvCmp::Ule),
        ("bvsgt", BvCmp::Slt),
        ("bvsge", BvCmp::Sle),
    ];
    for (name, op) in swapped {
        let got = parse(&mut script, &format!("({name} x y)"));
        assert_eq!(got, script.store_mut().cmp(op, v.y, v.x), "{name}");
    }
}

#[test]
fn unary_derived_and_indexed_bit_vector_operators() {
    let not_of = |s: &mut TermStore, op: BvBinOp, v: &Vars| {
        let inner = s.bin(op, v.x, v.y);
        s.bvnot(inner)
    };
    check_terms(
        PRELUDE,
        &[
            ("(bvneg x)", &|s, v| s.neg(v.x)),
            ("(bvnot x)", &|s, v| s.mk(Node::BvUn(BvUnOp::Not, v.x))),
            ("(bvnand x y)", &|s, v| not_of(s, BvBinOp::And, v)),
            ("(bvnor x y)", &|s, v| not_of(s, BvBinOp::Or, v)),
            ("(bvxnor x y)", &|s, v| not_of(s, BvBinOp::Xor, v)),
            ("(bvcomp x y)", &|s, v| {
                let e = s.eq(v.x, v.y);
                let (one, zero) = (s.bv_const(1, 1), s.bv_const(1, 0));
                s.ite(e, one, zero)
            }),
            ("(bvadd x y x)", &|s, v| {
                let xy = s.bin(BvBinOp::Add, v.x, v.y);
                s.bin(BvBinOp::Add, xy, v.x)
            }),
            ("(bvmul x y x)", &|s, v| {
                let xy = s.bin(BvBinOp::Mul, v.x, v.y);
                s.bin(BvBinOp::Mul, xy, v.x)
            }),
            ("(concat x y)", &|s, v| s.concat(v.x, v.y)),
            ("(concat x y x)", &|s, v| {
                let xy = s.concat(v.x, v.y);
                s.concat(xy, v.x)
            }),
            ("((_ extract 7 4) x)", &|s, v| s.extract(7, 4, v.x)),
            ("((_ zero_extend 8) x)", &|s, v| s.zero_ext(8, v.x)),
            ("((_ sign_extend 24) x)", &|s, v| s.sign_ext(24, v.x)),
            ("((_ rotate_left 9) x)", &|s, v| {
                s.mk(Node::RotateLeft(1, v.x))
            }),
            ("((_ rotate_right 3) x)", &|s, v| {
                s.mk(Node::RotateRight(3, v.x))
            }),
            ("((_ repeat 3) x)", &|s, v| {
                let xx = s.concat(v.x, v.x);
                s.concat(xx, v.x)
            }),
            ("((_ repeat 1) x)", &|_, v| v.x),
        ],
    );
}

#[test]
fn array_operators() {
    check_terms(
        PRELUDE,
        &[
            ("(select m i)", &|s, v| s.select(v.m, v.i)),
            ("(store m i x)", &|s, v| s.store(v.m, v.i, v.x)),
            (
                "((as const (Array (_ BitVec 32) (_ BitVec 8))) #x07)",
                &|s, _| {
                    let seven = s.bv_const(8, 7);
                    s.const_array(seven)
                },
            ),
            ("(select (store m i x) #x00000000)", &|s, v| {
                let stored = s.store(v.m, v.i, v.x);
                let zero = s.bv_const(32, 0);
                s.select(stored, zero)
            }),
        ],
    );
}

#[test]
fn a_bounded_forall_reads_as_its_term_and_prints_back_as_it_was_read() {
    let (mut script, v) = script(
        "(declare-const x (_ BitVec 8)) (declare-const y (_ BitVec 8))
         (declare-const p Bool) (declare-const q Bool) (declare-const m (Array (_ BitVec 32) (_ BitVec 8)))
         (declare-const i (_ BitVec 32))",
    );
    // The variable shadows the declared i inside; a let inside may use it.
    let text =
        "(forall ((i (_ BitVec 32))) (=> (and (bvule #x00000001 i) (bvule i (concat x x x x))) \
                (let ((r (select m (bvsub i #x00000001)))) (not (= r #x00)))))";
    let got = parse(&mut script, text);
    let st = script.store_mut();
    let bound = st.bound(32);
    let one = st.bv_const(32, 1);
    let index = st.bin(BvBinOp::Sub, bound, one);
    let read = st.select(v.m, index);
    let zero = st.bv_const(8, 0);
    let is_zero = st.eq(read, zero);
    let body = st.not(is_zero);
    let xx = st.concat(v.x, v.x);
    let xxx = st.concat(xx, v.x);
    let hi = st.concat(xxx, v.x);
    let want = st.forall(one, hi, body).unwrap();
    assert_eq!(got, want);
    assert!(st.has_forall(got) && !st.is_open(got) && st.is_open(body));
    // Printed, it reads back as the same term; the declared i is another.
    let printed = st.to_smtlib(got);
    assert!(
        printed
            .starts_with("(forall ((?i (_ BitVec 32))) (=> (and (bvule #x00000001 ?i) (bvule ?i "),
        "{printed}"
    );
    let opened = printed.matches('(').count();
    assert_eq!(opened, printed.matches(')').count(), "{printed}");
    assert_eq!(parse(&mut script, &printed), got);
    let outer = parse(&mut script, "(bvule i #x00000003)");
    let st = script.store_mut();
    assert!(!st.is_open(outer));
    assert_eq!(
        st.conjunct_to_readable(got),
        "(∀i ∈ [1, ((x ++ x) ++ x) ++ x]: m[i - 1] != '\\0')"
    );
}

#[test]
fn let_binds_in_parallel_and_scopes_its_names() {
    check_terms(
        PRELUDE,
        &[
            ("(let ((a x) (b y)) (bvadd a b))", &|s, v| {
                s.bin(BvBinOp::Add, v.x, v.y)
            }),
            // Parallel: each value sees the outer x and y.
            ("(let ((x y) (y x)) (bvsub x y))", &|s, v| {
                s.bin(BvBinOp::Sub, v.y, v.x)
            }),
            ("(let ((a x)) (let ((a y)) a))", &|_, v| v.y),
            ("(let ((a x)) (bvadd (let ((a y)) a) a))", &|s, v| {
                s.bin(BvBinOp::Add, v.y, v.x)
            }),
        ],
    );
    let (mut script, _) = script(PRELUDE);
    assert_eq!(
        parse_err(&mut script, "(bvadd (let ((a x)) a) a)"),
        "undeclared symbol 'a'"
    );
    assert_eq!(
        parse_err(&mut script, "(let ((a x) (a y)) a)"),
        "let binds 'a' twice"
    );
    assert_eq!(
        parse_err(&mut script, "(let ((a x) (b a)) b)"),
        "undeclared symbol 'a'"
    );
}

#[test]
fn named_terms_become_names_for_later_terms() {
    let (mut script, v) = script(PRELUDE);
    let got = parse(&mut script, "(and (! (bvult x y) :named lt) (not lt))");
    let store = script.store_mut();
    let lt = store.cmp(BvCmp::Ult, v.x, v.y);
    let not_lt = store.not(lt);
    assert_eq!(got, store.and(lt, not_lt));
    assert_eq!(parse(&mut script, "lt"), lt);
    assert_eq!(
        parse_err(&mut script, "(! p :named lt)"),
        "symbol 'lt' is already declared"
    );
    // Other attributes are accepted and ignored.
    assert_eq!(parse(&mut script, "(! p :weight 3 :skip)"), v.p);
}

#[test]
fn define_fun_substitutes_its_parameters() {
    let prelude = format!(
        "{PRELUDE}
        (define-fun f ((a (_ BitVec 8)) (b (_ BitVec 8))) (_ BitVec 8) (bvadd a (bvmul b x)))
        (define-fun g ((x (_ BitVec 8))) (_ BitVec 8) (f x x))
        (define-fun c () (_ BitVec 8) (bvmul x y))
        (define-fun big ((v (_ BitVec 8))) Bool (bvult v c))"
    );
    let (mut script, v) = script(&prelude);
    let store = script.store_mut();
    let one = store.bv_const(8, 1);
    let yx = store.bin(BvBinOp::Mul, v.y, v.x);
    let f_one_y = store.bin(BvBinOp::Add, one, yx);
    assert_eq!(parse(&mut script, "(f #x01 y)"), f_one_y);
    // g's parameter x shadows the constant x inside g's body only.
    let store = script.store_mut();
    let yx = store.bin(BvBinOp::Mul, v.y, v.x);
    let g_y = store.bin(BvBinOp::Add, v.y, yx);
    assert_eq!(parse(&mut script, "(g y)"), g_y);
    let store = script.store_mut();
    let c = store.bin(BvBinOp::Mul, v.x, v.y);
    assert_eq!(parse(&mut script, "c"), c);
    let big_y = script.store_mut().cmp(BvCmp::Ult, v.y, c);
    assert_eq!(parse(&mut script, "(big y)"), big_y);
    assert_eq!(
        parse_err(&mut script, "(f x)"),
        "function 'f' expects 2 arguments, got 1"
    );
    assert_eq!(
        parse_err(&mut script, "(f x p)"),
        "argument 2 of 'f' has sort Bool, expected (_ BitVec 8)"
    );
    assert_eq!(
        parse_err(&mut script, "f"),
        "function 'f' expects 2 arguments, got 0"
    );
}

#[test]
fn push_and_pop_scope_declarations_definitions_and_assertions() {
    let out = run("(declare-const a Bool)
         (push 1)
         (declare-const b (_ BitVec 8))
         (define-fun d () Bool (= b #x01))
         (assert false)
         (check-sat)
         (pop 1)
         (declare-const b Bool)
         (define-fun d () Bool b)
         (check-sat)
         (get-model)");
    assert_eq!(
        out.text,
        "unsat\nsat\n(\n  (define-fun a () Bool\n    false)\n  (define-fun b () Bool\n    false)\n)\n"
    );
    assert_eq!(out.answers, vec![Answer::Unsat, Answer::Sat]);
    assert_eq!(
        run_err("(push 2) (declare-const y Bool) (pop 2) (assert y)"),
        "1:49: undeclared symbol 'y'"
    );
    assert_eq!(
        run_err("(push 1)\n(pop 1)\n(pop 1)"),
        "3:1: pop 1 is deeper than the assertion stack, which has 0 levels"
    );
    // A billion levels cost nothing.
    let out = run("(push 1000000000) (pop 999999999) (declare-const z Bool)
         (push 1) (assert false) (pop 1) (assert z) (check-sat-assuming (false))");
    assert_eq!(out.text, "unsat\n");
    assert_eq!(
        run_err("(push 1000000000) (pop 999999999) (declare-const z Bool) (pop 1) (assert z)"),
        "1:74: undeclared symbol 'z'"
    );
    let out = run(
        "(declare-const a Bool) (push 1) (declare-const b Bool) (assert false)
         (reset-assertions) (check-sat) (get-model)",
    );
    assert_eq!(out.text, "sat\n(\n  (define-fun a () Bool\n    false)\n)\n");
    assert_eq!(
        run_err("(declare-const a Bool) (reset) (assert a)"),
        "1:40: undeclared symbol 'a'"
    );
}

#[test]
fn responses_follow_z3() {
    let out = run("(set-option :print-success true)
         (set-info :status sat)
         (declare-const x (_ BitVec 8))
         (get-model)
         (echo \"a \"\"quoted\"\" word\")
         (get-info :name)
         (check-sat)
         (get-value (x (bvadd x
            #x01)))
         (assert false)
         (get-value (x))
         (exit)
         (this is never read");
    assert_eq!(
        out.text,
        "success\nsuccess\nsuccess\n\
         (error \"line 4 column 10: model is not available\")\n\
         a \"quoted\" word\n\
         (:name \"Symplay\")\n\
         sat\n\
         ((x #x00)\n ((bvadd x\n            #x01) #x01))\n\
         success\n\
         (error \"line 11 column 10: model is not available\")\n\
         success\n"
    );
    assert_eq!(out.error_lines, 2);
}

#[test]
fn unsupported_options_are_warnings() {
    let out = run("(set-option :produce-models true)
         (set-option :random-seed 7)
         (set-option :timeout 100)
         (set-option :smt.relevancy 0)
         (get-info :authors)");
    assert_eq!(out.text, "unsupported\n");
    assert_eq!(
        out.warnings,
        vec![
            "4:22: unsupported option ':smt.relevancy', ignored",
            "5:20: unsupported info ':authors', ignored"
        ]
    );
    assert_eq!(
        run_err("(set-option :print-success yes)"),
        "1:28: option :print-success expects true or false, got 'yes'"
    );
}

#[test]
fn errors_name_line_column_and_construct() {
    let cases: &[(&str, &str)] = &[
        ("(declare-const r Real)", "1:18: unknown sort 'Real'"),
        (
            "(declare-const x (_ BitVec 8))\n(declare-const y (_ BitVec 16))\n(assert (= (bvadd x y) x))",
            "3:12: bvadd expects operands of one width, got (_ BitVec 8) and (_ BitVec 16)",
        ),
        (
            "(check-sat)\n(assert (= x",
            "2:1: unbalanced parentheses: '(' opened here is never closed",
        ),
        ("(check-sat))", "1:12: unbalanced parentheses: ')' has no matching '('"),
        (
            "(declare-const x Bool)\n(assert (and x\n        y))",
            "3:9: undeclared symbol 'y'",
        ),
        (
            "(declare-const w (_ BitVec 128))",
            "1:18: bit-vector width 128 is not supported: widths are 1 to 64",
        ),
        (
            "(declare-const w (_ BitVec 0))",
            "1:18: bit-vector width 0 is not supported: widths are 1 to 64",
        ),
        (
            "(declare-const a (Array (_ BitVec 64) (_ BitVec 8)))",
            "1:18: array sort '(Array (_ BitVec 64) (_ BitVec 8))' is not supported: \
             arrays must be (Array (_ BitVec 32) (_ BitVec 8))",
        ),
        ("(frobnicate)", "1:2: unknown command 'frobnicate'"),
        ("(get-unsat-core)", "1:1: unsupported command 'get-unsat-core'"),
        (
            "(declare-fun f ((_ BitVec 8)) (_ BitVec 8))",
            "1:1: declare-fun 'f' has arguments: uninterpreted functions are not supported",
        ),
        ("(assert (= #x1g #x10))", "1:12: bad literal '#x1g'"),
        (
            "(assert (= #x00000000000000000 #x0))",
            "1:12: literal '#x00000000000000000' has 68 bits; bit-vectors have widths 1 to 64",
        ),
        (
            "(set-logic QF_LIA)",
            "1:12: unsupported logic 'QF_LIA': Symplay handles QF_BV, QF_ABV, and QF_AUFBV or ALL \
             without uninterpreted functions, and BV, ABV or AUFBV with bounded foralls",
        ),
        (
            "(declare-const x (_ BitVec 8))\n(assert (bvult x 5))",
            "2:18: integer literal '5' is not supported: write bit-vectors as #b..., #x... or (_ bvN width)",
        ),
        (
            "(assert (forall ((x Bool)) x))",
            "1:9: forall outside the supported fragment: write (forall ((i (_ BitVec w))) \
             (=> (and (bvule lo i) (bvule i hi)) body)), with lo and hi not using i",
        ),
        (
            "(set-logic QF_BV)\n(assert (forall ((i (_ BitVec 8))) (=> (and (bvule #x00 i) (bvule i #x03)) true)))",
            "2:9: forall in the quantifier-free logic QF_BV: set the logic ABV, BV or ALL",
        ),
        (
            "(assert (forall ((i (_ BitVec 8))) (=> (and (bvule i #x00) (bvule i #x03)) true)))",
            "1:9: forall outside the supported fragment: write (forall ((i (_ BitVec w))) \
             (=> (and (bvule lo i) (bvule i hi)) body)), with lo and hi not using i",
        ),
        (
            "(assert (forall ((i (_ BitVec 8))) (=> (and (bvule (bvadd i #x01) i) (bvule i #x03)) true)))",
            "1:9: a forall's bounds may not use a bound variable: write (forall ((i (_ BitVec w))) \
             (=> (and (bvule lo i) (bvule i hi)) body)), with lo and hi not using i",
        ),
        (
            "(assert (forall ((i (_ BitVec 8))) (=> (and (bvule #x00 i) (bvule i #x03)) \
             (forall ((j (_ BitVec 8))) (=> (and (bvule #x00 j) (bvule j #x01)) true)))))",
            "1:76: a forall inside a forall is not supported",
        ),
        ("(assert (exists ((x Bool)) x))", "1:9: unsupported construct 'exists'"),
        (
            "(declare-const x (_ BitVec 8))\n(assert x)",
            "2:9: assert expects a Bool term, got (_ BitVec 8)",
        ),
        (
            "(declare-const x (_ BitVec 8))\n(assert (= ((_ extract 8 0) x) x))",
            "2:12: (_ extract 8 0) is out of range for (_ BitVec 8)",
        ),
        (
            "(declare-const x (_ BitVec 40))\n(assert (= (concat x x) (concat x x)))",
            "2:12: concat gives width 80; bit-vectors have widths 1 to 64",
        ),
        (
            "(declare-const x (_ BitVec 8))\n(assert (= ((_ zero_extend 300) x) x))",
            "2:12: (_ zero_extend 300) gives width 308; bit-vectors have widths 1 to 64",
        ),
        ("(assert (bvneg))", "1:9: bvneg expects 1 argument, got 0"),
        (
            "(declare-const x (_ BitVec 8))\n(assert (bvugt x #x0001))",
            "2:9: bvugt expects operands of one width, got (_ BitVec 8) and (_ BitVec 16)",
        ),
        ("(declare-const bvadd Bool)", "1:16: cannot declare 'bvadd': it is a reserved or built-in symbol"),
        ("(declare-const x Bool)(declare-const x Bool)", "1:38: symbol 'x' is already declared"),
        ("(assert (foo true))", "1:10: undeclared function 'foo'"),
        ("(assert ())", "1:9: empty application '()'"),
        ("x", "1:1: expected a command in parentheses, got 'x'"),
        ("(assert |unterminated)", "1:9: unterminated quoted symbol: '|' opened here is never closed"),
        (
            "(define-fun f ((a Bool)) Bool (! a :named n))",
            "1:43: named term 'n' contains a parameter of the function being defined",
        ),
        (
            "(define-fun f () (_ BitVec 8) true)",
            "1:31: define-fun 'f' declares sort (_ BitVec 8) but its body has sort Bool",
        ),
        ("(declare-const x)", "1:1: malformed declare-const: expected (declare-const NAME SORT), got '(declare-const x)'"),
    ];
    for (text, expected) in cases {
        assert_eq!(&run_err(text), expected, "script: {text}");
    }
}

#[test]
fn commands_before_an_error_keep_their_output() {
    let err = run_script(
        "(check-sat)\n(echo \"hi\")\n(bogus)",
        &RunOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.output.text, "sat\nhi\n");
    assert_eq!(err.error.pos, Pos { line: 3, col: 2 });
}

#[test]
fn deep_nesting_is_handled_without_recursion() {
    let depth = 100_000;
    let text = format!(
        "(declare-const x (_ BitVec 8))(assert (= x {}x{}))",
        "(bvnot ".repeat(depth),
        ")".repeat(depth)
    );
    assert_eq!(run(&text).text, "");
    let mut lets = String::from("(declare-const x (_ BitVec 8))(assert (= x ");
    for k in 0..depth {
        lets.push_str(&format!(
            "(let ((v{k} {})) ",
            if k == 0 {
                "x".into()
            } else {
                format!("(bvadd v{} #x01)", k - 1)
            }
        ));
    }
    lets.push_str(&format!("v{}{}))", depth - 1, ")".repeat(depth)));
    assert_eq!(run(&lets).text, "");
    let unclosed = format!("(assert {}", "(and ".repeat(depth));
    assert_eq!(
        run_err(&unclosed),
        "1:1: unbalanced parentheses: '(' opened here is never closed"
    );
}

#[test]
fn mangled_scripts_give_a_result_or_an_error_at_a_place_in_them() {
    let base = "(set-logic QF_ABV)(set-option :print-success true)
        (declare-const x (_ BitVec 8)) (declare-fun m () (Array (_ BitVec 32) (_ BitVec 8)))
        (define-fun f ((a (_ BitVec 8))) Bool (bvult a #x10))
        (push 1)
        (assert (let ((z (select (store m #x00000001 x) #x00000001))) (! (f z) :named n)))
        (assert (= ((_ extract 3 0) x) ((_ rotate_left 3) #b1010)))
        (check-sat) (get-value (x n)) (pop 1) (get-model) (echo \"|;\")";
    let pieces = [
        "(", ")", "|", "\"", ";", "#x", "_", "42", " ", "\n", "x", ":named", "let",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |bound: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % bound as u64) as usize
    };
    let (mut results, mut errors) = (0, 0);
    for _ in 0..2000 {
        let mut text: Vec<char> = base.chars().collect();
        for _ in 0..1 + next(4) {
            if text.is_empty() {
                break;
            }
            let at = next(text.len());
            match next(3) {
                0 => {
                    text.remove(at);
                }
                1 => {
                    let piece = pieces[next(pieces.len())];
                    for (k, c) in piece.chars().enumerate() {
                        text.insert(at + k, c);
                    }
                }
                _ => text.truncate(at),
            }
        }
        let text: String = text.into_iter().collect();
        match run_script(&text, &RunOptions::default()) {
            Ok(_) => results += 1,
            Err(e) => {
                errors += 1;
                let Pos { line, col } = e.error.pos;
                // The place is in the text: a line of it, and a column of
                // that line or just past its end.
                let chars = (line as usize)
                    .checked_sub(1)
                    .and_then(|i| text.lines().nth(i))
                    .map(|l| l.chars().count());
                assert!(
                    line >= 1 && col >= 1 && chars.is_some_and(|n| col as usize <= n + 1),
                    "error at {line}:{col}, outside the text: {}\n{text}",
                    e.error
                );
                assert!(!e.error.message.is_empty(), "{text}");
            }
        }
    }
    // The mangling makes both: scripts that still run, and errors.
    assert!(
        results > 50 && errors > 1000,
        "{results} results, {errors} errors"
    );
}

#[test]
fn sorts_of_declared_symbols() {
    let (mut script, v) = script(PRELUDE);
    let store = script.store_mut();
    assert_eq!(store.sort(v.m), Sort::Array);
    assert_eq!(store.sort(v.i), Sort::Bv(32));
    assert_eq!(store.sort(v.q), Sort::Bool);
}
