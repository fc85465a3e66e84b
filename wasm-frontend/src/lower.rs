//! Lowers one validated function body to the IR: resolves every branch to an
//! instruction index with its stack fix-up, records blocks and loops, drops
//! unreachable code.
//!
//! Each operator is validated by wasmparser's function validator before it
//! is lowered; the validator's operand-stack height before the operator gives
//! the exact stack fix-up of branches (Wasm validation makes heights static
//! in reachable code).

use wasmparser::{
    BlockType, FuncValidator, FunctionBody, Operator, OperatorsReader, ValidatorResources,
};

use crate::error::{ErrorKind, LoadError};
use crate::features::unsupported_operator;
use crate::ir::{
    BinaryOp, Block, BlockId, BlockKind, BrTable, Code, Instr, LoadKind, Loop, MemArg, Pc,
    StoreKind, Target, UnaryOp,
};
use crate::types::{val_type, FuncType, ValType};

/// Placeholder pc of a forward branch until its block's end is known.
const UNRESOLVED: Pc = Pc::MAX;

/// Validates and lowers `body`, a function of type `func_type`.
pub(crate) fn lower_function(
    body: &FunctionBody<'_>,
    mut validator: FuncValidator<ValidatorResources>,
    types: &[FuncType],
    func_type: &FuncType,
) -> Result<Code, LoadError> {
    let mut reader = body.get_binary_reader();
    validator.read_locals(&mut reader).map_err(invalid)?;
    let locals = read_locals(body)?;
    let mut ops = OperatorsReader::new(reader);
    let mut lowering = Lowering::new(types, func_type, body.range().start);
    while !ops.eof() {
        let (op, offset) = ops.read_with_offset().map_err(malformed)?;
        if let Some(feature) = unsupported_operator(&op) {
            return Err(LoadError::unsupported(feature, offset));
        }
        let height = validator.operand_stack_height();
        let unreachable = validator
            .get_control_frame(0)
            .is_some_and(|f| f.unreachable);
        validator.op(offset, &op).map_err(invalid)?;
        lowering.lower(&op, offset, height, unreachable)?;
        if continues_here(&op) {
            lowering.operands_here(&validator, offset)?;
        }
    }
    ops.finish().map_err(malformed)?;
    lowering.finish(locals, body.range().end)
}

/// Whether code may continue after `op` where a state comes out of a
/// loop: a block's end (a branch's target), a loop's start (an outer
/// loop's), or a call's return.
fn continues_here(op: &Operator<'_>) -> bool {
    matches!(
        op,
        Operator::End
            | Operator::Loop { .. }
            | Operator::Call { .. }
            | Operator::CallIndirect { .. }
    )
}

fn malformed(e: wasmparser::BinaryReaderError) -> LoadError {
    LoadError::from_wasmparser(e, ErrorKind::Malformed)
}

fn invalid(e: wasmparser::BinaryReaderError) -> LoadError {
    LoadError::from_wasmparser(e, ErrorKind::Invalid)
}

/// Declared locals, one entry per local. Runs after the validator has checked
/// the declarations (including their total count), so expanding is bounded.
fn read_locals(body: &FunctionBody<'_>) -> Result<Box<[ValType]>, LoadError> {
    let mut locals = Vec::new();
    let mut reader = body.get_locals_reader().map_err(malformed)?;
    for _ in 0..reader.get_count() {
        let offset = reader.original_position();
        let (count, ty) = reader.read().map_err(malformed)?;
        let ty = val_type(ty, offset)?;
        locals.extend(std::iter::repeat_n(ty, count as usize));
    }
    Ok(locals.into())
}

/// A reference to a branch whose target pc is patched at its block's end.
enum Patch {
    Instr(Pc),
    TableEntry { table: usize, entry: Option<usize> },
}

/// Where a branch out of a loop goes: a label (resolved once all blocks are
/// known) or the loop's own end (its fall-through).
enum Exit {
    Label(BlockId),
    Pc(Pc),
}

/// A live (reachable) control frame.
struct Frame {
    kind: BlockKind,
    block: BlockId,
    /// Operand-stack height below the block's params.
    base: u32,
    /// Values a branch to this label carries.
    label_arity: u32,
    /// Forward branches to patch with the end pc.
    patches: Vec<Patch>,
    /// The `If` instruction still waiting for its else pc.
    pending_if: Option<Pc>,
    /// Index in `Lowering::loops` for a loop frame.
    loop_index: Option<usize>,
}

struct LoopBuilder {
    block: BlockId,
    header: Pc,
    exits: Vec<Exit>,
}

struct Lowering<'a> {
    types: &'a [FuncType],
    instrs: Vec<Instr>,
    offsets: Vec<u32>,
    br_tables: Vec<BrTable>,
    blocks: Vec<Block>,
    loops: Vec<LoopBuilder>,
    frames: Vec<Frame>,
    /// Nesting depth of blocks opened inside unreachable code; their contents
    /// are not lowered.
    dead_depth: u32,
    /// The operand stack's types where code continues (see [`Code::operands_at`]).
    operands: Vec<(Pc, Box<[ValType]>)>,
}

impl<'a> Lowering<'a> {
    fn new(types: &'a [FuncType], func_type: &FuncType, body_offset: u64) -> Self {
        let function_block = Block {
            kind: BlockKind::Function,
            parent: None,
            start: 0,
            else_start: None,
            end: UNRESOLVED,
            params: Box::new([]),
            results: func_type.results.clone(),
            offset: offset_u32(body_offset),
        };
        let frame = Frame {
            kind: BlockKind::Function,
            block: 0,
            base: 0,
            label_arity: func_type.results.len() as u32,
            patches: Vec::new(),
            pending_if: None,
            loop_index: None,
        };
        Self {
            types,
            instrs: Vec::new(),
            offsets: Vec::new(),
            br_tables: Vec::new(),
            blocks: vec![function_block],
            loops: Vec::new(),
            frames: vec![frame],
            dead_depth: 0,
            operands: Vec::new(),
        }
    }

    /// Records the types of the operand stack the validator has after an
    /// operator, at the pc that comes next; not in unreachable code, where
    /// the validator knows no types.
    fn operands_here(
        &mut self,
        validator: &FuncValidator<ValidatorResources>,
        offset: u64,
    ) -> Result<(), LoadError> {
        if self.dead_depth > 0 {
            return Ok(());
        }
        let height = validator.operand_stack_height() as usize;
        let mut types = Vec::with_capacity(height);
        for depth in (0..height).rev() {
            match validator.get_operand_type(depth) {
                Some(Some(ty)) => types.push(val_type(ty, offset)?),
                _ => return Ok(()),
            }
        }
        let pc = self.pc();
        if self.operands.last().is_some_and(|(at, _)| *at == pc) {
            self.operands.pop();
        }
        self.operands.push((pc, types.into()));
        Ok(())
    }

    fn pc(&self) -> Pc {
        self.instrs.len() as Pc
    }

    fn emit(&mut self, instr: Instr, offset: u64) -> Pc {
        let pc = self.pc();
        self.instrs.push(instr);
        self.offsets.push(offset_u32(offset));
        pc
    }

    /// Lowers one operator. `height` is the operand-stack height before it and
    /// `unreachable` whether the validator saw the current code as unreachable.
    fn lower(
        &mut self,
        op: &Operator<'_>,
        offset: u64,
        height: u32,
        unreachable: bool,
    ) -> Result<(), LoadError> {
        let opens_block = matches!(
            op,
            Operator::Block { .. } | Operator::Loop { .. } | Operator::If { .. }
        );
        if self.dead_depth > 0 {
            if opens_block {
                self.dead_depth += 1;
            } else if matches!(op, Operator::End) {
                self.dead_depth -= 1;
            }
            return Ok(());
        }
        if unreachable && !matches!(op, Operator::Else | Operator::End) {
            if opens_block {
                self.dead_depth = 1;
            }
            return Ok(());
        }
        let instr = match *op {
            Operator::Block { blockty } => {
                return self.open(BlockKind::Block, blockty, height, offset)
            }
            Operator::Loop { blockty } => {
                return self.open(BlockKind::Loop, blockty, height, offset)
            }
            Operator::If { blockty } => {
                return self.open(BlockKind::If, blockty, height.saturating_sub(1), offset)
            }
            Operator::Else => return self.else_(offset, unreachable),
            Operator::End => return self.end(offset, unreachable),
            Operator::Br { relative_depth } => {
                let frame = self.frame_index(relative_depth, offset)?;
                if self.frames[frame].kind == BlockKind::Function {
                    Instr::Return
                } else {
                    let target = self.target(frame, height, offset)?;
                    let pc = self.emit(Instr::Br(target), offset);
                    self.patch_later(frame, target, Patch::Instr(pc));
                    return Ok(());
                }
            }
            Operator::BrIf { relative_depth } => {
                let frame = self.frame_index(relative_depth, offset)?;
                let target = self.target(frame, height.saturating_sub(1), offset)?;
                let pc = self.emit(Instr::BrIf(target), offset);
                self.patch_later(frame, target, Patch::Instr(pc));
                return Ok(());
            }
            Operator::BrTable { ref targets } => {
                return self.br_table(targets, height.saturating_sub(1), offset)
            }
            Operator::Return => Instr::Return,
            Operator::Unreachable => Instr::Unreachable,
            Operator::Nop => Instr::Nop,
            Operator::Call { function_index } => Instr::Call {
                func: function_index,
            },
            Operator::CallIndirect {
                type_index,
                table_index,
            } => Instr::CallIndirect {
                type_index,
                table: table_index,
            },
            Operator::Drop => Instr::Drop,
            Operator::TypedSelect { ty } if ty.is_reference_type() => Instr::SelectRef,
            Operator::Select | Operator::TypedSelect { .. } => Instr::Select,
            Operator::RefNull { .. } => Instr::RefNull,
            Operator::RefIsNull => Instr::RefIsNull,
            Operator::RefFunc { function_index } => Instr::RefFunc(function_index),
            Operator::TableGet { table } => Instr::TableGet(table),
            Operator::TableSet { table } => Instr::TableSet(table),
            Operator::TableSize { table } => Instr::TableSize(table),
            Operator::TableGrow { table } => Instr::TableGrow(table),
            Operator::TableFill { table } => Instr::TableFill(table),
            Operator::LocalGet { local_index } => Instr::LocalGet(local_index),
            Operator::LocalSet { local_index } => Instr::LocalSet(local_index),
            Operator::LocalTee { local_index } => Instr::LocalTee(local_index),
            Operator::GlobalGet { global_index } => Instr::GlobalGet(global_index),
            Operator::GlobalSet { global_index } => Instr::GlobalSet(global_index),
            Operator::MemorySize { .. } => Instr::MemorySize,
            Operator::MemoryGrow { .. } => Instr::MemoryGrow,
            Operator::MemoryCopy { .. } => Instr::MemoryCopy,
            Operator::MemoryFill { .. } => Instr::MemoryFill,
            Operator::MemoryInit { data_index, .. } => Instr::MemoryInit { data: data_index },
            Operator::DataDrop { data_index } => Instr::DataDrop { data: data_index },
            Operator::TableInit { elem_index, table } => Instr::TableInit {
                elem: elem_index,
                table,
            },
            Operator::TableCopy {
                dst_table,
                src_table,
            } => Instr::TableCopy {
                dst: dst_table,
                src: src_table,
            },
            Operator::ElemDrop { elem_index } => Instr::ElemDrop { elem: elem_index },
            Operator::I32Const { value } => Instr::I32Const(value),
            Operator::I64Const { value } => Instr::I64Const(value),
            Operator::F32Const { value } => Instr::F32Const(value.bits()),
            Operator::F64Const { value } => Instr::F64Const(value.bits()),
            ref other => match memory_access(other, offset)?.or_else(|| numeric(other)) {
                Some(instr) => instr,
                None => {
                    return Err(LoadError::unsupported(
                        &format!("operator {other:?}"),
                        offset,
                    ))
                }
            },
        };
        self.emit(instr, offset);
        Ok(())
    }

    fn block_signature(&self, blockty: BlockType, offset: u64) -> Result<FuncType, LoadError> {
        match blockty {
            BlockType::Empty => Ok(FuncType::new(&[], &[])),
            BlockType::Type(ty) => Ok(FuncType::new(&[], &[val_type(ty, offset)?])),
            BlockType::FuncType(index) => {
                self.types.get(index as usize).cloned().ok_or_else(|| {
                    LoadError::new(
                        ErrorKind::Invalid,
                        format!("invalid module: unknown type {index}"),
                        Some(offset),
                    )
                })
            }
        }
    }

    /// Opens a block; `height` is the stack height without an `if` condition.
    fn open(
        &mut self,
        kind: BlockKind,
        blockty: BlockType,
        height: u32,
        offset: u64,
    ) -> Result<(), LoadError> {
        let signature = self.block_signature(blockty, offset)?;
        let params = signature.params.len() as u32;
        let base = height
            .checked_sub(params)
            .ok_or_else(|| internal("block params", offset))?;
        let pending_if = (kind == BlockKind::If).then(|| {
            self.emit(
                Instr::If {
                    else_pc: UNRESOLVED,
                },
                offset,
            )
        });
        let block = self.blocks.len() as BlockId;
        let start = self.pc();
        let parent = self.frames.last().map(|f| f.block);
        let label_arity = if kind == BlockKind::Loop {
            params
        } else {
            signature.results.len() as u32
        };
        self.blocks.push(Block {
            kind,
            parent,
            start,
            else_start: None,
            end: UNRESOLVED,
            params: signature.params,
            results: signature.results,
            offset: offset_u32(offset),
        });
        let loop_index = (kind == BlockKind::Loop).then(|| {
            self.loops.push(LoopBuilder {
                block,
                header: start,
                exits: Vec::new(),
            });
            self.loops.len() - 1
        });
        self.frames.push(Frame {
            kind,
            block,
            base,
            label_arity,
            patches: Vec::new(),
            pending_if,
            loop_index,
        });
        Ok(())
    }

    fn else_(&mut self, offset: u64, then_unreachable: bool) -> Result<(), LoadError> {
        let jump = (!then_unreachable).then(|| self.emit(Instr::Jump { pc: UNRESOLVED }, offset));
        let else_start = self.pc();
        let frame = self
            .frames
            .last_mut()
            .ok_or_else(|| internal("else", offset))?;
        if let Some(pc) = jump {
            frame.patches.push(Patch::Instr(pc));
        }
        let pending_if = frame.pending_if.take();
        let block = frame.block;
        if let Some(if_pc) = pending_if {
            set_pc(&mut self.instrs[if_pc as usize], else_start);
        }
        self.blocks[block as usize].else_start = Some(else_start);
        Ok(())
    }

    fn end(&mut self, offset: u64, unreachable: bool) -> Result<(), LoadError> {
        let frame = self.frames.pop().ok_or_else(|| internal("end", offset))?;
        let end = self.pc();
        if frame.kind == BlockKind::Function {
            self.emit(Instr::Return, offset);
        }
        if let Some(if_pc) = frame.pending_if {
            set_pc(&mut self.instrs[if_pc as usize], end);
        }
        if let (Some(index), false) = (frame.loop_index, unreachable) {
            self.loops[index].exits.push(Exit::Pc(end));
        }
        for patch in frame.patches {
            match patch {
                Patch::Instr(pc) => set_pc(&mut self.instrs[pc as usize], end),
                Patch::TableEntry { table, entry } => {
                    let table = &mut self.br_tables[table];
                    match entry {
                        Some(i) => table.targets[i].pc = end,
                        None => table.default.pc = end,
                    }
                }
            }
        }
        self.blocks[frame.block as usize].end = end;
        Ok(())
    }

    fn br_table(
        &mut self,
        targets: &wasmparser::BrTable<'_>,
        height: u32,
        offset: u64,
    ) -> Result<(), LoadError> {
        let table = self.br_tables.len();
        let mut entries = Vec::with_capacity(targets.len() as usize);
        let mut patches = Vec::new();
        for (i, depth) in targets.targets().enumerate() {
            let frame = self.frame_index(depth.map_err(malformed)?, offset)?;
            let target = self.target(frame, height, offset)?;
            entries.push(target);
            patches.push((frame, target, Some(i)));
        }
        let frame = self.frame_index(targets.default(), offset)?;
        let default = self.target(frame, height, offset)?;
        patches.push((frame, default, None));
        self.br_tables.push(BrTable {
            targets: entries.into(),
            default,
        });
        for (frame, target, entry) in patches {
            self.patch_later(frame, target, Patch::TableEntry { table, entry });
        }
        self.emit(
            Instr::BrTable {
                table: table as u32,
            },
            offset,
        );
        Ok(())
    }

    fn frame_index(&self, relative_depth: u32, offset: u64) -> Result<usize, LoadError> {
        (self.frames.len() - 1)
            .checked_sub(relative_depth as usize)
            .ok_or_else(|| internal("branch depth", offset))
    }

    /// The target of a branch to `frame` taken with `height` values on the
    /// stack; also records the loops the branch leaves.
    fn target(&mut self, frame: usize, height: u32, offset: u64) -> Result<Target, LoadError> {
        let label = &self.frames[frame];
        let keep = label.label_arity;
        let drop = height
            .checked_sub(label.base)
            .and_then(|h| h.checked_sub(keep))
            .ok_or_else(|| internal("branch stack height", offset))?;
        let pc = match label.kind {
            BlockKind::Loop => self.blocks[label.block as usize].start,
            _ => UNRESOLVED,
        };
        let target_block = label.block;
        for inner in &self.frames[frame + 1..] {
            if let Some(index) = inner.loop_index {
                self.loops[index].exits.push(Exit::Label(target_block));
            }
        }
        Ok(Target { pc, keep, drop })
    }

    fn patch_later(&mut self, frame: usize, target: Target, patch: Patch) {
        if target.pc == UNRESOLVED {
            self.frames[frame].patches.push(patch);
        }
    }

    fn finish(self, locals: Box<[ValType]>, end_offset: u64) -> Result<Code, LoadError> {
        if !self.frames.is_empty() || self.dead_depth != 0 {
            return Err(internal("unterminated function body", end_offset));
        }
        let blocks = self.blocks;
        let loops = self
            .loops
            .into_iter()
            .map(|l| {
                let mut exits: Vec<Pc> = l
                    .exits
                    .iter()
                    .map(|exit| match *exit {
                        Exit::Pc(pc) => pc,
                        Exit::Label(block) => {
                            let block = &blocks[block as usize];
                            if block.kind == BlockKind::Loop {
                                block.start
                            } else {
                                block.end
                            }
                        }
                    })
                    .collect();
                exits.sort_unstable();
                exits.dedup();
                Loop {
                    block: l.block,
                    header: l.header,
                    exits: exits.into(),
                }
            })
            .collect();
        Ok(Code {
            locals,
            instrs: self.instrs.into(),
            offsets: self.offsets.into(),
            br_tables: self.br_tables.into(),
            blocks: blocks.into(),
            loops,
            operands: self.operands.into(),
        })
    }
}

/// Sets the jump target of a branch-like instruction awaiting its block end.
fn set_pc(instr: &mut Instr, pc: Pc) {
    match instr {
        Instr::Br(target) | Instr::BrIf(target) => target.pc = pc,
        Instr::If { else_pc } => *else_pc = pc,
        Instr::Jump { pc: jump } => *jump = pc,
        _ => {}
    }
}

/// A state validation should have ruled out; reported instead of panicking.
fn internal(what: &str, offset: u64) -> LoadError {
    LoadError::new(
        ErrorKind::Invalid,
        format!("invalid module: inconsistent {what}"),
        Some(offset),
    )
}

fn offset_u32(offset: u64) -> u32 {
    u32::try_from(offset).unwrap_or(u32::MAX)
}

fn memory_access(op: &Operator<'_>, offset: u64) -> Result<Option<Instr>, LoadError> {
    enum Access {
        Load(LoadKind),
        Store(StoreKind),
    }
    let (memarg, access) = match *op {
        Operator::I32Load { memarg } => (memarg, Access::Load(LoadKind::I32)),
        Operator::I64Load { memarg } => (memarg, Access::Load(LoadKind::I64)),
        Operator::F32Load { memarg } => (memarg, Access::Load(LoadKind::F32)),
        Operator::F64Load { memarg } => (memarg, Access::Load(LoadKind::F64)),
        Operator::I32Load8S { memarg } => (memarg, Access::Load(LoadKind::I32From8S)),
        Operator::I32Load8U { memarg } => (memarg, Access::Load(LoadKind::I32From8U)),
        Operator::I32Load16S { memarg } => (memarg, Access::Load(LoadKind::I32From16S)),
        Operator::I32Load16U { memarg } => (memarg, Access::Load(LoadKind::I32From16U)),
        Operator::I64Load8S { memarg } => (memarg, Access::Load(LoadKind::I64From8S)),
        Operator::I64Load8U { memarg } => (memarg, Access::Load(LoadKind::I64From8U)),
        Operator::I64Load16S { memarg } => (memarg, Access::Load(LoadKind::I64From16S)),
        Operator::I64Load16U { memarg } => (memarg, Access::Load(LoadKind::I64From16U)),
        Operator::I64Load32S { memarg } => (memarg, Access::Load(LoadKind::I64From32S)),
        Operator::I64Load32U { memarg } => (memarg, Access::Load(LoadKind::I64From32U)),
        Operator::I32Store { memarg } => (memarg, Access::Store(StoreKind::I32)),
        Operator::I64Store { memarg } => (memarg, Access::Store(StoreKind::I64)),
        Operator::F32Store { memarg } => (memarg, Access::Store(StoreKind::F32)),
        Operator::F64Store { memarg } => (memarg, Access::Store(StoreKind::F64)),
        Operator::I32Store8 { memarg } => (memarg, Access::Store(StoreKind::I32To8)),
        Operator::I32Store16 { memarg } => (memarg, Access::Store(StoreKind::I32To16)),
        Operator::I64Store8 { memarg } => (memarg, Access::Store(StoreKind::I64To8)),
        Operator::I64Store16 { memarg } => (memarg, Access::Store(StoreKind::I64To16)),
        Operator::I64Store32 { memarg } => (memarg, Access::Store(StoreKind::I64To32)),
        _ => return Ok(None),
    };
    let memarg = MemArg {
        offset: u32::try_from(memarg.offset)
            .map_err(|_| LoadError::unsupported("memory64", offset))?,
        align_log2: memarg.align,
    };
    Ok(Some(match access {
        Access::Load(kind) => Instr::Load { kind, memarg },
        Access::Store(kind) => Instr::Store { kind, memarg },
    }))
}

/// Numeric operators map one-to-one onto `UnaryOp`/`BinaryOp` variants of
/// the same name.
macro_rules! numeric_ops {
    (unary: $($unary:ident)*; binary: $($binary:ident)*;) => {
        fn numeric(op: &Operator<'_>) -> Option<Instr> {
            match op {
                $(Operator::$unary => Some(Instr::Unary(UnaryOp::$unary)),)*
                $(Operator::$binary => Some(Instr::Binary(BinaryOp::$binary)),)*
                _ => None,
            }
        }
    };
}

numeric_ops! {
    unary:
            I32Eqz I64Eqz I32Clz I32Ctz I32Popcnt I64Clz I64Ctz I64Popcnt F32Abs F32Neg F32Ceil
            F32Floor F32Trunc F32Nearest F32Sqrt F64Abs F64Neg F64Ceil F64Floor F64Trunc
            F64Nearest F64Sqrt I32WrapI64 I32TruncF32S I32TruncF32U I32TruncF64S I32TruncF64U
            I64ExtendI32S I64ExtendI32U I64TruncF32S I64TruncF32U I64TruncF64S I64TruncF64U
            F32ConvertI32S F32ConvertI32U F32ConvertI64S F32ConvertI64U F32DemoteF64
            F64ConvertI32S F64ConvertI32U F64ConvertI64S F64ConvertI64U F64PromoteF32
            I32ReinterpretF32 I64ReinterpretF64 F32ReinterpretI32 F64ReinterpretI64 I32Extend8S
            I32Extend16S I64Extend8S I64Extend16S I64Extend32S I32TruncSatF32S I32TruncSatF32U
            I32TruncSatF64S I32TruncSatF64U I64TruncSatF32S I64TruncSatF32U I64TruncSatF64S
            I64TruncSatF64U;
    binary:
            I32Eq I32Ne I32LtS I32LtU I32GtS I32GtU I32LeS I32LeU I32GeS I32GeU I64Eq I64Ne
            I64LtS I64LtU I64GtS I64GtU I64LeS I64LeU I64GeS I64GeU F32Eq F32Ne F32Lt F32Gt
            F32Le F32Ge F64Eq F64Ne F64Lt F64Gt F64Le F64Ge I32Add I32Sub I32Mul I32DivS
            I32DivU I32RemS I32RemU I32And I32Or I32Xor I32Shl I32ShrS I32ShrU I32Rotl I32Rotr
            I64Add I64Sub I64Mul I64DivS I64DivU I64RemS I64RemU I64And I64Or I64Xor I64Shl
            I64ShrS I64ShrU I64Rotl I64Rotr F32Add F32Sub F32Mul F32Div F32Min F32Max
            F32Copysign F64Add F64Sub F64Mul F64Div F64Min F64Max F64Copysign;
}
