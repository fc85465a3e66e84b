//! Which locals a function may still read at a pc: a backward dataflow
//! over the lowered code (`../shared/design/quantified_merging.md` §9).
//! `local.get` reads a local; `local.set` and `local.tee` write it. A
//! local is live at a pc when some way on from it reads the local before
//! writing it. Incremental merging joins two states whose live locals
//! agree: a local that differs but is dead is never read again.

use crate::ir::{Code, Instr, Pc};

impl Code {
    /// For each local (the `params` parameters first, then
    /// [`Code::locals`]), whether it is live at `at`.
    pub fn live_locals(&self, params: usize, at: Pc) -> Vec<bool> {
        let n = params + self.locals.len();
        let words = n.div_ceil(64);
        let pcs = self.instrs.len();
        // live[pc]: the locals live before the instruction at pc.
        let mut live = vec![0u64; pcs * words];
        let mut next = vec![0u64; words];
        let mut changed = true;
        while changed {
            changed = false;
            // Backward order settles straight-line code in one pass; loops
            // take one more pass per level of back edges.
            for pc in (0..pcs).rev() {
                next.fill(0);
                for succ in self.successors(pc as Pc) {
                    let from = succ as usize * words;
                    for (w, word) in next.iter_mut().enumerate() {
                        *word |= live.get(from + w).copied().unwrap_or(0);
                    }
                }
                match self.instrs[pc] {
                    Instr::LocalGet(l) => set(&mut next, l as usize, true),
                    Instr::LocalSet(l) | Instr::LocalTee(l) => set(&mut next, l as usize, false),
                    _ => {}
                }
                let here = &mut live[pc * words..(pc + 1) * words];
                if here != &next[..] {
                    here.copy_from_slice(&next);
                    changed = true;
                }
            }
        }
        let at = at as usize * words;
        (0..n)
            .map(|l| {
                live.get(at + l / 64)
                    .is_some_and(|w| w >> (l % 64) & 1 == 1)
            })
            .collect()
    }

    /// The pcs that may run right after the instruction at `pc`.
    fn successors(&self, pc: Pc) -> Vec<Pc> {
        match self.instrs[pc as usize] {
            Instr::Br(t) => vec![t.pc],
            Instr::BrIf(t) => vec![t.pc, pc + 1],
            Instr::BrTable { table } => {
                let table = &self.br_tables[table as usize];
                (table.targets.iter().chain([&table.default]))
                    .map(|t| t.pc)
                    .collect()
            }
            Instr::If { else_pc } => vec![pc + 1, else_pc],
            Instr::Jump { pc } => vec![pc],
            Instr::Return | Instr::Unreachable => Vec::new(),
            _ => vec![pc + 1],
        }
    }
}

fn set(bits: &mut [u64], l: usize, live: bool) {
    let (word, bit) = (l / 64, 1u64 << (l % 64));
    match live {
        true => bits[word] |= bit,
        false => bits[word] &= !bit,
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::{Code, Instr};
    use crate::FuncBody;

    fn code(wat: &str) -> Code {
        let module = crate::load(wat.as_bytes()).unwrap();
        match &module.funcs[0].body {
            FuncBody::Defined(code) => code.clone(),
            FuncBody::Import(_) => unreachable!("a defined function"),
        }
    }

    #[test]
    fn a_local_written_before_any_read_is_dead_at_the_loop_head() {
        // At the loop's head, $p is read; $t is written before it is read
        // on every way on; $n is read (the exit test); $unused never is.
        let c = code(
            r#"(module (func (param $n i32) (result i32)
                 (local $p i32) (local $t i32) (local $unused i32)
                 (loop $l
                   (local.set $t (i32.add (local.get $p) (i32.const 1)))
                   (local.set $p (local.get $t))
                   (br_if $l (i32.lt_u (local.get $p) (local.get $n))))
                 (local.get $p)))"#,
        );
        let head = c.loops[0].header;
        assert_eq!(c.live_locals(1, head), [true, true, false, false]);
        // Past the write of $t, $t is live and $p (written next) is not.
        let after_t = (head..).find(|&pc| matches!(c.instrs[pc as usize], Instr::LocalSet(2)));
        let after_t = after_t.unwrap() + 1;
        assert_eq!(c.live_locals(1, after_t), [true, false, true, false]);
    }
}
