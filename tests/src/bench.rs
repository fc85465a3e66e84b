//! What the benchmarks share: their settings (runs, the short form CI runs,
//! goals set out of reach on purpose), CPU time, medians, goals that fail
//! the benchmark when missed and targets that are only reported, its exit
//! code, and the CLI (built as the benchmark is) with the reports it
//! writes.

use serde_json::Value;
use std::collections::BTreeSet;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

/// How a benchmark runs, from the environment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `SYMPLAY_BENCH_SHORT=1`: the short form, a smaller workload with the
    /// same goals and checks, which CI runs.
    pub short: bool,
    /// Runs per measurement: `SYMPLAY_BENCH_RUNS`, else the benchmark's
    /// default for its form.
    pub runs: usize,
    /// `SYMPLAY_BENCH_UNREACHABLE=1`: every goal set out of reach, to see
    /// the benchmark fail on a missed goal.
    unreachable: bool,
}

/// A goal's bound on what a benchmark measures.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    AtMost(f64),
    AtLeast(f64),
}

impl Settings {
    /// The settings, with `full_runs` runs by default, `short_runs` in the
    /// short form.
    pub fn from_env(full_runs: usize, short_runs: usize) -> Result<Settings, String> {
        let short = flag("SYMPLAY_BENCH_SHORT")?;
        let runs = match std::env::var("SYMPLAY_BENCH_RUNS") {
            Ok(text) => text
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("SYMPLAY_BENCH_RUNS={text} is not a positive number"))?,
            Err(_) if short => short_runs,
            Err(_) => full_runs,
        };
        Ok(Settings {
            short,
            runs,
            unreachable: flag("SYMPLAY_BENCH_UNREACHABLE")?,
        })
    }

    /// Judges a goal and prints it with the measure: whether `measured`
    /// (in `unit`) keeps within `bound`.
    pub fn goal(&self, what: &str, measured: f64, bound: Bound, unit: &str) -> bool {
        let met = met(measured, bound, self.unreachable);
        let limit = bound.text(unit);
        let unreachable = if self.unreachable {
            " (set out of reach by SYMPLAY_BENCH_UNREACHABLE=1)"
        } else {
            ""
        };
        println!(
            "goal: {what}, {limit}{unreachable}: {}{unit}, {}",
            figure(measured),
            if met { "met" } else { "NOT met" }
        );
        met
    }
}

/// Prints a target that a benchmark reports and does not enforce (one not
/// met yet, or measured too noisily to fail a run on) with the measure:
/// whether `measured` (in `unit`) keeps within `bound`.
pub fn target(what: &str, measured: f64, bound: Bound, unit: &str) {
    let met = met(measured, bound, false);
    println!(
        "target (reported, not enforced): {what}, {}: {}{unit}, {}",
        bound.text(unit),
        figure(measured),
        if met { "met" } else { "not yet met" }
    );
}

impl Bound {
    /// `at most 5x`.
    fn text(self, unit: &str) -> String {
        match self {
            Bound::AtMost(limit) => format!("at most {}{unit}", figure(limit)),
            Bound::AtLeast(limit) => format!("at least {}{unit}", figure(limit)),
        }
    }
}

/// Whether `measured` keeps within `bound`; never when out of reach.
fn met(measured: f64, bound: Bound, unreachable: bool) -> bool {
    !unreachable
        && match bound {
            Bound::AtMost(limit) => measured <= limit,
            Bound::AtLeast(limit) => measured >= limit,
        }
}

/// A whole number as one, anything else with two decimals.
fn figure(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// Whether the variable `name` is `1`; unset is false, and any other
/// value an error rather than a guess.
fn flag(name: &str) -> Result<bool, String> {
    match std::env::var_os(name) {
        None => Ok(false),
        Some(value) if value == "1" => Ok(true),
        Some(value) => Err(format!(
            "{name}={}: only {name}=1 is understood",
            value.to_string_lossy()
        )),
    }
}

/// How long `work` keeps this thread busy: CPU time, not wall time, which
/// counts the time slices other processes take (on a busy machine, more
/// than a measure of milliseconds itself).
pub fn cpu_timed<T>(work: impl FnOnce() -> T) -> (T, Duration) {
    let start = thread_cpu();
    let result = std::hint::black_box(work());
    (result, thread_cpu().saturating_sub(start))
}

/// The CPU time this thread has used so far.
fn thread_cpu() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `clock_gettime` only writes the timespec it is given.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

/// The CPU time (user and system) of the child processes this process has
/// waited for so far: the difference across a child's run is its own.
pub fn children_cpu() -> Duration {
    // SAFETY: `getrusage` only writes the rusage it is given, which starts
    // zeroed (all of its fields are integers).
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage);
        usage
    };
    let time = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The median of a benchmark's times (the upper one of an even count).
pub fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort_unstable();
    sorted[sorted.len() / 2]
}

/// The least of `times`: of runs that do the same work, the one other
/// processes disturbed least.
pub fn least(times: &[Duration]) -> Duration {
    times.iter().copied().min().unwrap_or_default()
}

/// The median of measures (the upper one of an even count).
pub fn median_of(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// A module and the CLI arguments it is explored with, by name.
pub struct Case {
    pub name: String,
    pub module: PathBuf,
    pub args: Vec<String>,
}

impl Case {
    /// The case explored by the CLI at `binary` `runs` times, with its
    /// arguments, `extra` ones and a time limit of `limit_s` seconds: the
    /// last run's report and the median of the runs' times (the report's
    /// `total_ms`). A run stopped by anything but completion is an error
    /// naming the case and `how` it was explored.
    pub fn explored(
        &self,
        binary: &Path,
        (extra, how): (&[String], &str),
        limit_s: u32,
        runs: usize,
    ) -> Result<(Value, f64), String> {
        let mut args = vec![self.module.display().to_string()];
        args.extend(["--max-time".to_string(), limit_s.to_string()]);
        args.extend(self.args.iter().cloned());
        args.extend(extra.iter().cloned());
        let what = format!("{} ({how})", self.name);
        let mut times = Vec::new();
        let mut last = None;
        for _ in 0..runs {
            let report = explore_report(binary, &args).map_err(|e| format!("{what}: {e}"))?;
            if report["stop_reason"].as_str() != Some("completed") {
                return Err(format!("{what}: stopped by {}", report["stop_reason"]));
            }
            times.push(number(&report, "/stats/timing/total_ms")?);
            last = Some(report);
        }
        Ok((last.ok_or("no run")?, median_of(times)))
    }
}

/// How the paths of a report that did not return ended, and where: `kind
/// line` of each memory error and trap, `status line` of each other end.
pub fn bugs(report: &Value) -> BTreeSet<String> {
    let paths = report["paths"].as_array().map_or(&[][..], Vec::as_slice);
    paths
        .iter()
        .filter(|p| p["status"] != "returned")
        .map(|p| {
            let kind = p["memory_error"]["kind"]
                .as_str()
                .or(p["trap"].as_str())
                .or(p["status"].as_str())
                .unwrap_or("?");
            let line = &p["location"]["source"]["line"];
            format!("{kind} {line}")
        })
        .collect()
}

/// `x / base` to two places, as a table shows it; `-` where `base` is 0.
pub fn ratio(x: f64, base: f64) -> String {
    if base == 0.0 {
        "-".into()
    } else {
        format!("{:.2}", x / base)
    }
}

/// The geometric mean of ratios (NaN of none).
pub fn geometric_mean(ratios: &[f64]) -> f64 {
    if ratios.is_empty() {
        return f64::NAN;
    }
    (ratios.iter().map(|r| r.ln()).sum::<f64>() / ratios.len() as f64).exp()
}

/// A benchmark's exit: success when it ran and met its goals and checks
/// (`true`), else failure, said once more at the end.
pub fn exit<E: std::fmt::Display>(outcome: Result<bool, E>) -> ExitCode {
    match outcome {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => {
            eprintln!("benchmark failed: a goal or a check was not met (see above)");
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The target directory cargo built this benchmark in, from the
/// benchmark's own path, `<target>/<profile>/deps/<name>`.
pub fn target_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("the benchmark's path: {e}"))?;
    exe.ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("{} is not in a target directory", exe.display()))
}

/// Runs `command`: its standard output, or its standard error when it
/// fails.
pub fn checked(command: &mut Command) -> Result<Vec<u8>, String> {
    let out = command.output().map_err(|e| format!("{command:?}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{command:?} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(out.stdout)
}

/// Builds the CLI of the workspace at `workspace` as the benchmarks are
/// built (the `bench` profile, in their target directory); its binary.
pub fn build_cli(workspace: &Path) -> Result<PathBuf, String> {
    build_cli_in(workspace, &target_dir()?)
}

/// Builds the CLI of `workspace` in the `bench` profile into `target`;
/// its binary. Another workspace's CLI needs a target directory of its
/// own: cargo names the binaries of two checkouts alike, so one build
/// would overwrite the other's and the other, fresh, would not build again.
pub fn build_cli_in(workspace: &Path, target: &Path) -> Result<PathBuf, String> {
    checked(
        Command::new(env!("CARGO"))
            .current_dir(workspace)
            .args([
                "build",
                "--quiet",
                "-p",
                "symplay-cli",
                "--profile",
                "bench",
            ])
            .arg("--target-dir")
            .arg(target),
    )?;
    Ok(target.join("release/symplay"))
}

/// `symplay explore ARGS --json FILE` run by `binary` from the workspace's
/// root: the report it wrote.
pub fn explore_report<S: AsRef<OsStr>>(binary: &Path, args: &[S]) -> Result<Value, String> {
    let out = std::env::temp_dir().join(format!("symplay-bench-{}.json", std::process::id()));
    let run = checked(
        Command::new(binary)
            .current_dir(root())
            .arg("explore")
            .args(args)
            // A run that finds a bug still succeeds as a process.
            .arg("--exit-zero")
            .arg("--json")
            .arg(&out),
    );
    let text = run
        .and_then(|_| std::fs::read_to_string(&out).map_err(|e| format!("{}: {e}", out.display())));
    let _ = std::fs::remove_file(&out);
    serde_json::from_str(&text?).map_err(|e| format!("the report: {e}"))
}

/// The number at `pointer` (a JSON pointer such as `/stats/paths`) of a
/// report; a missing one is an error, never zero.
pub fn number(report: &Value, pointer: &str) -> Result<f64, String> {
    report
        .pointer(pointer)
        .and_then(Value::as_f64)
        .ok_or_else(|| format!("the report has no number at {pointer}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_goal_is_met_within_its_bound_and_never_out_of_reach() {
        assert!(met(4.9, Bound::AtMost(5.0), false));
        assert!(met(5.0, Bound::AtMost(5.0), false));
        assert!(!met(5.1, Bound::AtMost(5.0), false));
        assert!(met(1.0, Bound::AtLeast(1.0), false));
        assert!(!met(0.0, Bound::AtLeast(1.0), false));
        assert!(!met(0.0, Bound::AtMost(5.0), true));
        assert!(!met(9.0, Bound::AtLeast(1.0), true));
        assert!(!met(f64::NAN, Bound::AtMost(5.0), false));
    }

    #[test]
    fn a_missing_number_of_a_report_is_an_error_not_zero() {
        let report = serde_json::json!({ "stats": { "paths": 3, "timing": {} } });
        assert_eq!(number(&report, "/stats/paths"), Ok(3.0));
        assert_eq!(
            number(&report, "/stats/timing/total_ms"),
            Err("the report has no number at /stats/timing/total_ms".into())
        );
    }

    #[test]
    fn cpu_time_counts_work_done() {
        let (sum, time) = cpu_timed(|| (0..20_000_000u64).fold(0u64, |a, x| a ^ x.wrapping_mul(x)));
        assert_ne!(sum, 1);
        assert!(time > Duration::from_micros(100), "{time:?}");
        // Waiting is not work.
        let ((), waited) = cpu_timed(|| std::thread::sleep(Duration::from_millis(50)));
        assert!(waited < Duration::from_millis(10), "{waited:?}");
        let before = children_cpu();
        let spin = "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done";
        checked(Command::new("sh").args(["-c", spin])).unwrap();
        assert!(children_cpu() > before);
    }

    #[test]
    fn figures_are_whole_or_two_decimals() {
        assert_eq!(figure(1.0), "1");
        assert_eq!(figure(6.876), "6.88");
    }
}
