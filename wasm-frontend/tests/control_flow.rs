//! Lowering of structured control flow: branch targets, stack fix-ups, blocks,
//! loop headers and exits, dead code.

use symplay_wasm::ir::{self, BinaryOp, BlockKind, Code, Instr, Target, UnaryOp};
use symplay_wasm::{load, FuncBody, ValType};

/// The IR of the only defined function of a WAT module.
fn code(wat: &str) -> Code {
    let module = load(wat.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    let defined: Vec<&Code> = module
        .funcs
        .iter()
        .filter_map(|f| match &f.body {
            FuncBody::Defined(code) => Some(code),
            FuncBody::Import(_) => None,
        })
        .collect();
    assert_eq!(defined.len(), 1);
    defined[0].clone()
}

fn t(pc: u32, keep: u32, drop: u32) -> Target {
    Target { pc, keep, drop }
}

#[test]
fn block_br_if_and_fallthrough() {
    let code = code(
        r#"(module (func (param i32) (result i32)
            (block (result i32)
              i32.const 7
              local.get 0
              br_if 0
              drop
              i32.const 8)
            i32.const 1
            i32.add))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            I32Const(7),
            LocalGet(0),
            BrIf(t(5, 1, 0)),
            Drop,
            I32Const(8),
            I32Const(1),
            Binary(BinaryOp::I32Add),
            Return,
        ]
    );
    assert_eq!(code.blocks.len(), 2);
    assert_eq!(code.blocks[0].kind, BlockKind::Function);
    assert_eq!(code.blocks[0].end, 7);
    assert_eq!(code.blocks[1].kind, BlockKind::Block);
    assert_eq!((code.blocks[1].start, code.blocks[1].end), (0, 5));
    assert_eq!(&*code.blocks[1].results, &[ValType::I32]);
    assert_eq!(code.blocks[1].parent, Some(0));
    assert!(code.loops.is_empty());
}

#[test]
fn branch_drops_values_above_the_label() {
    // Two extra values under the branch value must be dropped.
    let code = code(
        r#"(module (func (result i32)
            i32.const 100
            (block (result i32)
              i32.const 1
              i32.const 2
              i32.const 3
              br 0)
            i32.add))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            I32Const(100),
            I32Const(1),
            I32Const(2),
            I32Const(3),
            Br(t(5, 1, 2)),
            Binary(BinaryOp::I32Add),
            Return,
        ]
    );
}

#[test]
fn loop_with_back_edge_and_exit() {
    // while (n != 0) n--; the clang shape: block { loop { br_if exit; ...; br loop } }
    let code = code(
        r#"(module (func (param i32) (result i32)
            (block $exit
              (loop $top
                local.get 0
                i32.eqz
                br_if $exit
                local.get 0
                i32.const 1
                i32.sub
                local.set 0
                br $top))
            local.get 0))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            LocalGet(0),
            Unary(UnaryOp::I32Eqz),
            BrIf(t(8, 0, 0)),
            LocalGet(0),
            I32Const(1),
            Binary(BinaryOp::I32Sub),
            LocalSet(0),
            Br(t(0, 0, 0)),
            LocalGet(0),
            Return,
        ]
    );
    assert_eq!(code.loops.len(), 1);
    let lp = &code.loops[0];
    assert_eq!(lp.header, 0);
    assert_eq!(code.blocks[lp.block as usize].kind, BlockKind::Loop);
    // The loop never falls through (it ends with `br $top`); its only exit is
    // the branch to the end of $exit.
    assert_eq!(&*lp.exits, &[8]);
    assert_eq!(code.loops_at(0).len(), 1);
    assert!(code.loops_at(1).is_empty());
    // The code after `br $top` would be dead; the loop's end pc is 8.
    assert_eq!(code.blocks[lp.block as usize].end, 8);
}

#[test]
fn nested_loops_record_their_exits_and_which_branches_leave_them() {
    let code = code(
        r#"(module (func (param i32)
            (block $out
              (loop $outer
                (loop $inner
                  local.get 0
                  br_if $out
                  local.get 0
                  br_if $inner)
                (block $skip
                  local.get 0
                  br_if $skip
                  nop)
                br $outer))))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            LocalGet(0),
            BrIf(t(8, 0, 0)),
            LocalGet(0),
            BrIf(t(0, 0, 0)),
            LocalGet(0),
            BrIf(t(7, 0, 0)),
            Nop,
            Br(t(0, 0, 0)),
            Return,
        ]
    );
    assert_eq!(code.loops.len(), 2);
    // Both loops start at pc 0: outer first.
    assert_eq!(code.loops_at(0).len(), 2);
    let (outer, inner) = (&code.loops[0], &code.loops[1]);
    assert!(code.blocks[inner.block as usize].parent == Some(outer.block));
    // br_if $out leaves both loops; the inner loop also falls through to pc 4.
    assert_eq!(&*outer.exits, &[8]);
    assert_eq!(&*inner.exits, &[4, 8]);
    // The inner one holds pcs 0-3, the outer 0-7.
    assert_eq!(code.loop_around(0), Some(inner));
    assert_eq!(code.loop_around(3), Some(inner));
    assert_eq!(code.loop_around(4), Some(outer));
    assert_eq!(code.loop_around(7), Some(outer));
    assert_eq!(code.loop_around(8), None);
    // br_if $out leaves; br_if $inner's back edge stays and its fall
    // through leaves the inner loop.
    assert!(code.leaves_loop(1, 8));
    assert!(!code.leaves_loop(3, 0));
    assert!(code.leaves_loop(3, 4));
    // A forward branch that skips inside the outer loop stays in it, and
    // so does its back edge.
    assert!(!code.leaves_loop(5, 7));
    assert!(!code.leaves_loop(5, 6));
    assert!(!code.leaves_loop(7, 0));
    // Outside every loop nothing leaves one.
    assert!(!code.leaves_loop(8, 0));
}

#[test]
fn if_else_jumps() {
    let code = code(
        r#"(module (func (param i32) (result i32)
            local.get 0
            (if (result i32)
              (then i32.const 10)
              (else i32.const 20))
            i32.const 1
            i32.add))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            LocalGet(0),
            If { else_pc: 4 },
            I32Const(10),
            Jump { pc: 5 },
            I32Const(20),
            I32Const(1),
            Binary(BinaryOp::I32Add),
            Return,
        ]
    );
    let block = &code.blocks[1];
    assert_eq!(block.kind, BlockKind::If);
    assert_eq!((block.start, block.else_start, block.end), (2, Some(4), 5));
}

#[test]
fn if_without_else_and_then_branch_ending_in_return() {
    let code = code(
        r#"(module (func (param i32) (result i32)
            local.get 0
            (if (then i32.const 5 return))
            local.get 0
            (if (then i32.const 6 return) (else nop))
            i32.const 7))"#,
    );
    use Instr::*;
    // No Jump after a then-branch that cannot fall through.
    assert_eq!(
        &*code.instrs,
        &[
            LocalGet(0),
            If { else_pc: 4 },
            I32Const(5),
            Return,
            LocalGet(0),
            If { else_pc: 8 },
            I32Const(6),
            Return,
            Nop,
            I32Const(7),
            Return,
        ]
    );
}

#[test]
fn br_table_targets_and_fixups() {
    let code = code(
        r#"(module (func (param i32) (result i32)
            (block $b2
              (block $b1
                (block $b0
                  i32.const 99
                  local.get 0
                  br_table $b0 $b1 $b2 1)
                i32.const 10
                return)
              i32.const 11
              return)
            i32.const 12))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            I32Const(99),
            LocalGet(0),
            BrTable { table: 0 },
            I32Const(10),
            Return,
            I32Const(11),
            Return,
            I32Const(12),
            Return,
        ]
    );
    // The i32 99 left on the stack is dropped by every entry.
    assert_eq!(
        code.br_tables[0],
        ir::BrTable {
            targets: vec![t(3, 0, 1), t(5, 0, 1), t(7, 0, 1)].into(),
            default: t(5, 0, 1),
        }
    );
}

#[test]
fn branch_to_function_label_is_return_or_targets_final_return() {
    let code = code(
        r#"(module (func (param i32) (result i32)
            i32.const 1
            local.get 0
            br_if 0
            drop
            i32.const 2
            br 0))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            I32Const(1),
            LocalGet(0),
            BrIf(t(6, 1, 0)),
            Drop,
            I32Const(2),
            Return,
            Return,
        ]
    );
    assert_eq!(code.blocks[0].end, 6);
}

#[test]
fn unreachable_code_is_not_lowered() {
    let code = code(
        r#"(module (func (result i32)
            (block
              br 0
              i32.const 1
              (block (loop (br 0)))
              drop)
            unreachable
            i32.const 3
            (if (then nop))
            i32.const 4))"#,
    );
    use Instr::*;
    assert_eq!(&*code.instrs, &[Br(t(1, 0, 0)), Unreachable, Return]);
    // Blocks inside dead code are not recorded.
    assert_eq!(code.blocks.len(), 2);
    assert!(code.loops.is_empty());
}

#[test]
fn multi_value_blocks_and_loop_params() {
    let code = code(
        r#"(module
            (type $pair (func (result i32 i32)))
            (type $step (func (param i32 i32) (result i32 i32)))
            (func (param i32) (result i32)
              (block (type $pair)
                i32.const 1
                i32.const 2)
              i32.const 0
              (loop (type $step) (param i32 i32) (result i32 i32)
                local.get 0
                br_if 0
                drop
                i32.const 5)
              drop
              drop))"#,
    );
    use Instr::*;
    assert_eq!(
        &*code.instrs,
        &[
            I32Const(1),
            I32Const(2),
            I32Const(0),
            // Stack: 1 2 0 | loop params are 2 and 0; 1 is below the loop.
            LocalGet(0),
            BrIf(t(3, 2, 0)),
            Drop,
            I32Const(5),
            Drop,
            Drop,
            Return,
        ]
    );
    let lp = &code.blocks[2];
    assert_eq!(lp.kind, BlockKind::Loop);
    assert_eq!(&*lp.params, &[ValType::I32, ValType::I32]);
    assert_eq!(&*lp.results, &[ValType::I32, ValType::I32]);
    assert_eq!(&*code.blocks[1].results, &[ValType::I32, ValType::I32]);
}

#[test]
fn loop_params_with_values_below_are_dropped_on_back_edge() {
    let code = code(
        r#"(module (func (param i32) (result i32)
            i32.const 0
            (loop (param i32) (result i32)
              i32.const 9
              i32.const 8
              local.get 0
              br_if 1
              drop
              drop
              i32.const 1
              i32.add
              local.get 0
              br_if 0)))"#,
    );
    // br_if 1 targets the function with 2 values above the result: keep 1
    // (the 8), drop 2 (9 and the loop param). br_if 0: keep the param.
    assert_eq!(code.instrs[4], Instr::BrIf(t(11, 1, 2)));
    assert_eq!(code.instrs[10], Instr::BrIf(t(1, 1, 0)));
    assert_eq!(code.instrs[11], Instr::Return);
    assert_eq!(code.loops[0].exits.as_ref(), &[11]);
}

#[test]
fn offsets_point_at_the_instruction_bytes() {
    let wasm =
        wat::parse_str(r#"(module (func (result i32) i32.const 1 i32.const 2 i32.add))"#).unwrap();
    let module = load(&wasm).unwrap();
    let FuncBody::Defined(code) = &module.funcs[0].body else {
        panic!()
    };
    for (pc, instr) in code.instrs.iter().enumerate() {
        let offset = code.offset_of(pc as u32).unwrap() as usize;
        let opcode = wasm[offset];
        let expected = match instr {
            Instr::I32Const(_) => 0x41,
            Instr::Binary(BinaryOp::I32Add) => 0x6a,
            Instr::Return => 0x0b, // the final `end`
            other => panic!("unexpected {other:?}"),
        };
        assert_eq!(opcode, expected, "pc {pc}");
    }
}

#[test]
fn memory_and_numeric_operators_are_kept() {
    use symplay_wasm::ir::{LoadKind, MemArg, StoreKind};
    let code = code(
        r#"(module (memory 1) (data "x")
            (func (param i32) (result i64)
              local.get 0
              i64.load32_u offset=8 align=4
              local.get 0
              i32.load8_s offset=3
              i32.extend8_s
              i64.extend_i32_s
              i64.add
              local.get 0
              f64.const -0.5
              f64.store offset=16
              f32.const 1.5
              i32.trunc_sat_f32_u
              drop
              i32.const 0 i32.const 0 i32.const 1 memory.copy
              i32.const 0 i32.const 7 i32.const 1 memory.fill
              i32.const 0 i32.const 0 i32.const 1 memory.init 0
              data.drop 0
              memory.size
              memory.grow
              drop))"#,
    );
    use Instr::*;
    assert_eq!(
        code.instrs[1],
        Load {
            kind: LoadKind::I64From32U,
            memarg: MemArg {
                offset: 8,
                align_log2: 2
            }
        }
    );
    assert_eq!(
        code.instrs[3],
        Load {
            kind: LoadKind::I32From8S,
            memarg: MemArg {
                offset: 3,
                align_log2: 0
            }
        }
    );
    assert_eq!(code.instrs[4], Unary(UnaryOp::I32Extend8S));
    assert_eq!(code.instrs[5], Unary(UnaryOp::I64ExtendI32S));
    assert_eq!(code.instrs[8], F64Const((-0.5f64).to_bits()));
    assert_eq!(
        code.instrs[9],
        Store {
            kind: StoreKind::F64,
            memarg: MemArg {
                offset: 16,
                align_log2: 3
            }
        }
    );
    assert_eq!(code.instrs[10], F32Const(1.5f32.to_bits()));
    assert_eq!(code.instrs[11], Unary(UnaryOp::I32TruncSatF32U));
    assert_eq!(code.instrs[16], MemoryCopy);
    assert_eq!(code.instrs[20], MemoryFill);
    assert_eq!(code.instrs[24], MemoryInit { data: 0 });
    assert_eq!(code.instrs[25], DataDrop { data: 0 });
    assert_eq!(code.instrs[26..28], [MemorySize, MemoryGrow]);
}

#[test]
fn the_operand_types_are_kept_where_code_continues_after_a_block_a_loop_or_a_call() {
    // Where states come out of a loop they wait with their operands; a
    // merge joins an integer's as a term, never a float's.
    let code = code(
        r#"(module
            (import "env" "g" (func $g (param i32) (result i64)))
            (func (param i32) (result f32 i32 i64)
              f32.const 1
              (block (result i32)
                (loop $l (result i32)
                  local.get 0
                  br_if $l
                  i32.const 2))
              local.get 0
              call $g))"#,
    );
    let pc_of = |wanted: fn(&Instr) -> bool| code.instrs.iter().position(wanted).unwrap() as u32;
    // After the call: f32, the block's i32 and the call's i64.
    let after_call = pc_of(|i| matches!(i, Instr::Call { .. })) + 1;
    assert_eq!(
        code.operands_at(after_call),
        Some(&[ValType::F32, ValType::I32, ValType::I64][..])
    );
    // The loop's start has the f32 below it; the blocks' end the i32 too.
    let header = code.loops[0].header;
    assert_eq!(code.operands_at(header), Some(&[ValType::F32][..]));
    let end = code.blocks[1].end;
    assert_eq!(
        code.operands_at(end),
        Some(&[ValType::F32, ValType::I32][..])
    );
    // Elsewhere nothing is kept.
    assert_eq!(code.operands_at(header + 1), None);
}
