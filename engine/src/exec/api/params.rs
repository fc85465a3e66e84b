//! The entry's parameters at the start of a run: symbolic, given values,
//! or a buffer of symbolic length (the bytes written in a fresh input
//! object of the heap, the parameter its address, and optionally another
//! parameter its length), sized under the run's size mode.

use crate::exec::context::guidance::fits;
use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::TermId;
use crate::memory::{ObjectId, Size};
use crate::report::{counted, param_name, BufferArg};
use crate::state::value::Val;
use crate::state::{Input, State};
use symplay_wasm::{Module, ValType};

/// The input name of each parameter of `func`: its name in the module (the
/// name section's, else DWARF's), else `arg{i}`; made unique in `s` as
/// every input's name is (a second `x` is `x#2`). Named before any other
/// input, so that an input of the same name made later is the one renamed.
pub fn name_params(module: &Module, func: u32, s: &mut State) -> Vec<String> {
    let count = module.func_type(func).map_or(0, |t| t.params.len());
    (0..count)
        .zip(0u32..)
        .map(|(i, local)| {
            let name = module
                .local_name(func, local)
                .map_or_else(|| param_name(&[], i), str::to_string);
            s.unique_name(&name)
        })
        .collect()
}

/// Values for parameters the entry has, of integer types, that fit them.
fn check_concrete_args(params: &[ValType], args: &[Option<i64>]) -> Result<(), String> {
    for (i, value) in args.iter().enumerate() {
        let Some(v) = *value else { continue };
        let width = match params.get(i) {
            None => {
                return Err(format!(
                    "a value is given for parameter {i}, but the entry has {} parameters",
                    params.len()
                ))
            }
            Some(ValType::I32) => 32,
            Some(ValType::I64) => 64,
            Some(ty) => {
                return Err(format!(
                    "parameter {i} is {ty}: only integer parameters take a value (floats are zero)"
                ))
            }
        };
        fits(v, width).map_err(|why| format!("parameter {i} {why}"))?;
    }
    Ok(())
}

/// A test's values for the entry's parameters: one per parameter, each in
/// its type's range (a buffer's pointer and length come from the buffer).
fn check_test_args(
    params: &[ValType],
    names: &[String],
    args: &[i64],
    buffers: &[BufferArg],
) -> Result<(), String> {
    if args.len() != params.len() {
        return Err(format!(
            "the test gives {} for the entry's {}",
            counted(args.len() as u64, "value", "values"),
            counted(params.len() as u64, "parameter", "parameters")
        ));
    }
    let from_buffer = |i: usize| {
        buffers
            .iter()
            .any(|b| b.param == i || b.length_param == Some(i))
    };
    for (i, (&ty, &v)) in params.iter().zip(args).enumerate() {
        let width = match ty {
            ValType::I32 => 32,
            ValType::I64 => 64,
            _ => continue,
        };
        if from_buffer(i) {
            continue;
        }
        fits(v, width).map_err(|why| format!("parameter {i} ({}) {why}", param_name(names, i)))?;
    }
    Ok(())
}

/// Buffer parameters the entry has, each an `i32` pointer, with an integer
/// length parameter of its own, neither given a value; memory objects on.
fn check_buffer_args(
    params: &[ValType],
    buffers: &[BufferArg],
    concrete_args: &[Option<i64>],
    objects: bool,
) -> Result<(), String> {
    let error = |what: String| Err(what);
    if !buffers.is_empty() && !objects {
        return error(
            "a buffer parameter needs the memory-objects heap model, not the module's allocator"
                .into(),
        );
    }
    let mut used = Vec::new();
    for b in buffers {
        let mut own = vec![(b.param, "buffer")];
        own.extend(b.length_param.map(|l| (l, "buffer length")));
        for (i, role) in own {
            match params.get(i) {
                None => {
                    return error(format!(
                        "parameter {i} cannot be a {role}: the entry has {} parameters",
                        params.len()
                    ))
                }
                Some(ValType::I32) => {}
                Some(ValType::I64) if role == "buffer length" => {}
                Some(ty) => {
                    return error(format!(
                        "parameter {i} is {ty}: a {role} parameter is {}",
                        if role == "buffer" {
                            "an i32 address"
                        } else {
                            "an integer"
                        }
                    ))
                }
            }
            if concrete_args.get(i).copied().flatten().is_some() {
                return error(format!(
                    "parameter {i} is a {role}: it takes no value of its own"
                ));
            }
            if used.contains(&i) {
                return error(format!("parameter {i} has two roles"));
            }
            used.push(i);
        }
        if b.capacity == 0 || b.capacity > MAX_BUFFER {
            return error(format!(
                "the buffer of parameter {} must hold 1 to {MAX_BUFFER} bytes, not {}",
                b.param, b.capacity
            ));
        }
    }
    Ok(())
}

/// The most bytes a buffer parameter holds: each is a symbolic input, and
/// the buffer is made (fork-eager: a query per length) before the run
/// starts taking Stop.
pub const MAX_BUFFER: u32 = 4096;

/// A buffer made for a parameter: where, its object, and its length.
struct Made {
    base: u64,
    object: ObjectId,
    len: TermId,
    capacity: u64,
}

/// The states at the entry: the instance's store, the entry's frame with
/// its parameters as inputs named `names` (by [`name_params`] in `s`), and
/// the start function's frame above it so that it runs first. More than
/// one when a buffer's length forks (size mode fork-eager).
pub(super) fn start_states(
    exec: &mut Executor<'_>,
    mut s: State,
    entry: u32,
    names: &[String],
    concrete_args: &[Option<i64>],
    buffers: &[BufferArg],
) -> Result<Vec<State>, String> {
    let params = exec
        .program
        .func_type(entry)
        .map(|t| t.params.clone())
        .unwrap_or_default();
    check_concrete_args(&params, concrete_args)?;
    let objects = exec.program.roles.heap_start.is_some();
    check_buffer_args(&params, buffers, concrete_args, objects)?;
    if let Some(test) = exec.cx.guidance.source.test() {
        check_test_args(&params, names, &test.args, buffers)?;
    }
    // What happens before the entry runs happens at its start.
    s.at = (entry, 0);
    let mut made = Vec::new();
    for b in buffers {
        made.push(make_buffer(exec, &mut s, b, names)?);
    }
    let mut args = Vec::new();
    for (i, &ty) in params.iter().enumerate() {
        let width = match ty {
            ValType::I32 | ValType::F32 => 32,
            ValType::I64 | ValType::F64 | ValType::FuncRef | ValType::ExternRef => 64,
        };
        let name = param_name(names, i);
        let given = concrete_args.get(i).copied().flatten();
        let buffer = buffers.iter().zip(&made);
        let value = if let Some((_, m)) = buffer.clone().find(|(b, _)| b.param == i) {
            Val::con(32, m.base)
        } else if let Some((_, m)) = buffer.clone().find(|(b, _)| b.length_param == Some(i)) {
            let len = if width == 64 {
                exec.cx.terms.zero_ext(32, m.len)
            } else {
                m.len
            };
            Val::from_term(&exec.cx.terms, len)
        } else {
            let symbolic = exec.cx.guidance.source.symbolic();
            let replayed = exec
                .cx
                .guidance
                .source
                .test()
                .map(|t| t.args.get(i).copied().unwrap_or(0));
            match (symbolic, given) {
                (true, Some(v)) => Val::con(width, v as u64),
                (true, None) if matches!(ty, ValType::I32 | ValType::I64) => {
                    Val::Sym(exec.input_term(&name, width, replayed.map(|v| v as u64)))
                }
                (_, None) if ty.is_ref() => {
                    s.note(format!(
                        "the {ty} parameter {name} is null: references are not inputs"
                    ));
                    Val::reference(None)
                }
                // Float parameters stay concrete (zero): floats are not symbolic.
                (true, None) => {
                    let what = format!("the float parameter {name}");
                    s.note(format!("concretised {what} to 0: floats are not symbolic"));
                    s.mark_concretised(what, (entry, 0));
                    Val::con(width, 0)
                }
                (false, _) => Val::con(width, replayed.unwrap_or(0) as u64),
            }
        };
        s.add_input(Input::Arg { width, value });
        args.push(value);
    }
    let frame = exec
        .program
        .entry_frame(entry, args)
        .ok_or_else(|| "the entry is an imported function".to_string())?;
    s.frames.push(frame);
    // The start function runs first, unless it is the entry itself.
    if let Some(start) = exec.program.modules[0].start.filter(|&f| f != entry) {
        if let Some(frame) = exec.program.entry_frame(start, Vec::new()) {
            s.frames.push(frame);
        }
    }
    // Each buffer becomes an object of its length, sized as an allocation
    // of symbolic size is, in every state so far.
    let mut states = vec![s];
    for m in made {
        let mut sized = Vec::new();
        for mut s in states {
            let flow = exec
                .sized(&mut s, m.len, m.capacity, &mut |exec, s, size: Size| {
                    if let Some(memory) = exec.program.memory_mut(s) {
                        memory.set_size(m.object, size);
                    }
                    Ok(Flow::Next)
                })
                .map_err(|end| format!("cannot size the buffer at {:#x}: {}", m.base, why(&end)))?;
            sized.push(s);
            if let Flow::Fork(more) = flow {
                sized.extend(more);
            }
        }
        states = sized;
    }
    Ok(states)
}

/// A fresh input buffer in the heap for `b`: `capacity` symbolic bytes (or,
/// in replay, the test's), of a length at most the capacity, named after
/// its parameter (one of `names`).
fn make_buffer(
    exec: &mut Executor<'_>,
    s: &mut State,
    b: &BufferArg,
    names: &[String],
) -> Result<Made, String> {
    let capacity = u64::from(b.capacity);
    // An object of its capacity first, so that the bytes can be written.
    let site = s.at;
    let input_name = b.input_name(names);
    let (base, object) = exec
        .program
        .memory_mut(s)
        .and_then(|m| m.alloc_input(Size::Con(capacity), capacity, &input_name, site))
        .ok_or_else(|| {
            format!(
                "linear memory has no room for the buffer of parameter {} ({capacity} bytes)",
                b.param
            )
        })?;
    let (name, bytes) = exec
        .write_fresh_bytes(s, &input_name, base, capacity, None)
        .map_err(|end| {
            format!(
                "cannot write the buffer of parameter {}: {}",
                b.param,
                why(&end)
            )
        })?;
    // Sizing (in `start_states`) bounds the length by the capacity.
    let len = exec.input_length(&name, capacity);
    s.add_input(Input::SizedBytes {
        name: name.clone(),
        bytes,
        len,
    });
    Ok(Made {
        base,
        object,
        len,
        capacity,
    })
}

/// Why making a buffer ended its state, in words.
fn why(end: &End) -> String {
    match end {
        End::CutOff => "a limit of the run stopped it".into(),
        End::DepthLimit => "it forks deeper than the depth limit".into(),
        End::CallDepthLimit(frames) => format!("it calls deeper than {frames} frames"),
        End::NotProvided(import) => format!("it calls {import}, which is not provided"),
        End::MemoryError(fault) => format!("{} at {:#x}", fault.kind.name(), fault.address),
        other => format!("{other:?}"),
    }
}
