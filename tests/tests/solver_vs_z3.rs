//! Differential tests against z3 on random formulas that use every operator:
//! Symplay's solver must give z3's answer, and each side's model must satisfy
//! the formula under the other side's semantics. A second test checks that
//! z3 reads Symplay's SMT-LIB printing and agrees with its evaluator; a
//! third, that z3 and Symplay's reader read the path conditions of an
//! input buffer, an array symbol.
//!
//! `SYMPLAY_DIFF_SEED` and `SYMPLAY_DIFF_COUNT` override the seed and the
//! number of formulas. A failure prints a script that reproduces it.

use std::panic::{self, AssertUnwindSafe};
use std::rc::Rc;
use std::str::FromStr;
use std::time::{Duration, Instant};
use symplay_engine::exec::{explore, Options};
use symplay_engine::expr::{
    value_to_smtlib, ArrayValue, Model, Node, Sort, TermId, TermStore, Value, ARRAY_VALUE_WIDTH,
};
use symplay_engine::smtlib::{run_script, RunOptions};
use symplay_engine::solver::{QuantifiedStages, SolveResult, Solver};
use symplay_tests::coverage::OperatorCounts;
use symplay_tests::gen::formula::random_formula;
use symplay_tests::gen::interesting_value;
use symplay_tests::rng::Rng;
use symplay_tests::z3::{Z3Answer, Z3Error, Z3};

const DEFAULT_SEED: u64 = 0x5eed_2024;
const DEFAULT_COUNT: usize = 5000;
/// Formulas that share one term store and one long-lived solver, so that its
/// caches answer across formulas as they do in a symbolic executor.
const BATCH: usize = 100;
/// Each operator kind must occur at least once per this many formulas.
const FORMULAS_PER_REQUIRED_OCCURRENCE: usize = 25;
/// Sat and unsat must each be at least this percentage of the answers.
const MIN_ANSWER_PERCENT: usize = 20;
/// Failing scripts printed in full; the rest are counted.
const PRINTED_FAILURES: usize = 20;

fn env_or<T: FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text} is not a valid number")),
        Err(_) => default,
    }
}

/// z3, or a failure that says how to install it: these tests never skip.
fn start_z3() -> Z3 {
    Z3::start().unwrap_or_else(|e| panic!("{e}"))
}

/// One formula on which the two solvers, or their models, disagree.
struct Failure {
    index: usize,
    problems: Vec<String>,
    script: String,
}

fn report_failures(what: &str, total: usize, failures: &[Failure]) {
    if failures.is_empty() {
        return;
    }
    for f in failures.iter().take(PRINTED_FAILURES) {
        eprintln!("--- formula #{}:", f.index);
        for p in &f.problems {
            eprintln!("  {p}");
        }
        eprintln!("{}", f.script);
    }
    if failures.len() > PRINTED_FAILURES {
        eprintln!("... and {} more", failures.len() - PRINTED_FAILURES);
    }
    panic!("{} of {total} formulas failed {what}", failures.len());
}

#[derive(Default)]
struct Tally {
    sat: usize,
    unsat: usize,
    symplay_time: Duration,
    z3_time: Duration,
}

#[test]
fn symplay_agrees_with_z3_on_random_formulas() {
    let seed = env_or("SYMPLAY_DIFF_SEED", DEFAULT_SEED);
    let count = env_or("SYMPLAY_DIFF_COUNT", DEFAULT_COUNT);
    let mut z3 = start_z3();
    let mut rng = Rng::new(seed);
    let mut coverage = OperatorCounts::default();
    let mut tally = Tally::default();
    let mut failures = Vec::new();
    let mut stages = QuantifiedStages::default();
    for batch_start in (0..count).step_by(BATCH) {
        let mut store = TermStore::new();
        let mut shared = Solver::default();
        for index in batch_start..count.min(batch_start + BATCH) {
            let formula = random_formula(&mut store, &mut rng);
            coverage.add(&store, &[formula]);
            let problems = compare(&mut z3, &mut store, &mut shared, formula, &mut tally);
            if !problems.is_empty() {
                failures.push(Failure {
                    index,
                    problems,
                    script: store.to_smtlib_script(&[formula]),
                });
            }
        }
        stages += shared.stats().quantified;
    }
    eprintln!(
        "seed {seed:#x}: {count} formulas, z3 says {} sat and {} unsat; \
         Symplay {:.2?} (fresh and shared solver), z3 {:.2?} (its answers and models)\n\
         queries with foralls over symbolic bounds (shared solver), by stage: {stages:?}\n{coverage}",
        tally.sat, tally.unsat, tally.symplay_time, tally.z3_time
    );
    report_failures("the comparison with z3", count, &failures);
    // The procedure for symbolic bounds was asked, and answered at its
    // first stage and beyond it.
    assert!(
        stages.strip > 0 && stages.duplicate + stages.repair + stages.fallback > 0,
        "{stages:?}"
    );

    let required = (count / FORMULAS_PER_REQUIRED_OCCURRENCE).max(1) as u64;
    let rare = coverage.rarer_than(required);
    assert!(
        rare.is_empty(),
        "operators seen fewer than {required} times: {rare:?}"
    );
    for (what, n) in [("sat", tally.sat), ("unsat", tally.unsat)] {
        assert!(
            n * 100 >= count * MIN_ANSWER_PERCENT,
            "only {n} of {count} formulas are {what}"
        );
    }
}

/// Everything wrong with Symplay's handling of `formula`, judged against z3.
fn compare(
    z3: &mut Z3,
    store: &mut TermStore,
    shared: &mut Solver,
    formula: TermId,
    tally: &mut Tally,
) -> Vec<String> {
    let mut problems = Vec::new();
    let z3_answer = reference_answer(z3, store, formula, tally, &mut problems);
    let start = Instant::now();
    let fresh = solve(&mut Solver::default(), store, formula);
    let long_lived = solve(shared, store, formula);
    tally.symplay_time += start.elapsed();
    if long_lived.is_err() {
        // A panic may leave the solver's caches half updated.
        *shared = Solver::default();
    }
    for (which, result) in [("fresh solver", fresh), ("long-lived solver", long_lived)] {
        let result = match result {
            Ok(result) => result,
            Err(panic) => {
                problems.push(format!("{which} panicked: {panic}"));
                continue;
            }
        };
        let symplay_answer = match &result {
            SolveResult::Sat(_) => Z3Answer::Sat,
            SolveResult::Unsat => Z3Answer::Unsat,
            SolveResult::Unknown(why) => {
                problems.push(format!("{which} answered unknown: {why}"));
                continue;
            }
        };
        let disagreeing = z3_answer.filter(|&z| z != Z3Answer::Unknown && z != symplay_answer);
        if let Some(z3_answer) = disagreeing {
            problems.push(format!(
                "{which} answered {symplay_answer:?}, z3 {z3_answer:?}"
            ));
        }
        if let SolveResult::Sat(model) = result {
            problems.extend(check_symplay_model(
                z3, store, formula, &model, which, tally,
            ));
        }
    }
    problems
}

/// z3's answer to `formula`, after checking that its model (if sat)
/// satisfies the formula under Symplay's evaluator; `None` if z3 failed.
fn reference_answer(
    z3: &mut Z3,
    store: &TermStore,
    formula: TermId,
    tally: &mut Tally,
    problems: &mut Vec<String>,
) -> Option<Z3Answer> {
    let start = Instant::now();
    let ask = |z3: &mut Z3| {
        z3.declare(store, &[formula])?;
        z3.assert_terms(store, &[formula])?;
        let answer = z3.check_sat()?;
        let model = match answer {
            Z3Answer::Sat => Some(z3.model(store, &[formula])?),
            _ => None,
        };
        Ok((answer, model))
    };
    let mut reference = z3.in_scope(ask);
    // z3's incremental solver (after push) gives up on some formulas that
    // its one-shot solver decides at once: a fresh z3 is asked those.
    if matches!(reference, Ok((Z3Answer::Unknown, _))) {
        reference = Z3::start().and_then(|mut fresh| ask(&mut fresh));
    }
    tally.z3_time += start.elapsed();
    let (answer, model) = match reference {
        Ok(reference) => reference,
        Err(e) => {
            problems.push(format!("z3 failed: {e}"));
            return None;
        }
    };
    if let Some(model) = model {
        if !store.satisfies(&[formula], &model) {
            problems.push(format!(
                "z3's model does not satisfy the formula under Symplay's evaluator: {}",
                describe(store, &model)
            ));
        }
    }
    match answer {
        Z3Answer::Sat => tally.sat += 1,
        Z3Answer::Unsat => tally.unsat += 1,
        Z3Answer::Unknown => problems.push("z3 answered unknown".to_string()),
    }
    Some(answer)
}

/// A Symplay model must satisfy the formula under Symplay's evaluator and
/// under z3.
fn check_symplay_model(
    z3: &mut Z3,
    store: &TermStore,
    formula: TermId,
    model: &Model,
    which: &str,
    tally: &mut Tally,
) -> Option<String> {
    if !store.satisfies(&[formula], model) {
        return Some(format!(
            "{which}'s model does not satisfy the formula under Symplay's evaluator: {}",
            describe(store, model)
        ));
    }
    let start = Instant::now();
    let verdict = z3.in_scope(|z3| {
        z3.declare(store, &[formula])?;
        fix_symbols(z3, store, formula, model)?;
        if z3.check_sat()? != Z3Answer::Sat {
            return Err(Z3Error("the model's own equalities are unsat".into()));
        }
        if store.has_forall(formula) {
            // z3's get-value takes no quantifier: the formula holds under
            // the model when its negation, with the symbols fixed, is unsat.
            z3.send(&format!("(assert (not {}))", store.to_smtlib(formula)))?;
            return Ok(Value::Bool(z3.check_sat()? == Z3Answer::Unsat));
        }
        let mut values = z3.get_values(&[(store.to_smtlib(formula), Sort::Bool)])?;
        Ok(values.remove(0))
    });
    tally.z3_time += start.elapsed();
    match verdict {
        Ok(Value::Bool(true)) => None,
        Ok(_) => Some(format!(
            "{which}'s model does not satisfy the formula under z3: {}",
            describe(store, model)
        )),
        Err(e) => Some(format!("z3 failed checking {which}'s model: {e}")),
    }
}

/// Asserts that every symbol of `formula` has its value in `model` (symbols
/// the model leaves out have their default, as in Symplay's evaluator).
fn fix_symbols(
    z3: &mut Z3,
    store: &TermStore,
    formula: TermId,
    model: &Model,
) -> Result<(), Z3Error> {
    for s in store.symbols_in(&[formula]) {
        let value = model
            .get(s)
            .cloned()
            .unwrap_or_else(|| Value::default_of(store.symbol_sort(s)));
        z3.send(&format!(
            "(assert (= {} {}))",
            store.to_smtlib(store.symbol_term(s)),
            value_to_smtlib(&value)
        ))?;
    }
    Ok(())
}

/// `symbol = value` pairs of a model, for failure reports.
fn describe(store: &TermStore, model: &Model) -> String {
    model
        .iter()
        .map(|(s, v)| format!("{} = {}", store.symbol_name(s), value_to_smtlib(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Runs the solver, turning a panic (such as its own model check failing)
/// into an error so the remaining formulas still run.
fn solve(
    solver: &mut Solver,
    store: &mut TermStore,
    formula: TermId,
) -> Result<SolveResult, String> {
    panic::catch_unwind(AssertUnwindSafe(|| solver.check(store, &[formula]))).map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "a panic without a message".to_string())
    })
}

const PRINTER_SEED: u64 = 0x9e1_2024;
const PRINTER_COUNT: usize = 400;

/// z3 must read every script Symplay prints, and agree with Symplay's
/// evaluator: z3's models satisfy the formula under it, and fixing the
/// symbols to random values makes the script sat exactly when it evaluates
/// the formula to true.
#[test]
fn z3_reads_printed_scripts_and_agrees_with_the_evaluator() {
    let mut z3 = start_z3();
    let mut rng = Rng::new(PRINTER_SEED);
    let mut store = TermStore::new();
    let mut failures = Vec::new();
    let mut true_under_random_values = 0;
    for index in 0..PRINTER_COUNT {
        let formula = random_formula(&mut store, &mut rng);
        let script = store.to_smtlib_script(&[formula]);
        let random_values = random_model(&store, formula, &mut rng);
        true_under_random_values +=
            usize::from(store.eval(formula, &random_values) == Value::Bool(true));
        let checked = check_printed_script(&mut z3, &store, formula, &script, &random_values);
        let problems = checked.unwrap_or_else(|e| vec![format!("z3 failed: {e}")]);
        if !problems.is_empty() {
            failures.push(Failure {
                index,
                problems,
                script,
            });
        }
    }
    eprintln!(
        "{PRINTER_COUNT} scripts; {true_under_random_values} formulas true under random values"
    );
    report_failures("the printer and evaluator check", PRINTER_COUNT, &failures);
}

/// Runs `script` (the printing of `formula`) in z3 and lists what is wrong:
/// z3 must read it, its model must satisfy the formula under Symplay's
/// evaluator, and with the symbols fixed to `values` the formula must be
/// sat exactly when Symplay evaluates it to true.
fn check_printed_script(
    z3: &mut Z3,
    store: &TermStore,
    formula: TermId,
    script: &str,
    values: &Model,
) -> Result<Vec<String>, Z3Error> {
    let mut problems = Vec::new();
    z3.reset()?;
    z3.send(script)?;
    match z3.read_check_sat_answer()? {
        Z3Answer::Sat => {
            let model = z3.model(store, &[formula])?;
            if !store.satisfies(&[formula], &model) {
                problems.push(format!(
                    "z3's model does not satisfy the formula under Symplay's evaluator: {}",
                    describe(store, &model)
                ));
            }
        }
        Z3Answer::Unsat => {}
        Z3Answer::Unknown => problems.push("z3 answered unknown".to_string()),
    }
    // Outside the script's logic: array values print as constant arrays,
    // which QF_ABV does not have.
    z3.reset()?;
    z3.declare(store, &[formula])?;
    z3.assert_terms(store, &[formula])?;
    fix_symbols(z3, store, formula, values)?;
    let under_values = z3.check_sat()?;
    let symplay_says = store.eval(formula, values) == Value::Bool(true);
    let z3_says = under_values == Z3Answer::Sat;
    if z3_says != symplay_says {
        problems.push(format!(
            "under {} Symplay evaluates the formula to {symplay_says}, z3 to {z3_says}",
            describe(store, values)
        ));
    }
    Ok(problems)
}

/// Random values, biased to edge cases, for the symbols of `formula`.
fn random_model(store: &TermStore, formula: TermId, rng: &mut Rng) -> Model {
    // A symbol that is a forall's upper bound stays small: the evaluator
    // checks a forall at each value of its range.
    let upper_bounds: Vec<TermId> = (store.reachable(&[formula]).into_iter())
        .filter_map(|t| match *store.node(t) {
            Node::Forall(_, hi, _) => Some(hi),
            _ => None,
        })
        .collect();
    let mut model = Model::new();
    for s in store.symbols_in(&[formula]) {
        let value = match store.symbol_sort(s) {
            Sort::Bool => Value::Bool(rng.chance(50)),
            Sort::Bv(width) if upper_bounds.contains(&store.symbol_term(s)) => Value::Bv {
                width,
                value: rng.below(8) & symplay_engine::expr::mask(width),
            },
            Sort::Bv(width) => Value::Bv {
                width,
                value: interesting_value(rng, width),
            },
            Sort::Array => {
                let mut contents = ArrayValue {
                    default: interesting_value(rng, ARRAY_VALUE_WIDTH) as u8,
                    ..ArrayValue::default()
                };
                // The generator's constant indices are 0 to 3 and all ones.
                for index in [0, 1, 2, 3, u32::MAX] {
                    contents.set(index, interesting_value(rng, ARRAY_VALUE_WIDTH) as u8);
                }
                Value::Array(Rc::new(contents))
            }
        };
        model.set(s, value);
    }
    model
}

/// Four bytes of input `text`, read at a constant place and at the place
/// its first byte gives.
const BUFFER_READS: &str = r#"(module
  (import "symplay" "symbolic_buffer" (func $symbolic_buffer (param i32 i32 i32)))
  (memory 1)
  (data (i32.const 16) "text\00")
  (func (export "check") (result i32)
    (call $symbolic_buffer (i32.const 64) (i32.const 4) (i32.const 16))
    (if (i32.eq (i32.load8_u (i32.const 65)) (i32.const 97))
      (then (return (i32.const 1))))
    (i32.load8_u (i32.add (i32.const 64) (i32.and (i32.load8_u (i32.const 64)) (i32.const 3))))))"#;

/// A path condition declares an input buffer as one array and reads its
/// bytes with `select`: z3 and Symplay's own reader take the script and
/// find it satisfiable.
#[test]
fn path_conditions_over_an_input_buffer_read_back() {
    let module = symplay_wasm::load(BUFFER_READS.as_bytes()).unwrap();
    let report = explore(&module, "check", &Options::default()).unwrap();
    let mut z3 = start_z3();
    let array = "(declare-fun text () (Array (_ BitVec 32) (_ BitVec 8)))";
    assert!(report.paths.len() >= 2, "{} paths", report.paths.len());
    for path in &report.paths {
        let script = &report.path_condition(path);
        assert!(script.contains(array), "{script}");
        assert!(script.contains("(select text #x00000001)"), "{script}");
        z3.reset().unwrap();
        z3.send(script).unwrap();
        assert_eq!(
            z3.read_check_sat_answer().unwrap(),
            Z3Answer::Sat,
            "{script}"
        );
        let ours = run_script(script, &RunOptions::default()).unwrap();
        assert_eq!(ours.text, "sat\n", "{script}");
    }
}
