//! The heap-model options `explore` and `replay` share, and the text
//! drawing of a path's memory (`--show-memory`).

use clap::Args;
use symplay_engine::memory::{AaCacheMode, BaseMode, Contents, HeapOptions, Resolve, SizeMode};
use symplay_engine::report::{segments_of, PathReport};

#[derive(Args, Default)]
pub struct HeapArgs {
    /// Run the module's own allocator on flat memory instead of memory
    /// objects (no heap checks).
    #[arg(long)]
    keep_allocator: bool,
    /// How an allocation of symbolic size is made: base (its largest
    /// size), fork-eager (a path per size) or fork-lazy (one symbolic size;
    /// the default).
    #[arg(long, value_name = "MODE")]
    size_mode: Option<String>,
    /// Bytes reserved for an allocation of symbolic size (default 100).
    #[arg(long, value_name = "BYTES")]
    capacity: Option<u32>,
    /// Every allocation may fail: a path where it returns NULL too.
    #[arg(long)]
    malloc_may_fail: bool,
    /// Do not report heap blocks still allocated when the entry returns.
    #[arg(long)]
    no_leaks: bool,
    /// Leave out sizes past the capacity (else one more path takes the
    /// largest of them, up to 1 MiB), as the seed's model does.
    #[arg(long)]
    no_past_capacity: bool,
    /// Which bytes the array of a symbolic read or write holds: per-object
    /// (the bytes it can reach in the object it resolved into; the
    /// default) or whole (all of linear memory, the baseline).
    #[arg(long, value_name = "CONTENTS")]
    contents: Option<String>,
    /// Split objects and regions (data, stack) larger than the threshold
    /// into pieces for reads and writes at symbolic offsets: the access
    /// forks over the pieces it can start in, and each reads an array of
    /// its piece's bytes only (smaller formulas, more paths).
    #[arg(long)]
    split: bool,
    /// Objects and regions larger than this are split (default 300;
    /// implies --split).
    #[arg(long, value_name = "BYTES")]
    split_threshold: Option<u32>,
    /// Bytes in one piece of a split object (default 128; implies
    /// --split).
    #[arg(long, value_name = "BYTES")]
    split_piece: Option<u32>,
    /// What a pointer to a heap block is: concrete (its address; the
    /// default) or symbolic (a term over the block's base symbol, &obj3,
    /// whose hidden address the memory model keeps apart from the path
    /// condition, so that a block can move without a term changing; the
    /// hidden addresses lie in an arena from 0x40000000, memory.size never
    /// grows for them, and a freed block's slot is taken again).
    #[arg(long, value_name = "BASES")]
    bases: Option<String>,
    /// How an access through a pointer that may point into several heap
    /// blocks is resolved: fork (a path per block; the default) or
    /// segment (the blocks are moved next to each other into one segment,
    /// which the access reads as one array; implies --bases symbolic).
    #[arg(long, value_name = "HOW")]
    resolve: Option<String>,
    /// The most bytes a segment spans (default 2048; past it the access
    /// forks per block; implies --resolve segment).
    #[arg(long, value_name = "BYTES")]
    segment_cap: Option<u32>,
    /// Context-based resolution under segments: an access first asks
    /// only the blocks allocated where the blocks it met before were
    /// (their allocation site and K callers above it, allocator wrappers
    /// such as Rust's RawVec skipped) and, when the path allows one, once
    /// whether the pointer can land elsewhere; off asks each block the
    /// pointer may reach (default 4; implies --resolve segment).
    #[arg(long, value_name = "K|off")]
    segment_context: Option<String>,
    /// Address-aware query caching: a branch's query is also known by its
    /// form over the blocks' base symbols, so that queries that differ
    /// only by where blocks lie (two paths that allocated differently
    /// before) share an answer; a query where an address can change the
    /// answer is asked as usual. `check` asks every answer it gives of the
    /// solver again and counts disagreements (implies --bases symbolic).
    #[arg(long, value_name = "on|check|off", num_args = 0..=1, default_missing_value = "on")]
    aa_cache: Option<String>,
}

impl HeapArgs {
    /// `base` with what these arguments change.
    pub fn options(&self, base: HeapOptions) -> Result<HeapOptions, String> {
        let mut heap = base;
        if self.keep_allocator {
            heap.objects = false;
        }
        if let Some(mode) = &self.size_mode {
            heap.size_mode = mode.parse::<SizeMode>()?;
        }
        if let Some(capacity) = self.capacity {
            heap.capacity = capacity;
        }
        heap.malloc_may_fail |= self.malloc_may_fail;
        if self.no_leaks {
            heap.leaks = false;
        }
        if self.no_past_capacity {
            heap.past_capacity = false;
        }
        if let Some(contents) = &self.contents {
            heap.contents = contents.parse::<Contents>()?;
        }
        if self.split || self.split_threshold.is_some() || self.split_piece.is_some() {
            let mut split = heap.split.unwrap_or_default();
            split.threshold = self.split_threshold.unwrap_or(split.threshold);
            split.piece = self.split_piece.unwrap_or(split.piece);
            heap.split = Some(split);
        }
        if let Some(bases) = &self.bases {
            heap.bases = bases.parse::<BaseMode>()?;
        }
        let resolve = self.resolve.as_deref().map(str::parse).transpose()?;
        let context = self
            .segment_context
            .as_deref()
            .map(context_depth)
            .transpose()?;
        let tuned = self.segment_cap.is_some() || context.is_some();
        match (resolve, tuned) {
            (Some(Resolve::Fork), true) => {
                let option = if self.segment_cap.is_some() {
                    "--segment-cap"
                } else {
                    "--segment-context"
                };
                return Err(format!("{option} needs --resolve segment, not fork"));
            }
            (Some(Resolve::Fork), false) => heap.segments = None,
            (Some(Resolve::Segment), _) | (None, true) => {
                let mut segments = heap.segments.unwrap_or_default();
                segments.cap = self.segment_cap.unwrap_or(segments.cap);
                segments.context_depth = context.unwrap_or(segments.context_depth);
                heap.segments = Some(segments);
                if self.bases.is_none() {
                    heap.bases = BaseMode::Symbolic;
                }
            }
            (None, false) => {}
        }
        if let Some(mode) = &self.aa_cache {
            heap.aa_cache = mode.parse::<AaCacheMode>()?;
            if self.bases.is_none() && !heap.aa_cache.is_off() {
                heap.bases = BaseMode::Symbolic;
            }
        }
        Ok(heap)
    }
}

/// `--segment-context`: a number of callers, or `off`.
fn context_depth(text: &str) -> Result<Option<u32>, String> {
    if text == "off" {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|_| format!("--segment-context takes a number of callers or `off`, not `{text}`"))
}

/// Width of the drawing of one object, in characters.
const BAR: u64 = 48;

/// The objects of a path, one per line, and for a memory error its object
/// drawn with the access on it:
///
/// ```text
///   #0 heap block 0x20010: 8 bytes (capacity 8), live, allocated at f+0x12 (x.c:5)
///      [########]^
///                └ write of 1 byte at offset 8
/// ```
///
/// Under `--bases symbolic` a block is named by its base symbol too:
/// `#0 heap block &obj0 = 0x20010`; under `--resolve segment` each
/// segment the blocks were moved into has a line after them.
pub fn show_memory(p: &PathReport) -> String {
    let mut text = String::new();
    for o in &p.objects {
        let what = match (&o.name, o.is_variable()) {
            (Some(name), true) => format!("{} {name}", o.kind),
            (Some(name), false) => format!("input {name}"),
            (None, _) => "heap block".into(),
        };
        let (size, state) = (o.size_text(), o.state_text(p));
        let origin = if o.is_variable() {
            o.origin_text()
        } else {
            format!("allocated at {}", o.origin_text())
        };
        let pieces = o
            .pieces
            .map_or(String::new(), |n| format!(" in {n} pieces"));
        let beta = o
            .base_symbol
            .as_ref()
            .map_or(String::new(), |beta| format!("{beta} = "));
        text.push_str(&format!(
            "  #{} {what} {beta}0x{:x}: {size} bytes (capacity {}{pieces}), {state}, {origin}\n",
            o.id, o.base, o.capacity
        ));
        let Some(e) = p.memory_error.as_ref().filter(|e| e.object == Some(o.id)) else {
            continue;
        };
        let Some(offset) = e.offset else { continue };
        // One character per byte up to BAR bytes, else scaled.
        let span = o.capacity.max(1);
        let scale = span.div_ceil(BAR).max(1);
        let cells = span.div_ceil(scale);
        let valid = o.size.div_ceil(scale);
        let column = |off: i64| -> usize {
            // The access may lie in the gap before or after the object.
            (off.clamp(-1, cells as i64 * scale as i64) / scale as i64 + 1) as usize
        };
        let mut bar = String::from("[");
        for c in 0..cells {
            bar.push(if c < valid { '#' } else { '.' });
        }
        bar.push(']');
        let at = column(offset) + 5;
        text.push_str(&format!(
            "     {bar}\n{}^ {}\n",
            " ".repeat(at),
            e.access_at_offset()
        ));
    }
    for segment in segments_of(&p.objects) {
        text.push_str(&format!("  {}\n", segment.describe()));
    }
    text
}
