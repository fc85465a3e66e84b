//! A deterministic WASI model: output captured per path, empty arguments
//! and environment, a clock at zero, symbolic random bytes, and no files.
//! One call per function, each giving its `errno`.

use crate::exec::executor::Executor;
use crate::exec::outcome::{End, Flow};
use crate::state::value::Val;
use crate::state::State;
use symplay_wasm::imports::WasiFn;

const ERRNO_BADF: u32 = 8;
const ERRNO_SPIPE: u32 = 70;

impl Executor<'_> {
    pub(super) fn wasi(&mut self, s: &mut State, f: WasiFn) -> Result<Flow, End> {
        let errno = match f {
            WasiFn::FdWrite => self.fd_write(s)?,
            WasiFn::ProcExit => {
                let code = s.pop();
                return self.end_with_results(s, vec![code], |code| End::Exited(code[0]));
            }
            WasiFn::ArgsSizesGet | WasiFn::EnvironSizesGet => self.sizes_get(s)?,
            WasiFn::ArgsGet | WasiFn::EnvironGet => drop_args(s, 2, 0),
            WasiFn::RandomGet => self.random_get(s)?,
            WasiFn::FdClose => drop_args(s, 1, 0),
            WasiFn::FdSeek => drop_args(s, 4, ERRNO_SPIPE),
            WasiFn::FdFdstatGet => self.fd_fdstat_get(s)?,
            WasiFn::ClockTimeGet => self.clock_time_get(s)?,
        };
        s.stack.push(Val::i32(errno));
        Ok(Flow::Next)
    }

    /// `fd_write` to stdout or stderr: the bytes join the path's output.
    fn fd_write(&mut self, s: &mut State) -> Result<u32, End> {
        let nwritten = s.pop();
        let iovs_len = s.pop();
        let iovs = s.pop();
        let fd = s.pop();
        let fd = self.concretize(s, fd, "an fd_write descriptor")?;
        let iovs = self.concretize(s, iovs, "an fd_write iovec address")?;
        let count = self.concretize(s, iovs_len, "an fd_write iovec count")?;
        let nwritten = self.concretize(s, nwritten, "an fd_write result address")?;
        if fd != 1 && fd != 2 {
            return Ok(ERRNO_BADF);
        }
        let mut out = Vec::new();
        for i in 0..count {
            let base = self.read_u32(s, iovs + 8 * i)?;
            let len = self.read_u32(s, iovs + 8 * i + 4)?;
            for k in 0..u64::from(len) {
                out.push(self.read_byte(s, u64::from(base) + k)?);
            }
        }
        self.write_bytes(s, nwritten, &(out.len() as u32).to_le_bytes())?;
        s.output_mut(fd != 1).extend(out);
        Ok(0)
    }

    /// `args_sizes_get`, `environ_sizes_get`: none.
    fn sizes_get(&mut self, s: &mut State) -> Result<u32, End> {
        let size_ptr = s.pop();
        let count_ptr = s.pop();
        let size_ptr = self.concretize(s, size_ptr, "a WASI result address")?;
        let count_ptr = self.concretize(s, count_ptr, "a WASI result address")?;
        self.write_bytes(s, count_ptr, &[0; 4])?;
        self.write_bytes(s, size_ptr, &[0; 4])?;
        Ok(0)
    }

    /// `random_get`: fresh symbolic bytes, an input named `random`.
    fn random_get(&mut self, s: &mut State) -> Result<u32, End> {
        let len = s.pop();
        let ptr = s.pop();
        self.fresh_input_bytes(s, "random", ptr, len)?;
        Ok(0)
    }

    /// `fd_fdstat_get` of stdin, stdout or stderr: a character device.
    fn fd_fdstat_get(&mut self, s: &mut State) -> Result<u32, End> {
        let ptr = s.pop();
        let fd = s.pop();
        let fd = self.concretize(s, fd, "an fd_fdstat_get descriptor")?;
        let ptr = self.concretize(s, ptr, "a WASI result address")?;
        if fd > 2 {
            return Ok(ERRNO_BADF);
        }
        // A character device with no rights restrictions recorded.
        let mut stat = [0u8; 24];
        stat[0] = 2;
        self.write_bytes(s, ptr, &stat)?;
        Ok(0)
    }

    /// `clock_time_get`: time zero.
    fn clock_time_get(&mut self, s: &mut State) -> Result<u32, End> {
        let ptr = s.pop();
        s.pop();
        s.pop();
        let ptr = self.concretize(s, ptr, "a WASI result address")?;
        self.write_bytes(s, ptr, &[0; 8])?;
        Ok(0)
    }
}

/// Drops a call's `n` arguments; the call gives `errno`.
fn drop_args(s: &mut State, n: usize, errno: u32) -> u32 {
    for _ in 0..n {
        s.pop();
    }
    errno
}
