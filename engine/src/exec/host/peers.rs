//! The peers' symbolic APIs: Owi's `owi` module and the `symbolic` and
//! `summaries` modules of WASP and the Owi/WASP benchmarks, with Owi's
//! meanings, so that their test programs run as they are written.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::expr::BvCmp;
use crate::report::DropCause;
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::imports::PeerApi;

/// The name their symbols get, as Owi's models call them (`symbol`,
/// `symbol.1`, ...).
const SYMBOL: &str = "symbol";

impl Executor<'_> {
    pub(super) fn peer_api(&mut self, s: &mut State, api: PeerApi) -> Result<Flow, End> {
        match api {
            PeerApi::Symbol(8) => {
                let byte = self.fresh_int(s, SYMBOL, 8);
                let t = byte.term(&mut self.cx.terms);
                let wide = self.cx.terms.zero_ext(24, t);
                s.stack.push(Val::from_term(&self.cx.terms, wide));
            }
            PeerApi::Symbol(width) => {
                let v = self.fresh_int(s, SYMBOL, width);
                s.stack.push(v);
            }
            PeerApi::FloatSymbol(ty) => {
                let what = format!("a {ty} symbol");
                s.note(format!("concretised {what} to 0: floats are not symbolic"));
                s.mark_concretised(what, s.at);
                s.stack.push(Val::zero(ty));
            }
            PeerApi::Range => {
                let hi = s.pop();
                let lo = s.pop();
                let x = self.fresh_int(s, SYMBOL, 32);
                let (lo, hi, t) = (
                    lo.term(&mut self.cx.terms),
                    hi.term(&mut self.cx.terms),
                    x.term(&mut self.cx.terms),
                );
                let above = self.cx.terms.cmp(BvCmp::Sle, lo, t);
                let below = self.cx.terms.cmp(BvCmp::Slt, t, hi);
                let within = self.cx.terms.and(above, below);
                self.fork(s, &[within])?;
                s.stack.push(x);
            }
            PeerApi::Assume => return self.assume(s),
            PeerApi::Assert => return self.assert(s),
            PeerApi::AssumePositive => {
                let v = s.pop();
                let t = v.term(&mut self.cx.terms);
                let zero = self.cx.terms.bv_const(32, 0);
                let positive = self.cx.terms.cmp(BvCmp::Sle, zero, t);
                self.fork(s, &[positive])?;
            }
            PeerApi::Abort => return Err(End::Dropped(DropCause::Abort)),
            PeerApi::Exit => {
                let code = s.pop();
                return Err(End::Exited(self.unfolded_val(s, code)));
            }
            PeerApi::Alloc => return self.peer_alloc(s),
            PeerApi::Dealloc => return self.peer_dealloc(s),
            PeerApi::PrintChar => {
                let c = s.pop();
                let c = self.concretize(s, c, "a print_char character")?;
                s.output_mut(false).push(c as u8);
            }
        }
        Ok(Flow::Next)
    }
}
