//! Step mode: an exploration advanced one branch or one instruction at a
//! time shows the state that runs next (place, frames with locals and
//! operand stack, path condition, memory objects), and ends with the same
//! report as one run.

use std::time::Duration;
use symplay_engine::exec::{explore, Exploration, MergeMode, MergeOptions, Options};
use symplay_engine::memory::HeapOptions;
use symplay_engine::report::step::{Step, StepBy, StepEvent};
use symplay_engine::report::Report;
use symplay_engine::search::SearchKind;

const GET_SIGN: &str = r#"(module (func (export "get_sign") (param i32) (result i32)
  (if (i32.eqz (local.get 0)) (then (return (i32.const 0))))
  (if (i32.lt_s (local.get 0) (i32.const 0)) (then (return (i32.const -1))))
  (i32.const 1)))"#;

/// A caller and a callee, with a local the callee changes.
const CALLS: &str = r#"(module
  (func $twice (param i32) (result i32) (local i32)
    (local.set 1 (i32.add (local.get 0) (local.get 0)))
    (if (i32.gt_u (local.get 1) (i32.const 100)) (then (return (i32.const 100))))
    (local.get 1))
  (func (export "f") (param i32) (result i32)
    (i32.add (i32.const 1) (call $twice (local.get 0)))))"#;

const KEY_PREFIX: &str = include_str!("../../tests/data/wat/key_prefix.wat");

/// A report without what differs from run to run (times), and the
/// memory estimate, which is taken every few slices (and a step is one).
fn without_timing(mut r: Report) -> Report {
    r.stats.timing = Default::default();
    r.stats.peak_memory_bytes = 0;
    for q in &mut r.quantified_queries {
        q.micros = 0;
    }
    r
}

/// Every step of `by` until the run is over, the first (step 0) included.
fn all_steps(e: &mut Exploration<&symplay_wasm::Module>, by: StepBy) -> Vec<Step> {
    let mut steps = vec![e.first_step()];
    while steps.last().unwrap().goes_on() {
        // A zero budget may leave a branch step unfinished: call again.
        if let Some(step) = e.step(by, Duration::ZERO) {
            steps.push(step);
        }
    }
    steps
}

#[test]
fn the_first_step_shows_the_entry_about_to_run_with_its_symbolic_parameter() {
    let module = symplay_wasm::load(GET_SIGN.as_bytes()).unwrap();
    let mut e = Exploration::new(&module, "get_sign", &Options::default()).unwrap();
    let first = e.first_step();
    assert_eq!(first.number, 0);
    assert_eq!(
        first.events,
        [StepEvent::Started {
            entry: "get_sign".into()
        }]
    );
    let view = first.next.expect("a state to run");
    assert_eq!(view.node, 0);
    assert_eq!(view.location.function, "get_sign");
    assert_eq!(view.frames.len(), 1);
    let local = &view.frames[0].locals[0];
    assert_eq!((local.ty.as_str(), local.value.as_str()), ("i32", "arg0"));
    assert!(view.frames[0].stack.is_empty());
    assert!(view.path_condition.is_empty());
    assert_eq!(view.pending, 0);
}

#[test]
fn branch_steps_walk_the_tree_fork_by_fork_and_end_as_one_run_does() {
    let module = symplay_wasm::load(GET_SIGN.as_bytes()).unwrap();
    for search in SearchKind::ALL {
        let options = Options {
            search,
            seed: 3,
            ..Options::default()
        };
        let whole = explore(&module, "get_sign", &options).unwrap();
        let mut e = Exploration::new(&module, "get_sign", &options).unwrap();
        let steps = all_steps(&mut e, StepBy::Branch);
        // Two forks and three path ends: one step each.
        let forks: Vec<_> = steps
            .iter()
            .filter_map(|s| match &s.events[..] {
                [StepEvent::Forked { node, children, .. }] => Some((*node, children.len())),
                _ => None,
            })
            .collect();
        assert_eq!(forks.len(), 2, "{search:?}: {steps:#?}");
        assert!(forks.iter().all(|&(_, n)| n == 2));
        let mut ended: Vec<usize> = steps
            .iter()
            .filter_map(|s| match s.events[..] {
                [StepEvent::Ended { path, .. }] => Some(path),
                _ => None,
            })
            .collect();
        ended.sort_unstable();
        assert_eq!(ended, [0, 1, 2], "{search:?}");
        assert_eq!(steps.len(), 1 + 2 + 3, "{search:?}");
        // After the first fork, the state shown is on one side of it, with
        // that side's condition as its path condition.
        let after_fork = steps[1].next.as_ref().unwrap();
        assert_eq!(after_fork.depth, 1);
        assert_eq!(after_fork.path_condition.len(), 1);
        let condition = &after_fork.path_condition[0];
        assert!(
            condition == "arg0 == 0" || condition == "arg0 != 0",
            "{condition}"
        );
        assert!(e.is_finished());
        assert_eq!(
            without_timing(e.finish()),
            without_timing(whole),
            "{search:?}"
        );
    }
}

/// Every fork and every path end is narrated once, by the step it happened
/// in, in the order it happened: also the sides that end at their fork (a
/// failed heap check, a result split into its values), which no state runs.
#[test]
fn steps_narrate_every_fork_and_every_ended_path_once() {
    let outcomes = include_bytes!("../../tests/data/outcomes/outcomes-O1.wasm");
    let overflow = include_bytes!("../../tests/data/heap/heap_overflow_write.O1.wasm");
    for (wasm, entry, step_over_one) in [
        (&outcomes[..], "pi_digit", "a split result"),
        (&overflow[..], "heap_overflow_write", "a failed heap check"),
    ] {
        let module = symplay_wasm::load(wasm).unwrap();
        let mut e = Exploration::new(&module, entry, &Options::default()).unwrap();
        let steps = all_steps(&mut e, StepBy::Branch);
        let report = e.finish();
        let mut forks = Vec::new();
        let mut ended = Vec::new();
        let mut several = false;
        for step in &steps {
            several |= step.events.len() > 1;
            for event in &step.events {
                match event {
                    StepEvent::Forked { node, children, .. } => {
                        assert_eq!(children, &report.tree[*node].children);
                        forks.push(*node);
                    }
                    StepEvent::Ended {
                        path,
                        node,
                        outcome,
                    } => {
                        let p = &report.paths[*path];
                        assert_eq!((p.node, p.outcome()), (*node, outcome.clone()));
                        // The fork that made its leaf was told first.
                        let parent = report.tree[*node].parent;
                        assert!(parent.is_none_or(|u| forks.contains(&u)), "{entry}");
                        ended.push(*path);
                    }
                    _ => {}
                }
            }
        }
        assert!(
            several,
            "{entry}: {step_over_one} ends a side in the fork's step"
        );
        let inner: Vec<usize> = report
            .tree
            .iter()
            .filter(|n| !n.children.is_empty())
            .map(|n| n.id)
            .collect();
        forks.sort_unstable();
        assert_eq!(forks, inner, "{entry}");
        ended.sort_unstable();
        assert_eq!(
            ended,
            (0..report.paths.len()).collect::<Vec<_>>(),
            "{entry}"
        );
    }
}

#[test]
fn instruction_steps_run_one_instruction_each_and_show_the_operand_stack() {
    let module = symplay_wasm::load(CALLS.as_bytes()).unwrap();
    let options = Options {
        search: SearchKind::Dfs,
        ..Options::default()
    };
    let whole = explore(&module, "f", &options).unwrap();
    let mut e = Exploration::new(&module, "f", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Instruction);
    let report = e.finish();
    assert!(steps.iter().all(|s| s.instructions <= 1), "{steps:#?}");
    let total: u64 = steps.iter().map(|s| s.instructions).sum();
    assert_eq!(total, report.stats.instructions);
    assert_eq!(without_timing(report), without_timing(whole));
    // Inside the callee: two frames, the caller at its call with the
    // constant 1 waiting on its operand stack.
    let inside = steps
        .iter()
        .filter_map(|s| s.next.as_ref())
        .find(|v| v.frames.len() == 2)
        .expect("a step inside the callee");
    let caller = &inside.frames[0];
    assert_eq!(caller.stack, ["1"]);
    assert!(
        caller.location.offset < inside.location.offset
            || caller.location.function != inside.location.function
    );
    let callee = &inside.frames[1];
    assert_eq!(callee.locals.len(), 2);
    assert_eq!(callee.locals[0].value, "arg0");
    // Once the callee set its local, the local reads as the sum.
    let set = steps
        .iter()
        .filter_map(|s| s.next.as_ref())
        .filter(|v| v.frames.len() == 2)
        .map(|v| v.frames[1].locals[1].value.clone())
        .find(|v| v != "0")
        .expect("the local set");
    assert_eq!(set, "arg0 + arg0");
    // A value pushed is on the stack at the next step.
    assert!(steps
        .iter()
        .filter_map(|s| s.next.as_ref())
        .any(|v| v.frames.last().unwrap().stack == ["arg0", "arg0"]));
}

#[test]
fn a_branch_step_goes_on_across_budgets_and_the_state_after_a_fork_is_the_searchers() {
    let module = symplay_wasm::load(KEY_PREFIX.as_bytes()).unwrap();
    let options = Options {
        search: SearchKind::Bfs,
        ..Options::default()
    };
    let whole = explore(&module, "f", &options).unwrap();
    let mut e = Exploration::new(&module, "f", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Branch);
    let ended = steps
        .iter()
        .filter(|s| matches!(s.events[..], [StepEvent::Ended { .. }]))
        .count();
    assert_eq!(ended, whole.paths.len());
    // Breadth first: the depths of the states shown never go down.
    let depths: Vec<u32> = steps
        .iter()
        .filter_map(|s| s.next.as_ref())
        .map(|v| v.depth)
        .collect();
    assert!(depths.windows(2).all(|w| w[0] <= w[1]), "{depths:?}");
    // The pending count shown is the tree's: the last state has none.
    let last = steps.iter().rev().find_map(|s| s.next.as_ref()).unwrap();
    assert_eq!(last.pending, 0);
    let finished = steps.last().unwrap();
    assert!(finished.next.is_none());
    assert_eq!(without_timing(e.finish()), without_timing(whole));
}

#[test]
fn a_step_after_the_run_is_over_says_so() {
    let module = symplay_wasm::load(GET_SIGN.as_bytes()).unwrap();
    let options = Options {
        max_paths: Some(1),
        ..Options::default()
    };
    let mut e = Exploration::new(&module, "get_sign", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Branch);
    assert!(steps.last().unwrap().next.is_none());
    let again = e.step(StepBy::Branch, Duration::ZERO).unwrap();
    assert_eq!(
        again.events,
        [StepEvent::Finished {
            stop_reason: "path limit".into()
        }]
    );
    assert_eq!(e.finish().paths.len(), 1);
}

#[test]
fn the_memory_objects_of_the_state_are_shown_as_they_are_made_and_freed() {
    let wasm = include_bytes!("../../static/examples/c/heap_overflow.wasm");
    let module = symplay_wasm::load(wasm).unwrap();
    let options = Options {
        search: SearchKind::Dfs,
        heap: HeapOptions {
            objects: true,
            ..HeapOptions::default()
        },
        ..Options::default()
    };
    let mut e = Exploration::new(&module, "copy_name", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Instruction);
    let views: Vec<_> = steps.iter().filter_map(|s| s.next.as_ref()).collect();
    assert!(views[0].objects.iter().all(|o| o.kind != "heap"));
    let allocated = views
        .iter()
        .position(|v| v.objects.iter().any(|o| o.kind == "heap"))
        .expect("a step after malloc");
    let freed = views[allocated..]
        .iter()
        .find(|v| {
            v.objects
                .iter()
                .any(|o| o.kind == "heap" && o.freed_at.is_some())
        })
        .expect("a step after free");
    // The C line is known where the state is.
    assert!(freed.location.source.is_some());
    assert!(views[allocated].location.source.is_some());
}

#[test]
fn stepping_through_symbolic_sizes_changes_no_path_nor_input() {
    // The views of states with blocks of symbolic size show their terms:
    // a query for their values would feed the solver's caches, which
    // answer later queries, and change what the run finds.
    for (wasm, entry) in [
        (
            &include_bytes!("../../static/examples/c/heap_overflow.wasm")[..],
            "copy_name",
        ),
        (
            &include_bytes!("../../static/examples/c/length_read.wasm")[..],
            "first_header",
        ),
    ] {
        let module = symplay_wasm::load(wasm).unwrap();
        let whole = explore(&module, entry, &Options::default()).unwrap();
        for by in [StepBy::Branch, StepBy::Instruction] {
            let mut e = Exploration::new(&module, entry, &Options::default()).unwrap();
            let steps = all_steps(&mut e, by);
            assert!(steps
                .iter()
                .filter_map(|s| s.next.as_ref())
                .any(|v| v.objects.iter().any(|o| o.symbolic_size.is_some())));
            assert_eq!(
                without_timing(e.finish()),
                without_timing(whole.clone()),
                "{entry} by {by:?}"
            );
        }
    }
}

#[test]
fn a_limit_that_ends_a_stepped_run_is_its_stop_reason() {
    let module = symplay_wasm::load(KEY_PREFIX.as_bytes()).unwrap();
    let options = Options {
        max_instructions: Some(40),
        ..Options::default()
    };
    let mut e = Exploration::new(&module, "f", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Branch);
    let last = steps.last().unwrap();
    assert_eq!(
        last.events.last(),
        Some(&StepEvent::Finished {
            stop_reason: "instruction limit".into()
        })
    );
    let report = e.finish();
    assert_eq!(report.stop_reason, "instruction limit");
    assert!(report.stats.pending_states > 0);
}

#[test]
fn waiting_for_a_step_does_not_count_against_the_time_limit() {
    let module = symplay_wasm::load(GET_SIGN.as_bytes()).unwrap();
    let options = Options {
        max_time: Some(Duration::from_millis(300)),
        ..Options::default()
    };
    let mut e = Exploration::new(&module, "get_sign", &options).unwrap();
    e.first_step();
    let mut ended = 0;
    loop {
        // A teacher's pause, longer than the whole time limit.
        std::thread::sleep(Duration::from_millis(150));
        let step = e.step(StepBy::Branch, Duration::MAX).unwrap();
        ended += usize::from(matches!(step.events[..], [StepEvent::Ended { .. }]));
        if !step.goes_on() {
            break;
        }
    }
    assert_eq!(ended, 3);
    let report = e.finish();
    assert_eq!(report.stop_reason, "completed");
    assert!(
        report.stats.timing.total_ms < 300.0,
        "{}",
        report.stats.timing.total_ms
    );
}

/// Depth first under the seed's model (ForkLazy, capacity 3, sizes past
/// it left out), merging as `mode` says, validated where `validate`.
fn merging_depth_first(mode: MergeMode, validate: bool) -> Options {
    Options {
        search: SearchKind::Dfs,
        heap: HeapOptions {
            size_mode: symplay_engine::memory::SizeMode::ForkLazy,
            capacity: 3,
            past_capacity: false,
            ..HeapOptions::default()
        },
        merge: MergeOptions {
            mode,
            validate,
            ..Default::default()
        },
        ..Options::default()
    }
}

#[test]
fn branch_steps_say_which_states_wait_at_a_loops_exit_and_which_merge() {
    // E1 under CFG merging, depth first: each of the five states that
    // leave the loop waits at its exit, a step each; the step of the last
    // one merges them, and the run ends as one run does. Validated, the
    // merge takes steps of the scheduler's own (a query each), which a
    // zero budget leaves to the next calls: the branch step waits for them.
    let text = include_str!("../../tests/data/heap/size/e1.wat");
    let module = symplay_wasm::load(text.as_bytes()).unwrap();
    let options = merging_depth_first(MergeMode::Cfg, true);
    let whole = explore(&module, "e1", &options).unwrap();
    assert_eq!(whole.stats.merging.as_ref().unwrap().validated, 1);
    let mut e = Exploration::new(&module, "e1", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Branch);
    let events: Vec<&StepEvent> = steps.iter().flat_map(|s| &s.events).collect();
    let waited: Vec<usize> = (events.iter())
        .filter_map(|e| match e {
            StepEvent::Waited { node } => Some(*node),
            _ => None,
        })
        .collect();
    let merged: Vec<(usize, &Vec<usize>)> = (events.iter())
        .filter_map(|e| match e {
            StepEvent::Merged { node, from } => Some((*node, from)),
            _ => None,
        })
        .collect();
    assert_eq!(waited.len(), 5, "{events:?}");
    let [(node, from)] = merged[..] else {
        panic!("{events:?}")
    };
    let (mut a, mut b) = (waited.clone(), from.clone());
    a.sort_unstable();
    b.sort_unstable();
    assert_eq!(a, b);
    // The merge comes in the step of the last state to wait, after it.
    let last = steps
        .iter()
        .find(|s| {
            s.events
                .iter()
                .any(|e| matches!(e, StepEvent::Merged { .. }))
        })
        .unwrap();
    assert!(matches!(last.events[0], StepEvent::Waited { .. }));
    assert!(last.describe()[1].ends_with(&format!("merged into #{node}")));
    assert_eq!(without_timing(e.finish()), without_timing(whole));
}

#[test]
fn branch_steps_show_each_incremental_merge_in_a_loop() {
    // memspn over "ab" under PAT (quantified_merging.md §5, T9): the step
    // of each state that comes to a merge point and merges there
    // says so, with the node where the two ways parted and the nodes it
    // supersedes; the run ends as one run does.
    let text = include_str!("../../tests/data/heap/size/memspn_ab.wat");
    let module = symplay_wasm::load(text.as_bytes()).unwrap();
    let options = merging_depth_first(MergeMode::Pat, false);
    let whole = explore(&module, "memspn", &options).unwrap();
    let incremental = whole.stats.merging.as_ref().unwrap().incremental;
    assert!(incremental >= 3, "{incremental}");
    let mut e = Exploration::new(&module, "memspn", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Branch);
    let mut seen = 0;
    for step in &steps {
        for (event, text) in step.events.iter().zip(step.describe()) {
            let StepEvent::MergedAtPoint {
                node,
                from,
                parted,
                superseded,
            } = event
            else {
                continue;
            };
            seen += 1;
            let merge = whole.merges.iter().find(|m| m.node == *node).unwrap();
            assert!(merge.incremental);
            assert_eq!(
                (merge.root, &whole.tree[*node].merged_from),
                (*parted, from)
            );
            // Depth first, the earlier state's subtree was explored by then.
            let below = |v: usize| {
                whole
                    .tree
                    .iter()
                    .filter(|n| {
                        n.superseded && {
                            let mut at = n.parent;
                            while let Some(u) = at.filter(|&u| u != v) {
                                at = whole.tree[u].parent;
                            }
                            at == Some(v)
                        }
                    })
                    .count()
            };
            assert!(*superseded <= below(from[1]), "{text}");
            assert!(
                text.contains(&format!(
                    "came to a merge point of its loop and merged with #{}'s into #{node}",
                    from[1]
                )),
                "{text}"
            );
        }
    }
    assert_eq!(seen, incremental);
    assert_eq!(without_timing(e.finish()), without_timing(whole));
}

#[test]
fn branch_steps_take_the_merges_at_a_loops_exit_one_a_step() {
    // memspn over "a" under PAT: the states at the loop's exit fall into
    // two partitions (quantified_merging.md T3), each merged over its k.
    // The step of the last state to leave the loop makes the first merge
    // and says the second comes next; the step after it runs no
    // instruction and makes the second. The run ends as one run does.
    let text = include_str!("../../tests/data/heap/size/memspn_a.wat");
    let module = symplay_wasm::load(text.as_bytes()).unwrap();
    let options = merging_depth_first(MergeMode::Pat, true);
    let whole = explore(&module, "memspn", &options).unwrap();
    let at_exit: Vec<_> = whole.merges.iter().filter(|m| !m.incremental).collect();
    assert_eq!(at_exit.len(), 2, "{:?}", whole.merges);
    let mut e = Exploration::new(&module, "memspn", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Branch);
    let merged_in = |s: &Step| -> Vec<usize> {
        (s.events.iter())
            .filter_map(|e| match e {
                StepEvent::Merged { node, .. } => Some(*node),
                _ => None,
            })
            .collect()
    };
    let with_merges: Vec<(usize, Vec<usize>)> = (steps.iter().enumerate())
        .map(|(i, s)| (i, merged_in(s)))
        .filter(|(_, m)| !m.is_empty())
        .collect();
    let [(first, a), (second, b)] = &with_merges[..] else {
        panic!("{with_merges:?}")
    };
    assert_eq!((a.len(), b.len(), *second), (1, 1, first + 1));
    assert_eq!([a[0], b[0]], [at_exit[0].node, at_exit[1].node]);
    // The first merge's step: the last state waited, then it merged; next
    // is the second merge, of its states' leaves, not a state.
    let step = &steps[*first];
    assert!(matches!(step.events[0], StepEvent::Waited { .. }));
    assert!(step.next.is_none());
    let next = step
        .next_merge
        .as_ref()
        .expect("the second merge comes next");
    assert_eq!(next.nodes, whole.tree[b[0]].merged_from);
    // Besides them, the state in no partition waits (it goes on
    // unmerged): "then 1 more state".
    assert_eq!(next.waiting, next.nodes.len() + 1);
    assert!(next
        .describe()
        .ends_with(", then 1 more state at the loop's exit"));
    let listed: Vec<String> = next.nodes.iter().map(|n| format!("#{n}")).collect();
    assert!(next.describe().starts_with(&format!(
        "the merge of the states of {} at the exit of the loop at memspn",
        listed.join(", ")
    )));
    // The second merge's step ran nothing and made only that merge.
    let step = &steps[*second];
    assert_eq!(step.instructions, 0);
    assert!(matches!(step.events[..], [StepEvent::Merged { .. }]));
    assert!(step.next_merge.is_none() && step.next.is_some());
    // By instructions alike: the step after the first merge makes the
    // second one.
    let mut e = Exploration::new(&module, "memspn", &options).unwrap();
    let steps = all_steps(&mut e, StepBy::Instruction);
    let merges: Vec<Vec<usize>> = steps
        .iter()
        .map(merged_in)
        .filter(|m| !m.is_empty())
        .collect();
    assert_eq!(merges, [a.clone(), b.clone()]);
    assert_eq!(without_timing(e.finish()), without_timing(whole));
}
