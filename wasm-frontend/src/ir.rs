//! The compact IR the interpreter executes: per function a flat vector of
//! instructions in which every branch already carries its target instruction
//! index and the operand-stack fix-up, plus side tables for the block
//! structure and loops.
//!
//! Execution model: each call frame owns an operand stack. An instruction
//! index is a `pc` (`u32`) into [`Code::instrs`]. Execution starts at pc 0
//! and never has to scan for a matching `end`: structured control flow has
//! been resolved into jumps. Code that Wasm validation types as unreachable
//! (after `br`, `br_table`, `return` or `unreachable`, up to the end of the
//! enclosing block) is not lowered at all, so every instruction in the IR can
//! execute.

use crate::types::ValType;

/// Index of an instruction in [`Code::instrs`].
pub type Pc = u32;

/// Index of a block in [`Code::blocks`].
pub type BlockId = u32;

/// Where a taken branch goes and how it repairs the operand stack.
///
/// When the branch is taken (after popping its condition or index, if any):
/// keep the top `keep` values, remove the `drop` values just beneath them,
/// then continue at `pc`. `keep` is the label's arity (the block's results,
/// or a loop's params); `drop` is how far the stack has grown past the height
/// the target expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub pc: Pc,
    pub keep: u32,
    pub drop: u32,
}

/// The static part of a memory access: the address is the popped operand plus
/// `offset`; `align_log2` is the alignment hint (it does not affect semantics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemArg {
    pub offset: u32,
    pub align_log2: u8,
}

/// One IR instruction. Stack effects follow the Wasm instruction of the same
/// name unless stated.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Instr {
    Unreachable,
    Nop,
    /// Unconditional branch.
    Br(Target),
    /// Pops an i32; if it is non-zero, takes the branch, else falls through
    /// with the stack unchanged.
    BrIf(Target),
    /// Pops an i32 index and takes the branch in [`Code::br_tables`]`[table]`.
    BrTable {
        table: u32,
    },
    /// Wasm `if`: pops an i32; if it is zero, continues at `else_pc` (the first
    /// instruction of the else branch, or the instruction after the `if`
    /// block when there is none). No stack fix-up is needed: both arms start
    /// from the same stack.
    If {
        else_pc: Pc,
    },
    /// End of a then-branch that is followed by an else branch: continue after
    /// the `if` block. The stack already holds exactly the block's results.
    Jump {
        pc: Pc,
    },
    /// Returns the top `results` values of the function's type. Also emitted at
    /// the function's final `end`, so the function block's `end` pc is always a
    /// `Return`.
    Return,
    Call {
        func: u32,
    },
    /// Pops the table index, then calls with the arguments below it; the callee
    /// must have type `type_index`.
    CallIndirect {
        type_index: u32,
        table: u32,
    },
    Drop,
    /// The untyped Wasm `select`, and the typed one of numbers.
    Select,
    /// The typed `select` of references. References stay concrete, so a
    /// symbolic condition forks instead of making an `ite`.
    SelectRef,
    /// Pushes a null reference.
    RefNull,
    /// Pops a reference, pushes 1 if it is null, else 0.
    RefIsNull,
    /// Pushes a reference to function `func` (in the module's index space).
    RefFunc(u32),
    /// Pops an index, pushes the table's entry there.
    TableGet(u32),
    /// Pops a reference and an index, stores the reference there.
    TableSet(u32),
    /// Pushes the table's length.
    TableSize(u32),
    /// Pops a count and an initial reference, grows the table by the count;
    /// pushes the old length, or -1 if it cannot grow.
    TableGrow(u32),
    /// Pops a count, a reference and an index, writes the reference into
    /// the count entries from the index.
    TableFill(u32),
    LocalGet(u32),
    LocalSet(u32),
    LocalTee(u32),
    GlobalGet(u32),
    GlobalSet(u32),
    Load {
        kind: LoadKind,
        memarg: MemArg,
    },
    Store {
        kind: StoreKind,
        memarg: MemArg,
    },
    MemorySize,
    MemoryGrow,
    MemoryCopy,
    MemoryFill,
    MemoryInit {
        data: u32,
    },
    DataDrop {
        data: u32,
    },
    TableInit {
        elem: u32,
        table: u32,
    },
    TableCopy {
        dst: u32,
        src: u32,
    },
    ElemDrop {
        elem: u32,
    },
    I32Const(i32),
    I64Const(i64),
    /// The raw IEEE-754 bits, so NaN payloads survive.
    F32Const(u32),
    /// The raw IEEE-754 bits, so NaN payloads survive.
    F64Const(u64),
    /// Pops one value, pushes one (tests, arithmetic, conversions).
    Unary(UnaryOp),
    /// Pops two values, pushes one (comparisons, arithmetic).
    Binary(BinaryOp),
}

/// Loads: the width read from memory and how it is extended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadKind {
    I32,
    I64,
    F32,
    F64,
    I32From8S,
    I32From8U,
    I32From16S,
    I32From16U,
    I64From8S,
    I64From8U,
    I64From16S,
    I64From16U,
    I64From32S,
    I64From32U,
}

/// Stores: the value type and the width written to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StoreKind {
    I32,
    I64,
    F32,
    F64,
    I32To8,
    I32To16,
    I64To8,
    I64To16,
    I64To32,
}

impl LoadKind {
    /// Bytes read, width of the result, sign extension.
    pub fn shape(self) -> (u32, u8, bool) {
        match self {
            LoadKind::I32 | LoadKind::F32 => (4, 32, false),
            LoadKind::I64 | LoadKind::F64 => (8, 64, false),
            LoadKind::I32From8S => (1, 32, true),
            LoadKind::I32From8U => (1, 32, false),
            LoadKind::I32From16S => (2, 32, true),
            LoadKind::I32From16U => (2, 32, false),
            LoadKind::I64From8S => (1, 64, true),
            LoadKind::I64From8U => (1, 64, false),
            LoadKind::I64From16S => (2, 64, true),
            LoadKind::I64From16U => (2, 64, false),
            LoadKind::I64From32S => (4, 64, true),
            LoadKind::I64From32U => (4, 64, false),
        }
    }
}

impl StoreKind {
    /// Bytes written.
    pub fn size(self) -> u32 {
        match self {
            StoreKind::I32 | StoreKind::F32 | StoreKind::I64To32 => 4,
            StoreKind::I64 | StoreKind::F64 => 8,
            StoreKind::I32To8 | StoreKind::I64To8 => 1,
            StoreKind::I32To16 | StoreKind::I64To16 => 2,
        }
    }
}

/// Numeric operators with one operand, named as the Wasm instruction
/// (`I32TruncSatF32S` is `i32.trunc_sat_f32_s`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    I32Eqz,
    I64Eqz,
    I32Clz,
    I32Ctz,
    I32Popcnt,
    I64Clz,
    I64Ctz,
    I64Popcnt,
    F32Abs,
    F32Neg,
    F32Ceil,
    F32Floor,
    F32Trunc,
    F32Nearest,
    F32Sqrt,
    F64Abs,
    F64Neg,
    F64Ceil,
    F64Floor,
    F64Trunc,
    F64Nearest,
    F64Sqrt,
    I32WrapI64,
    I32TruncF32S,
    I32TruncF32U,
    I32TruncF64S,
    I32TruncF64U,
    I64ExtendI32S,
    I64ExtendI32U,
    I64TruncF32S,
    I64TruncF32U,
    I64TruncF64S,
    I64TruncF64U,
    F32ConvertI32S,
    F32ConvertI32U,
    F32ConvertI64S,
    F32ConvertI64U,
    F32DemoteF64,
    F64ConvertI32S,
    F64ConvertI32U,
    F64ConvertI64S,
    F64ConvertI64U,
    F64PromoteF32,
    I32ReinterpretF32,
    I64ReinterpretF64,
    F32ReinterpretI32,
    F64ReinterpretI64,
    I32Extend8S,
    I32Extend16S,
    I64Extend8S,
    I64Extend16S,
    I64Extend32S,
    I32TruncSatF32S,
    I32TruncSatF32U,
    I32TruncSatF64S,
    I32TruncSatF64U,
    I64TruncSatF32S,
    I64TruncSatF32U,
    I64TruncSatF64S,
    I64TruncSatF64U,
}

/// Numeric operators with two operands, named as the Wasm instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    I32Eq,
    I32Ne,
    I32LtS,
    I32LtU,
    I32GtS,
    I32GtU,
    I32LeS,
    I32LeU,
    I32GeS,
    I32GeU,
    I64Eq,
    I64Ne,
    I64LtS,
    I64LtU,
    I64GtS,
    I64GtU,
    I64LeS,
    I64LeU,
    I64GeS,
    I64GeU,
    F32Eq,
    F32Ne,
    F32Lt,
    F32Gt,
    F32Le,
    F32Ge,
    F64Eq,
    F64Ne,
    F64Lt,
    F64Gt,
    F64Le,
    F64Ge,
    I32Add,
    I32Sub,
    I32Mul,
    I32DivS,
    I32DivU,
    I32RemS,
    I32RemU,
    I32And,
    I32Or,
    I32Xor,
    I32Shl,
    I32ShrS,
    I32ShrU,
    I32Rotl,
    I32Rotr,
    I64Add,
    I64Sub,
    I64Mul,
    I64DivS,
    I64DivU,
    I64RemS,
    I64RemU,
    I64And,
    I64Or,
    I64Xor,
    I64Shl,
    I64ShrS,
    I64ShrU,
    I64Rotl,
    I64Rotr,
    F32Add,
    F32Sub,
    F32Mul,
    F32Div,
    F32Min,
    F32Max,
    F32Copysign,
    F64Add,
    F64Sub,
    F64Mul,
    F64Div,
    F64Min,
    F64Max,
    F64Copysign,
}

/// What opened a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockKind {
    /// The implicit block of the function body (block 0).
    Function,
    Block,
    Loop,
    If,
}

/// One structured block of the function, for the execution tree and state
/// merging. Only blocks that are reachable are recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub kind: BlockKind,
    /// The enclosing block; `None` only for the function block.
    pub parent: Option<BlockId>,
    /// First instruction of the body. For a loop this is the loop header, the
    /// target of its back edges.
    pub start: Pc,
    /// First instruction of the else branch, for an `if` that has one.
    pub else_start: Option<Pc>,
    /// The instruction after the block: where forward branches to it and its
    /// fall-through continue. For the function block it is the final `Return`.
    pub end: Pc,
    pub params: Box<[ValType]>,
    pub results: Box<[ValType]>,
    /// Byte offset in the module of the opening `block`/`loop`/`if` (of the
    /// body, for the function block).
    pub offset: u32,
}

/// A loop and the places control goes when it leaves the loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    pub block: BlockId,
    /// The loop header ([`Block::start`] of `block`).
    pub header: Pc,
    /// Every pc outside the loop that a branch inside it (at any nesting depth)
    /// jumps to, plus the loop's `end` if the body can fall through; sorted,
    /// without duplicates. Returns are not listed.
    pub exits: Box<[Pc]>,
}

/// The targets of one `br_table`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrTable {
    pub targets: Box<[Target]>,
    pub default: Target,
}

/// A lowered function body.
#[derive(Clone, Debug, PartialEq)]
pub struct Code {
    /// Declared locals after the parameters, expanded one entry per local.
    pub locals: Box<[ValType]>,
    pub instrs: Box<[Instr]>,
    /// Byte offset in the module of each instruction (parallel to `instrs`).
    pub offsets: Box<[u32]>,
    pub br_tables: Box<[BrTable]>,
    /// Block 0 is the function block; a block's parent precedes it.
    pub blocks: Box<[Block]>,
    /// Loops in order of their headers, outer before inner.
    pub loops: Box<[Loop]>,
    /// The operand stack's types, bottom first, where code continues after
    /// a block's end, a loop's start or a call, by pc (sorted).
    pub operands: Box<[(Pc, Box<[ValType]>)]>,
}

impl Code {
    /// The types of the operand stack at `pc`, bottom first, where `pc`
    /// follows a block's end, a loop's start or a call: where states come
    /// out of a loop and wait to merge.
    pub fn operands_at(&self, pc: Pc) -> Option<&[ValType]> {
        let at = self.operands.binary_search_by_key(&pc, |(p, _)| *p).ok()?;
        Some(&self.operands[at].1)
    }

    /// The loops whose header is `pc`, outermost first (nested loops that
    /// start at the same instruction share a header).
    pub fn loops_at(&self, pc: Pc) -> &[Loop] {
        let first = self.loops.partition_point(|l| l.header < pc);
        let past = self.loops.partition_point(|l| l.header <= pc);
        &self.loops[first..past]
    }

    /// The innermost loop whose body (from its header to its block's
    /// end) holds `pc`.
    pub fn loop_around(&self, pc: Pc) -> Option<&Loop> {
        let past = self.loops.partition_point(|l| l.header <= pc);
        // Loops around `pc` nest: the later header, or the inner of two
        // at one header, is the inner one.
        (self.loops[..past].iter().rev()).find(|l| pc < self.blocks[l.block as usize].end)
    }

    /// Whether control going from `from` to `to` leaves the innermost loop
    /// around `from` (a branch back to its header stays in it).
    pub fn leaves_loop(&self, from: Pc, to: Pc) -> bool {
        self.loop_around(from)
            .is_some_and(|l| to < l.header || to >= self.blocks[l.block as usize].end)
    }

    /// Byte offset in the module of the instruction at `pc`.
    pub fn offset_of(&self, pc: Pc) -> Option<u32> {
        self.offsets.get(pc as usize).copied()
    }
}
