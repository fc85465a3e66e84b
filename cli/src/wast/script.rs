//! Runs the directives of a script, in order, against one store, and gives
//! each a verdict.

use super::registry::Registry;
use super::values::{self, Expected};
use symplay_engine::exec::store::{
    InstanceId, InstantiateError, Outcome, SymbolicPath, Value, DEFAULT_MAX_INSTRUCTIONS,
};
use symplay_engine::exec::MergeOptions;
use symplay_engine::report::MergeStats;
use symplay_wasm::{Module, Profile};
use wast::lexer::Lexer;
use wast::parser::{self, ParseBuffer};
use wast::{QuoteWat, Wast, WastDirective, WastExecute, WastInvoke, WastRet, Wat};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Also run every `assert_return` and `assert_trap` whose call has
    /// integer arguments with those arguments symbolic.
    pub symbolic: bool,
    /// What the script's modules are validated against.
    pub profile: Profile,
    /// Instructions one call may run.
    pub max_instructions: u64,
    /// Memories split into pieces in the symbolic calls.
    pub split: bool,
    /// How the symbolic calls merge states at loop exits.
    pub merge: MergeOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            symbolic: false,
            profile: Profile::Supported,
            max_instructions: DEFAULT_MAX_INSTRUCTIONS,
            split: false,
            merge: MergeOptions::default(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Passed,
    /// What was expected and what happened.
    Failed(String),
    /// Why the directive was not run (outside Wasm 1.0).
    Skipped(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectiveResult {
    /// 1-based position of the directive in the script.
    pub line: usize,
    pub column: usize,
    /// `module`, `assert_return`, ...
    pub kind: &'static str,
    pub verdict: Verdict,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptReport {
    pub directives: Vec<DirectiveResult>,
    /// Calls that also ran with symbolic arguments.
    pub symbolic_calls: usize,
    /// What merging did in them, when they merge.
    pub merging: Option<MergeStats>,
}

impl ScriptReport {
    fn count(&self, f: impl Fn(&Verdict) -> bool) -> usize {
        self.directives.iter().filter(|d| f(&d.verdict)).count()
    }

    pub fn passed(&self) -> usize {
        self.count(|v| *v == Verdict::Passed)
    }

    pub fn failed(&self) -> usize {
        self.count(|v| matches!(v, Verdict::Failed(_)))
    }

    pub fn skipped(&self) -> usize {
        self.count(|v| matches!(v, Verdict::Skipped(_)))
    }

    /// `N directives: P passed, F failed, S skipped`.
    pub fn summary(&self) -> String {
        let merging = self.merging.as_ref().map_or(String::new(), |m| {
            format!(
                "; merging: {} loops watched, {} merges ({} states), {} validated, {} violations",
                m.contexts, m.merges, m.merged_states, m.validated, m.violations
            )
        });
        format!(
            "{} directives: {} passed, {} failed, {} skipped{merging}",
            self.directives.len(),
            self.passed(),
            self.failed(),
            self.skipped()
        )
    }

    /// Merges validation proved wrong (engine errors).
    pub fn merge_violations(&self) -> u64 {
        self.merging.as_ref().map_or(0, |m| m.violations)
    }
}

/// Runs the script `text`. A script that does not parse is an error naming
/// the line and column (1-based) and what is wrong.
pub fn run_script(text: &str, options: &Options) -> Result<ScriptReport, String> {
    let located = |e: wast::Error| {
        let (line, column) = e.span().linecol_in(text);
        format!("{}:{}: {}", line + 1, column + 1, e.message())
    };
    let mut lexer = Lexer::new(text);
    // The spec scripts test names with bidirectional and similar characters.
    lexer.allow_confusing_unicode(true);
    let buffer = ParseBuffer::new_with_lexer(lexer).map_err(located)?;
    let script = parser::parse::<Wast<'_>>(&buffer).map_err(located)?;
    let mut runner = Runner {
        registry: Registry::new(options)?,
        options: *options,
        symbolic_calls: 0,
    };
    let directives = script
        .directives
        .into_iter()
        .map(|directive| {
            let (line, column) = directive.span().linecol_in(text);
            let kind = kind(&directive);
            let verdict = match runner.run(directive) {
                Ok(()) => Verdict::Passed,
                Err(Problem::Fail(why)) => Verdict::Failed(why),
                Err(Problem::Skip(why)) => Verdict::Skipped(why),
            };
            DirectiveResult {
                line: line + 1,
                column: column + 1,
                kind,
                verdict,
            }
        })
        .collect();
    let store = &runner.registry.store;
    Ok(ScriptReport {
        directives,
        symbolic_calls: runner.symbolic_calls,
        merging: (!store.merge.is_none()).then(|| store.merging.clone()),
    })
}

enum Problem {
    Fail(String),
    Skip(String),
}

impl From<String> for Problem {
    fn from(why: String) -> Problem {
        Problem::Fail(why)
    }
}

struct Runner {
    registry: Registry,
    options: Options,
    symbolic_calls: usize,
}

impl Runner {
    fn run(&mut self, directive: WastDirective<'_>) -> Result<(), Problem> {
        match directive {
            WastDirective::Module(mut quoted) => {
                let id = quoted.name().map(|id| id.name());
                let instance = self
                    .load(&mut quoted)
                    .and_then(|m| self.instantiate(m).map_err(|e| e.to_string().into()));
                self.registry
                    .set_current(instance.as_ref().ok().copied(), id);
                instance.map(|_| ())
            }
            WastDirective::Register { name, module, .. } => {
                let instance = self.registry.instance(module.map(|id| id.name()))?;
                self.registry.register(name, instance);
                Ok(())
            }
            WastDirective::Invoke(call) => match self.call(&call)? {
                Outcome::Returned(_) => Ok(()),
                Outcome::Trapped(trap) => Err(format!("trap {}", trap.name()).into()),
            },
            WastDirective::AssertReturn { exec, results, .. } => self.assert_return(exec, &results),
            WastDirective::AssertTrap { exec, message, .. } => self.assert_trap(exec, message),
            WastDirective::AssertExhaustion { call, message, .. } => {
                self.expect_call(&call, |o| values::traps_expected(o, message))
            }
            // Any rejection counts: wasmparser reports some decoding errors
            // while validating, so the error kind does not tell the two apart.
            WastDirective::AssertMalformed { mut module, .. }
            | WastDirective::AssertInvalid { mut module, .. } => match self.load(&mut module) {
                Ok(_) => Err("expected the module to be rejected, it loaded"
                    .to_string()
                    .into()),
                Err(Problem::Fail(_)) => Ok(()),
                Err(skip) => Err(skip),
            },
            WastDirective::AssertUnlinkable { module, .. } => {
                let module = self.load(&mut QuoteWat::Wat(module))?;
                match self.instantiate(module) {
                    Err(InstantiateError::Link(_)) => Ok(()),
                    Err(e) => Err(format!("expected a link error, got: {e}").into()),
                    Ok(_) => Err("expected a link error, it instantiated".to_string().into()),
                }
            }
            _ => Err(Problem::Skip("not a Wasm 1.0 directive".into())),
        }
    }

    /// Encodes and loads a module; a component is skipped.
    fn load(&self, module: &mut QuoteWat<'_>) -> Result<Module, Problem> {
        if matches!(
            module,
            QuoteWat::Wat(Wat::Component(_)) | QuoteWat::QuoteComponent(..)
        ) {
            return Err(Problem::Skip("components are not Wasm 1.0".into()));
        }
        let bytes = module
            .encode()
            .map_err(|e| format!("the module does not parse: {}", e.message()))?;
        Ok(symplay_wasm::load_with(&bytes, self.options.profile)
            .map_err(|e| format!("the module does not load: {e}"))?)
    }

    fn instantiate(&mut self, module: Module) -> Result<InstanceId, InstantiateError> {
        let imports = self
            .registry
            .imports(&module)
            .map_err(InstantiateError::Link)?;
        self.registry.store.instantiate(module, &imports)
    }

    fn assert_return(
        &mut self,
        exec: WastExecute<'_>,
        results: &[WastRet<'_>],
    ) -> Result<(), Problem> {
        let expected: Vec<Expected> = results
            .iter()
            .map(values::expected)
            .collect::<Result<_, _>>()
            .map_err(Problem::Skip)?;
        match exec {
            WastExecute::Invoke(call) => {
                self.expect_call(&call, |o| values::returns_expected(o, &expected))
            }
            WastExecute::Get { module, global, .. } => {
                let instance = self.registry.instance(module.map(|id| id.name()))?;
                let value = self
                    .registry
                    .store
                    .get_global(instance, global)
                    .ok_or_else(|| format!("no exported global `{global}`"))?;
                Ok(values::returns_expected(
                    &Outcome::Returned(vec![value]),
                    &expected,
                )?)
            }
            WastExecute::Wat(_) => Err(Problem::Skip("assert_return of a module".into())),
        }
    }

    fn assert_trap(&mut self, exec: WastExecute<'_>, message: &str) -> Result<(), Problem> {
        match exec {
            WastExecute::Invoke(call) => {
                self.expect_call(&call, |o| values::traps_expected(o, message))
            }
            WastExecute::Wat(module) => {
                let module = self.load(&mut QuoteWat::Wat(module))?;
                match self.instantiate(module) {
                    Err(InstantiateError::Trap { trap, .. }) => {
                        Ok(values::traps_expected(&Outcome::Trapped(trap), message)?)
                    }
                    Err(e) => Err(format!("expected a trap, got: {e}").into()),
                    Ok(_) => {
                        Err(format!("expected a trap (\"{message}\"), it instantiated").into())
                    }
                }
            }
            WastExecute::Get { .. } => Err(Problem::Skip("assert_trap of a global".into())),
        }
    }

    /// Calls as `call` says and checks the outcome with `check`; in symbolic
    /// mode, first on a copy of the store with the integer arguments
    /// symbolic, so that the concrete call sees the same store either way.
    fn expect_call(
        &mut self,
        call: &WastInvoke<'_>,
        check: impl Fn(&Outcome) -> Result<(), String>,
    ) -> Result<(), Problem> {
        let symbolic = self
            .options
            .symbolic
            .then(|| self.symbolic_call(call, &check));
        let outcome = self.call(call)?;
        check(&outcome)?;
        match symbolic {
            Some(Err(why)) => Err(Problem::Fail(format!("symbolic: {why}"))),
            _ => Ok(()),
        }
    }

    /// The symbolic call of `call`, when it has integer arguments: exactly one
    /// feasible path, which passes `check`.
    fn symbolic_call(
        &mut self,
        call: &WastInvoke<'_>,
        check: impl Fn(&Outcome) -> Result<(), String>,
    ) -> Result<(), String> {
        let Ok((instance, args)) = self.call_args(call) else {
            // The concrete call reports the problem.
            return Ok(());
        };
        if !args
            .iter()
            .any(|a| matches!(a, Value::I32(_) | Value::I64(_)))
        {
            return Ok(());
        }
        self.symbolic_calls += 1;
        let paths = self
            .registry
            .store
            .invoke_symbolic(instance, call.name, &args)
            .map_err(|e| e.to_string())?;
        one_feasible_path(&paths, check)
    }

    fn call(&mut self, call: &WastInvoke<'_>) -> Result<Outcome, Problem> {
        let (instance, args) = self.call_args(call)?;
        Ok(self
            .registry
            .store
            .invoke(instance, call.name, &args)
            .map_err(|e| e.to_string())?)
    }

    fn call_args(&self, call: &WastInvoke<'_>) -> Result<(InstanceId, Vec<Value>), Problem> {
        let instance = self.registry.instance(call.module.map(|id| id.name()))?;
        let args = call
            .args
            .iter()
            .map(values::arg)
            .collect::<Result<_, _>>()
            .map_err(Problem::Skip)?;
        Ok((instance, args))
    }
}

/// Exactly one path is feasible, the engine explored no infeasible one, and
/// the feasible one passes `check`.
fn one_feasible_path(
    paths: &[SymbolicPath],
    check: impl Fn(&Outcome) -> Result<(), String>,
) -> Result<(), String> {
    let explored_infeasible = paths
        .iter()
        .filter(|p| !p.feasible && p.outcome.is_some())
        .count();
    let feasible: Vec<_> = paths.iter().filter(|p| p.feasible).collect();
    match feasible.as_slice() {
        [path] => match &path.outcome {
            Some(outcome) => check(outcome)?,
            None => return Err("the engine dropped the feasible path".into()),
        },
        _ => return Err(format!("{} feasible paths, expected 1", feasible.len())),
    }
    if explored_infeasible > 0 {
        return Err(format!(
            "the engine explored {explored_infeasible} infeasible paths"
        ));
    }
    Ok(())
}

fn kind(directive: &WastDirective<'_>) -> &'static str {
    match directive {
        WastDirective::Module(_) => "module",
        WastDirective::ModuleDefinition(_) => "module definition",
        WastDirective::ModuleInstance { .. } => "module instance",
        WastDirective::AssertMalformed { .. } => "assert_malformed",
        WastDirective::AssertInvalid { .. } => "assert_invalid",
        WastDirective::AssertInvalidCustom { .. } => "assert_invalid_custom",
        WastDirective::AssertMalformedCustom { .. } => "assert_malformed_custom",
        WastDirective::Register { .. } => "register",
        WastDirective::Invoke(_) => "invoke",
        WastDirective::AssertTrap { .. } => "assert_trap",
        WastDirective::AssertReturn { .. } => "assert_return",
        WastDirective::AssertExhaustion { .. } => "assert_exhaustion",
        WastDirective::AssertUnlinkable { .. } => "assert_unlinkable",
        WastDirective::AssertException { .. } => "assert_exception",
        WastDirective::AssertSuspension { .. } => "assert_suspension",
        WastDirective::Thread(_) => "thread",
        WastDirective::Wait { .. } => "wait",
    }
}
