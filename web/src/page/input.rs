//! What the page explores: a module as WAT text or binary bytes (uploaded,
//! dropped, or pasted as base64 or hex), and the options form with its
//! validation.

use crate::run_options::RunOptions;
use base64::engine::general_purpose::GeneralPurpose;
use base64::engine::{DecodePaddingMode, GeneralPurposeConfig};
use base64::Engine;

use symplay_engine::exec::{
    MergeMode, MergeOptions, MAX_BUFFER, MAX_CALL_DEPTH, MAX_FRAMES, MAX_MERGED_STATES,
};
use symplay_engine::memory::options::{DEFAULT_CAPACITY, MAX_CONTEXT_DEPTH, MAX_OBJECT};
use symplay_engine::memory::{
    AaCacheMode, BaseMode, Contents, HeapOptions, Resolve, Segments, SizeMode, Split,
};
use symplay_engine::report::{param_name, BufferArg, OutcomeRules};
use symplay_engine::search::SearchKind;

/// A parameter kind: a value, or symbolic.
pub const VALUE: &str = "value";
/// A parameter kind: the address of a buffer of symbolic length.
pub const BUFFER: &str = "buffer";
/// Wasm functions have at most this many parameters.
const MAX_PARAMS: usize = 1000;
/// The capacity a parameter made a buffer starts with.
pub const DEFAULT_BUFFER: &str = "16";
/// What starts the kind of a parameter that is a buffer's length.
pub const LENGTH_OF: &str = "length:";

/// The memory limit a new page starts with.
pub const DEFAULT_MAX_MEMORY_MIB: u64 = 1024;

/// The time limit a new page starts with (60 s), shown in its field.
pub const DEFAULT_MAX_TIME_MS: u64 = 60_000;

/// The magic number that starts every binary module.
const WASM_MAGIC: &[u8] = b"\0asm";

/// The bytes of pasted base64 (standard or URL-safe, padded or not) or hex,
/// when they are a binary module. A paste cut anywhere still gives the
/// bytes before the cut, so that loading them says the module is cut short.
pub fn decode_pasted(text: &str) -> Option<Vec<u8>> {
    let compact: String = text.split_whitespace().collect();
    let hex = compact.strip_prefix("0x").unwrap_or(&compact);
    let bytes = decode_hex(hex)
        .or_else(|| decode_base64(&base64::alphabet::STANDARD, &compact))
        .or_else(|| decode_base64(&base64::alphabet::URL_SAFE, &compact))?;
    bytes.starts_with(WASM_MAGIC).then_some(bytes)
}

/// Hex digits, a last odd one (cut from its pair) left out.
fn decode_hex(text: &str) -> Option<Vec<u8>> {
    let whole = text.get(..text.len() & !1)?;
    if whole.is_empty() {
        return None;
    }
    (0..whole.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(whole.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Base64 of `alphabet`, with or without padding; a cut paste may end in
/// a character whose byte is incomplete: the bytes before it are kept.
fn decode_base64(alphabet: &base64::alphabet::Alphabet, text: &str) -> Option<Vec<u8>> {
    let lenient = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::Indifferent)
        .with_decode_allow_trailing_bits(true);
    let engine = GeneralPurpose::new(alphabet, lenient);
    engine.decode(text).ok().or_else(|| {
        let whole = text.get(..text.len() - text.len() % 4)?;
        engine.decode(whole).ok()
    })
}

/// The options form, as typed; `parse` checks it.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionFields {
    pub search: String,
    pub seed: String,
    /// Seconds, fractions allowed.
    pub max_time: String,
    pub max_paths: String,
    pub max_depth: String,
    pub max_instructions: String,
    /// Frames a path may have (the engine's default shown).
    pub max_call_depth: String,
    /// MiB of heap the worker uses.
    pub max_memory: String,
    /// A value per parameter of the entry; empty is a symbolic input. For
    /// a buffer parameter, its capacity.
    pub args: Vec<String>,
    /// What each parameter is: [`VALUE`] (the field's value, or symbolic),
    /// [`BUFFER`] (the address of a buffer of symbolic length, at most the
    /// field's capacity), or `length:J`, the length of parameter J's buffer.
    pub arg_kinds: Vec<String>,
    /// `objects` (memory objects replace the allocator) or `module` (its
    /// own allocator on flat memory).
    pub heap_model: String,
    /// `base`, `fork-eager` or `fork-lazy`.
    pub size_mode: String,
    /// Bytes reserved for an allocation of symbolic size.
    pub capacity: String,
    /// Checkboxes: `true` or `false`.
    pub malloc_may_fail: String,
    pub leaks: String,
    /// Sizes past the capacity get one more path.
    pub past_capacity: String,
    /// `per-object` or `whole`: which bytes a symbolic access's array holds.
    pub contents: String,
    /// Checkbox: large objects and regions are split into pieces.
    pub split: String,
    /// Bytes past which an object is split, and bytes in one piece.
    pub split_threshold: String,
    pub split_piece: String,
    /// `concrete` or `symbolic`: what a pointer to a heap object is.
    pub bases: String,
    /// `fork` or `segment`: how a pointer into several heap blocks is
    /// resolved, and the most bytes a segment spans.
    pub resolve: String,
    pub segment_cap: String,
    /// Callers an allocation context names, or `off`.
    pub segment_context: String,
    /// `off`, `on` or `check`: address-aware query caching.
    pub aa_cache: String,
    /// A symbolic `select` forks (`true`) or is one `ite` value.
    pub fork_selects: String,
    /// The most values a symbolic result splits into.
    pub result_values: String,
    /// An import the engine does not provide returns fresh inputs.
    pub havoc_imports: String,
    /// `none`, `cfg`, `sm` or `smopt`: which states merge at loop exits.
    pub merge: String,
    /// The most states one merge takes.
    pub merge_max_states: String,
    /// Checkbox: the solver checks each merge.
    pub validate_merge: String,
}

impl Default for OptionFields {
    fn default() -> Self {
        OptionFields::from_options(&RunOptions {
            search: SearchKind::default().name().into(),
            // A run that grows without end stops with its results before
            // the tab runs out of memory.
            max_memory_mib: Some(DEFAULT_MAX_MEMORY_MIB),
            // A run on a symbolic loop ends with its results, in time.
            max_time_ms: Some(DEFAULT_MAX_TIME_MS),
            ..RunOptions::default()
        })
    }
}

impl OptionFields {
    /// The form that shows `o` (a share link's options).
    pub fn from_options(o: &RunOptions) -> OptionFields {
        let text = |v: Option<u64>| v.map_or_else(String::new, |v| v.to_string());
        // A link may name any index: those no function has are left out
        // (the form has a field per parameter).
        let buffers = o
            .buffer_args
            .iter()
            .filter(|b| b.param < MAX_PARAMS && b.length_param.is_none_or(|l| l < MAX_PARAMS));
        let mut fields = OptionFields {
            search: o.search.clone(),
            seed: o.seed.to_string(),
            max_time: o
                .max_time_ms
                .map_or_else(String::new, |ms| (ms as f64 / 1000.0).to_string()),
            max_paths: text(o.max_paths),
            max_depth: text(o.max_depth.map(u64::from)),
            max_instructions: text(o.max_instructions),
            max_call_depth: o.max_call_depth.unwrap_or(MAX_FRAMES as u32).to_string(),
            max_memory: text(o.max_memory_mib),
            args: {
                let mut args: Vec<String> = o
                    .concrete_args
                    .iter()
                    .map(|v| v.map_or_else(String::new, |v| v.to_string()))
                    .collect();
                for b in buffers.clone() {
                    if args.len() <= b.param {
                        args.resize(b.param + 1, String::new());
                    }
                    args[b.param] = b.capacity.to_string();
                }
                args
            },
            arg_kinds: {
                let mut kinds = Vec::new();
                let mut set = |i: usize, kind: String| {
                    if kinds.len() <= i {
                        kinds.resize(i + 1, VALUE.to_string());
                    }
                    kinds[i] = kind;
                };
                for b in buffers {
                    set(b.param, BUFFER.into());
                    if let Some(l) = b.length_param {
                        set(l, format!("{LENGTH_OF}{}", b.param));
                    }
                }
                kinds
            },
            heap_model: if o.heap.objects { "objects" } else { "module" }.into(),
            size_mode: o.heap.size_mode.name().into(),
            capacity: o.heap.capacity.to_string(),
            malloc_may_fail: o.heap.malloc_may_fail.to_string(),
            leaks: o.heap.leaks.to_string(),
            past_capacity: o.heap.past_capacity.to_string(),
            contents: o.heap.contents.name().into(),
            split: o.heap.split.is_some().to_string(),
            split_threshold: o.heap.split.unwrap_or_default().threshold.to_string(),
            split_piece: o.heap.split.unwrap_or_default().piece.to_string(),
            bases: o.heap.bases.name().into(),
            resolve: match o.heap.segments {
                Some(_) => Resolve::Segment,
                None => Resolve::Fork,
            }
            .name()
            .into(),
            segment_cap: o.heap.segments.unwrap_or_default().cap.to_string(),
            segment_context: match o.heap.segments.unwrap_or_default().context_depth {
                Some(depth) => depth.to_string(),
                None => "off".into(),
            },
            aa_cache: o.heap.aa_cache.name().into(),
            fork_selects: o.outcomes.fork_selects.to_string(),
            result_values: o.outcomes.result_values.to_string(),
            havoc_imports: o.havoc_imports.to_string(),
            merge: o.merge.mode.name().into(),
            merge_max_states: o.merge.max_states.to_string(),
            validate_merge: o.merge.validate.to_string(),
        };
        // A field for each parameter with a kind (a length past the values).
        let count = fields.args.len().max(fields.arg_kinds.len());
        fields.fit_args(count);
        fields
    }

    /// One value field per parameter of an entry with `count` of them;
    /// those already there keep their text.
    pub fn fit_args(&mut self, count: usize) {
        self.args.resize(count, String::new());
        self.arg_kinds.resize(count, VALUE.to_string());
    }

    /// No parameter fields: every parameter symbolic.
    pub fn clear_args(&mut self) {
        self.args.clear();
        self.arg_kinds.clear();
    }

    /// Makes parameter `i` a value, a buffer or a buffer's length (the
    /// field's text, whose meaning changes, starts anew).
    pub fn set_arg_kind(&mut self, i: usize, kind: String) {
        if i >= self.args.len() {
            return;
        }
        self.fit_args(self.args.len());
        // A buffer no more: what was its length is a value again.
        if self.arg_kinds[i] == BUFFER && kind != BUFFER {
            let length = format!("{LENGTH_OF}{i}");
            for (k, text) in self.arg_kinds.iter_mut().zip(&mut self.args) {
                if *k == length {
                    *k = VALUE.to_string();
                    text.clear();
                }
            }
        }
        self.args[i] = if kind == BUFFER {
            DEFAULT_BUFFER.to_string()
        } else {
            String::new()
        };
        self.arg_kinds[i] = kind;
    }

    /// What parameter `i` is ([`VALUE`] past the kinds set).
    pub fn arg_kind(&self, i: usize) -> &str {
        self.arg_kinds.get(i).map_or(VALUE, String::as_str)
    }

    /// The field named by its element id (`seed`, `max-time`, ...).
    pub fn field_mut(&mut self, id: &str) -> Option<&mut String> {
        Some(match id {
            "search" => &mut self.search,
            "seed" => &mut self.seed,
            "max-time" => &mut self.max_time,
            "max-paths" => &mut self.max_paths,
            "max-depth" => &mut self.max_depth,
            "max-instructions" => &mut self.max_instructions,
            "max-call-depth" => &mut self.max_call_depth,
            "max-memory" => &mut self.max_memory,
            "heap-model" => &mut self.heap_model,
            "size-mode" => &mut self.size_mode,
            "capacity" => &mut self.capacity,
            "malloc-may-fail" => &mut self.malloc_may_fail,
            "leaks" => &mut self.leaks,
            "past-capacity" => &mut self.past_capacity,
            "contents" => &mut self.contents,
            "split" => &mut self.split,
            "split-threshold" => &mut self.split_threshold,
            "split-piece" => &mut self.split_piece,
            "bases" => &mut self.bases,
            "resolve" => &mut self.resolve,
            "segment-cap" => &mut self.segment_cap,
            "segment-context" => &mut self.segment_context,
            "aa-cache" => &mut self.aa_cache,
            "fork-selects" => &mut self.fork_selects,
            "result-values" => &mut self.result_values,
            "havoc-imports" => &mut self.havoc_imports,
            "merge" => &mut self.merge,
            "merge-max-states" => &mut self.merge_max_states,
            "validate-merge" => &mut self.validate_merge,
            _ => return None,
        })
    }

    /// The options, or what is wrong with the first bad field; a
    /// parameter is called by its name among `names` (the entry's).
    pub fn parse(&self, names: &[String]) -> Result<RunOptions, String> {
        let seed = match self.seed.trim() {
            "" => 0,
            text => text.parse().map_err(|_| {
                format!(
                    "the seed must be a whole number from 0 to {}, not `{text}`",
                    u64::MAX
                )
            })?,
        };
        let max_time_ms = match self.max_time.trim() {
            "" => None,
            text => {
                let seconds = text
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s <= 1e9)
                    .ok_or_else(|| {
                        format!("max time must be a positive number of seconds, not `{text}`")
                    })?;
                Some(((seconds * 1000.0).round() as u64).max(1))
            }
        };
        let max_depth = positive("max depth", &self.max_depth)?
            .map(|d| {
                u32::try_from(d).map_err(|_| format!("max depth must be at most {}", u32::MAX))
            })
            .transpose()?;
        // The engine's default is no option of its own: links stay short.
        let max_call_depth = positive("max call depth", &self.max_call_depth)?
            .map(|d| {
                u32::try_from(d)
                    .ok()
                    .filter(|&d| d as usize <= MAX_CALL_DEPTH)
                    .ok_or_else(|| {
                        format!("max call depth must be at most {MAX_CALL_DEPTH} frames")
                    })
            })
            .transpose()?
            .filter(|&d| d as usize != MAX_FRAMES);
        let mut concrete_args = Vec::new();
        let mut buffer_args: Vec<BufferArg> = Vec::new();
        for (i, text) in self.args.iter().enumerate() {
            let kind = self.arg_kind(i);
            let name = param_name(names, i);
            concrete_args.push(if kind == VALUE {
                integer(&name, text)?
            } else {
                None
            });
            if kind == BUFFER {
                let capacity = text
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|c| (1..=MAX_BUFFER).contains(c))
                    .ok_or_else(|| {
                        format!(
                            "the capacity of {name}'s buffer must be 1 to {MAX_BUFFER} bytes, not `{}`",
                            text.trim()
                        )
                    })?;
                buffer_args.push(BufferArg {
                    param: i,
                    capacity,
                    length_param: None,
                });
            }
        }
        for (i, kind) in self.arg_kinds.iter().enumerate().take(self.args.len()) {
            let Some(of) = kind.strip_prefix(LENGTH_OF) else {
                continue;
            };
            let of = of.parse::<usize>().ok();
            let name = |j: usize| param_name(names, j);
            let buffer = of
                .and_then(|j| buffer_args.iter_mut().find(|b| b.param == j))
                .ok_or_else(|| {
                    // A kind no field offers names no parameter.
                    let of = of.map_or_else(|| "no parameter".to_string(), name);
                    format!("{} is the length of {of}, which is not a buffer", name(i))
                })?;
            if let Some(other) = buffer.length_param.replace(i) {
                return Err(format!(
                    "{}'s buffer has two lengths: {} and {}",
                    name(buffer.param),
                    name(other),
                    name(i)
                ));
            }
        } // All symbolic from some index on: no values written for those.
        while concrete_args.last() == Some(&None) {
            concrete_args.pop();
        }
        let capacity = positive("capacity", &self.capacity)?
            .map(|c| {
                u32::try_from(c)
                    .ok()
                    .filter(|&c| c <= MAX_OBJECT)
                    .ok_or_else(|| format!("capacity must be at most {MAX_OBJECT} bytes"))
            })
            .transpose()?
            .unwrap_or(DEFAULT_CAPACITY);
        let objects = self.heap_model != "module";
        let segments = self.segments()?.filter(|_| objects);
        let aa_cache = match self.aa_cache.parse::<AaCacheMode>()? {
            _ if !objects => AaCacheMode::Off,
            mode => mode,
        };
        let heap = HeapOptions {
            objects,
            size_mode: self.size_mode.parse::<SizeMode>()?,
            capacity,
            malloc_may_fail: self.malloc_may_fail == "true",
            leaks: self.leaks == "true",
            past_capacity: self.past_capacity == "true",
            contents: self.contents.parse::<Contents>()?,
            split: self.split()?,
            // The module's allocator returns numbers: the (disabled) choice
            // of pointers does not apply; segments move blocks, whose
            // pointers must be terms, and address-aware caching keys on
            // those terms.
            bases: match self.bases.parse::<BaseMode>()? {
                _ if !objects => BaseMode::Concrete,
                _ if segments.is_some() || !aa_cache.is_off() => BaseMode::Symbolic,
                bases => bases,
            },
            segments,
            aa_cache,
        };
        Ok(RunOptions {
            search: self.search.clone(),
            seed,
            max_time_ms,
            max_paths: positive("max paths", &self.max_paths)?,
            max_depth,
            max_instructions: positive("max instructions", &self.max_instructions)?,
            max_memory_mib: positive("max memory", &self.max_memory)?,
            concrete_args,
            buffer_args,
            heap,
            outcomes: OutcomeRules {
                fork_selects: self.fork_selects == "true",
                result_values: result_values(&self.result_values)?,
            },
            max_call_depth,
            havoc_imports: self.havoc_imports == "true",
            merge: self.merge()?,
        })
    }
}

impl OptionFields {
    /// How objects are split, when they are: a field left empty takes
    /// the engine's default.
    fn split(&self) -> Result<Option<Split>, String> {
        if self.split != "true" {
            return Ok(None);
        }
        let default = Split::default();
        Ok(Some(Split {
            threshold: bytes("split threshold", &self.split_threshold, default.threshold)?,
            piece: bytes("piece size", &self.split_piece, default.piece)?,
        }))
    }

    /// How states merge at loop exits; validation only where they merge.
    fn merge(&self) -> Result<MergeOptions, String> {
        let mode = MergeMode::parse(&self.merge)
            .ok_or_else(|| format!("unknown merge mode `{}`", self.merge))?;
        let max_states = positive("merge max states", &self.merge_max_states)?
            .map_or(MAX_MERGED_STATES, |n| {
                n.min(MAX_MERGED_STATES as u64) as usize
            });
        Ok(MergeOptions {
            mode,
            max_states,
            validate: self.validate_merge == "true" && mode != MergeMode::None,
        })
    }

    /// The segments of `--resolve segment`, when chosen.
    fn segments(&self) -> Result<Option<Segments>, String> {
        match self.resolve.parse::<Resolve>()? {
            Resolve::Fork => Ok(None),
            Resolve::Segment => Ok(Some(Segments {
                cap: bytes("segment cap", &self.segment_cap, Segments::default().cap)?,
                context_depth: context_depth(&self.segment_context)?,
            })),
        }
    }
}

/// The most values a symbolic result splits into, as typed: nothing is
/// the default.
fn result_values(text: &str) -> Result<u32, String> {
    let max = OutcomeRules::MAX_RESULT_VALUES;
    match text.trim() {
        "" => Ok(OutcomeRules::RESULT_VALUES),
        text => text
            .parse::<u32>()
            .ok()
            .filter(|&n| n <= max)
            .ok_or_else(|| {
                format!("result values must be a whole number from 0 to {max}, not `{text}`")
            }),
    }
}

/// The callers an allocation context names, as typed: `off`, or a number
/// up to [`MAX_CONTEXT_DEPTH`]; nothing is the default.
fn context_depth(text: &str) -> Result<Option<u32>, String> {
    match text.trim() {
        "" => Ok(Segments::default().context_depth),
        "off" => Ok(None),
        depth => depth
            .parse()
            .ok()
            .filter(|&d| d <= MAX_CONTEXT_DEPTH)
            .map(Some)
            .ok_or_else(|| {
                format!(
                    "allocation contexts must be a number of callers up to {MAX_CONTEXT_DEPTH}, or `off`, not `{depth}`"
                )
            }),
    }
}

/// A count of bytes typed in `text`, at most what linear memory holds;
/// `default` when left empty.
fn bytes(name: &str, text: &str, default: u32) -> Result<u32, String> {
    positive(name, text)?
        .map(|n| {
            u32::try_from(n)
                .ok()
                .filter(|&n| n <= MAX_OBJECT)
                .ok_or_else(|| {
                    format!(
                        "{name} must be at most {MAX_OBJECT} bytes, not `{}`",
                        text.trim()
                    )
                })
        })
        .transpose()
        .map(|n| n.unwrap_or(default))
}

/// The value of parameter `name` as typed: decimal or `0x` hex, or nothing.
fn integer(name: &str, text: &str) -> Result<Option<i64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let magnitude = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i128::from_str_radix(hex, 16),
        None => digits.parse::<i128>(),
    };
    magnitude
        .ok()
        .map(|m| if negative { -m } else { m })
        .and_then(|v| i64::try_from(v).ok())
        .map(Some)
        .ok_or_else(|| {
            format!("{name} must be a whole number (or empty for a symbolic input), not `{text}`")
        })
}

fn positive(name: &str, text: &str) -> Result<Option<u64>, String> {
    match text.trim() {
        "" => Ok(None),
        text => text
            .parse::<u64>()
            .ok()
            .filter(|&n| n > 0)
            .map(Some)
            .ok_or_else(|| format!("{name} must be a positive whole number, not `{text}`")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MODULE: &[u8] = b"\0asm\x01\0\0\0";

    #[test]
    fn pasted_base64_and_hex_modules_are_read() {
        for text in [
            "AGFzbQEAAAA=",
            "AGFzbQEAAAA",
            "  AGFz\nbQEAAAA=  ",
            "0061736d01000000",
            "0x0061736D01000000",
            "00 61 73 6d\n01 00 00 00",
        ] {
            assert_eq!(decode_pasted(text).as_deref(), Some(MODULE), "{text}");
        }
    }

    /// A paste cut anywhere is a module cut short, not text.
    #[test]
    fn a_cut_paste_is_still_read_as_the_module_it_starts() {
        let module = b"\0asm\x01\0\0\0\x01\x04\x01\x60\0\0";
        use base64::Engine;
        let base64 = base64::engine::general_purpose::STANDARD_NO_PAD.encode(module);
        let hex: String = module.iter().map(|b| format!("{b:02x}")).collect();
        for text in [&base64, &hex] {
            for cut in 8..text.len() {
                let bytes =
                    decode_pasted(&text[..cut]).unwrap_or_else(|| panic!("{text} at {cut}"));
                assert!(module.starts_with(&bytes), "{text} at {cut}: {bytes:?}");
                assert!(bytes.len() * 2 + 2 >= cut, "{text} at {cut}: {bytes:?}");
            }
        }
    }

    #[test]
    fn other_text_stays_text() {
        for text in ["(module)", "", "deadbeef", "aGVsbG8=", "0061736"] {
            assert_eq!(decode_pasted(text), None, "{text}");
        }
    }

    #[test]
    fn options_parse_and_show_back() {
        let fields = OptionFields {
            search: "bfs".into(),
            seed: " 7 ".into(),
            max_time: "1.5".into(),
            max_paths: "10".into(),
            max_depth: "".into(),
            max_instructions: "100000".into(),
            max_call_depth: "3000".into(),
            max_memory: "".into(),
            args: vec!["".into(), "-3".into(), "0x10".into(), "".into()],
            arg_kinds: Vec::new(),
            heap_model: "objects".into(),
            size_mode: "base".into(),
            capacity: "12".into(),
            malloc_may_fail: "true".into(),
            leaks: "false".into(),
            past_capacity: "false".into(),
            contents: "per-object".into(),
            split: "true".into(),
            split_threshold: "256".into(),
            split_piece: "".into(),
            bases: "concrete".into(),
            resolve: "segment".into(),
            segment_cap: " 512".into(),
            segment_context: "2".into(),
            aa_cache: "check".into(),
            fork_selects: "false".into(),
            result_values: " 5".into(),
            havoc_imports: "true".into(),
            merge: "smopt".into(),
            merge_max_states: " 50".into(),
            validate_merge: "true".into(),
        };
        let options = fields.parse(&[]).unwrap();
        assert_eq!(
            options,
            RunOptions {
                search: "bfs".into(),
                seed: 7,
                max_time_ms: Some(1500),
                max_paths: Some(10),
                max_depth: None,
                max_instructions: Some(100_000),
                max_memory_mib: None,
                concrete_args: vec![None, Some(-3), Some(16)],
                buffer_args: Vec::new(),
                heap: HeapOptions {
                    objects: true,
                    size_mode: SizeMode::Base,
                    capacity: 12,
                    malloc_may_fail: true,
                    leaks: false,
                    past_capacity: false,
                    contents: Contents::PerObject,
                    split: Some(Split {
                        threshold: 256,
                        piece: 128,
                    }),
                    // Segments move blocks: their pointers are symbolic.
                    bases: BaseMode::Symbolic,
                    segments: Some(Segments {
                        cap: 512,
                        context_depth: Some(2),
                    }),
                    aa_cache: AaCacheMode::Check,
                },
                outcomes: OutcomeRules {
                    fork_selects: false,
                    result_values: 5,
                },
                max_call_depth: Some(3000),
                havoc_imports: true,
                merge: MergeOptions {
                    mode: MergeMode::SmOpt,
                    max_states: 50,
                    validate: true,
                },
            }
        );
        assert_eq!(OptionFields::from_options(&options).parse(&[]), Ok(options));
        for (text, error) in [
            ("", None),
            ("0", None),
            (
                "1025",
                Some("result values must be a whole number from 0 to 1024, not `1025`"),
            ),
            (
                "-1",
                Some("result values must be a whole number from 0 to 1024, not `-1`"),
            ),
        ] {
            let fields = OptionFields {
                result_values: text.into(),
                ..fields.clone()
            };
            assert_eq!(fields.parse(&[]).err().as_deref(), error, "{text}");
        }
        let default = OptionFields::default().parse(&[]).unwrap();
        assert_eq!(default.search, "random-path+coverage-new");
        assert_eq!(default.max_memory_mib, Some(DEFAULT_MAX_MEMORY_MIB));
        assert_eq!(default.max_time_ms, Some(DEFAULT_MAX_TIME_MS));
        assert_eq!(OptionFields::default().max_time, "60");
        assert_eq!(default.heap, HeapOptions::default());
        // The engine's call-depth limit shows in its field and is no option.
        assert_eq!(OptionFields::default().max_call_depth, "1024");
        assert_eq!(
            (default.max_call_depth, default.havoc_imports),
            (None, false)
        );
        for (text, error) in [
            ("1024", None),
            ("", None),
            (
                "0",
                Some("max call depth must be a positive whole number, not `0`"),
            ),
            (
                "100001",
                Some("max call depth must be at most 100000 frames"),
            ),
        ] {
            let fields = OptionFields {
                max_call_depth: text.into(),
                ..OptionFields::default()
            };
            let parsed = fields.parse(&[]);
            assert_eq!(parsed.as_ref().err().map(String::as_str), error, "{text}");
            assert_eq!(parsed.ok().and_then(|o| o.max_call_depth), None, "{text}");
        }
    }

    #[test]
    fn bad_options_are_named() {
        let cases = [
            ("size-mode", "lazy", "unknown size mode `lazy`"),
            ("contents", "flat", "unknown contents `flat`"),
            ("bases", "moving", "unknown bases `moving`"),
            ("resolve", "merge", "unknown resolution `merge`"),
            ("merge", "pattern", "unknown merge mode `pattern`"),
            (
                "merge-max-states",
                "0",
                "merge max states must be a positive whole number, not `0`",
            ),
            (
                "aa-cache",
                "always",
                "unknown address-aware cache mode `always`",
            ),
            (
                "split-piece",
                "0",
                "piece size must be a positive whole number, not `0`",
            ),
            (
                "split-threshold",
                "5000000000",
                "split threshold must be at most 2147483648 bytes, not `5000000000`",
            ),
            (
                "segment-cap",
                "0",
                "segment cap must be a positive whole number, not `0`",
            ),
            (
                "segment-context",
                "17",
                "allocation contexts must be a number of callers up to 16, or `off`, not `17`",
            ),
            ("capacity", "0", "capacity must be"),
            (
                "capacity",
                "4294967296",
                "capacity must be at most 2147483648 bytes",
            ),
            ("seed", "-1", "the seed must be a whole number"),
            ("max-time", "0", "max time must be a positive number"),
            ("max-time", "soon", "not `soon`"),
            (
                "max-paths",
                "0",
                "max paths must be a positive whole number",
            ),
            ("max-depth", "5000000000", "max depth must be at most"),
            ("max-instructions", "1e6", "max instructions must be"),
            (
                "max-memory",
                "0",
                "max memory must be a positive whole number",
            ),
        ];
        for (id, text, message) in cases {
            // The split's sizes are read when it is on, the segments' cap
            // when they are.
            let mut fields = OptionFields {
                split: "true".into(),
                resolve: "segment".into(),
                ..OptionFields::default()
            };
            *fields.field_mut(id).unwrap() = text.into();
            let err = fields.parse(&[]).unwrap_err();
            assert!(err.contains(message), "{id}: {err}");
        }
        assert_eq!(OptionFields::default().field_mut("nope"), None);
        for (text, message) in [
            (
                "ten",
                "arg1 must be a whole number (or empty for a symbolic input), not `ten`",
            ),
            ("0x", "not `0x`"),
            ("9223372036854775808", "not `9223372036854775808`"),
        ] {
            let mut fields = OptionFields::default();
            fields.fit_args(2);
            fields.args[1] = text.into();
            let err = fields.parse(&[]).unwrap_err();
            assert!(
                err.starts_with("arg1 must be") && err.ends_with(message),
                "{err}"
            );
        }
    }

    #[test]
    fn a_buffer_parameter_and_its_length_parse_and_show_back() {
        let mut fields = OptionFields::default();
        fields.fit_args(3);
        fields.arg_kinds[1] = BUFFER.into();
        fields.args[1] = "16".into();
        fields.arg_kinds[2] = format!("{LENGTH_OF}1");
        fields.args[0] = "5".into();
        let options = fields.parse(&[]).unwrap();
        assert_eq!(options.concrete_args, [Some(5)]);
        assert_eq!(
            options.buffer_args,
            [BufferArg {
                param: 1,
                capacity: 16,
                length_param: Some(2),
            }]
        );
        let shown = OptionFields::from_options(&options);
        assert_eq!(shown.args, ["5", "16", ""]);
        assert_eq!(shown.arg_kinds, ["value", "buffer", "length:1"]);
        assert_eq!(shown.parse(&[]), Ok(options));
        // Bad combinations are named.
        for (kinds, args, message) in [
            (
                ["buffer", "value"],
                ["", ""],
                "the capacity of arg0's buffer must be 1 to",
            ),
            (
                ["buffer", "value"],
                ["0", ""],
                "the capacity of arg0's buffer must be",
            ),
            (
                ["buffer", "value"],
                ["lots", ""],
                "the capacity of arg0's buffer must be",
            ),
            (
                ["value", "length:0"],
                ["", ""],
                "arg1 is the length of arg0, which is not a buffer",
            ),
            (
                ["value", "length:x"],
                ["", ""],
                "arg1 is the length of no parameter, which is not a buffer",
            ),
        ] {
            let mut fields = OptionFields::default();
            fields.fit_args(2);
            fields.arg_kinds = kinds.map(String::from).to_vec();
            fields.args = args.map(String::from).to_vec();
            let err = fields.parse(&[]).unwrap_err();
            assert!(err.contains(message), "{err}");
        }
        // A buffer made a value again frees its length.
        let mut fields = OptionFields::default();
        fields.fit_args(2);
        fields.set_arg_kind(0, BUFFER.into());
        fields.set_arg_kind(1, format!("{LENGTH_OF}0"));
        fields.set_arg_kind(0, VALUE.into());
        assert_eq!(fields.arg_kinds, ["value", "value"]);
        assert_eq!(fields.parse(&[]).unwrap().buffer_args, []);
        // A link's indices past any function's parameters are left out.
        let options = RunOptions {
            buffer_args: vec![
                BufferArg {
                    param: usize::MAX,
                    capacity: 8,
                    length_param: None,
                },
                BufferArg {
                    param: 0,
                    capacity: 8,
                    length_param: Some(100_000_000),
                },
            ],
            ..RunOptions::default()
        };
        assert!(OptionFields::from_options(&options).args.is_empty());
        let mut fields = OptionFields::default();
        fields.fit_args(3);
        fields.arg_kinds = vec!["buffer".into(), "length:0".into(), "length:0".into()];
        fields.args[0] = "8".into();
        assert_eq!(
            fields.parse(&[]).unwrap_err(),
            "arg0's buffer has two lengths: arg1 and arg2"
        );
    }

    #[test]
    fn parameters_are_called_by_their_names() {
        let names = ["text".to_string(), "len".to_string()];
        let mut fields = OptionFields::default();
        fields.fit_args(3);
        fields.args[1] = "ten".into();
        let err = fields.parse(&names).unwrap_err();
        assert!(err.starts_with("len must be a whole number"), "{err}");
        // Past the names given, a parameter is `arg{i}`.
        fields.args[1].clear();
        fields.args[2] = "ten".into();
        let err = fields.parse(&names).unwrap_err();
        assert!(err.starts_with("arg2 must be a whole number"), "{err}");
        fields.arg_kinds = vec![BUFFER.into(), "length:0".into(), "length:0".into()];
        fields.args = vec!["0".into(), "".into(), "".into()];
        let err = fields.parse(&names).unwrap_err();
        assert!(
            err.starts_with("the capacity of text's buffer must be"),
            "{err}"
        );
        fields.args[0] = "8".into();
        assert_eq!(
            fields.parse(&names).unwrap_err(),
            "text's buffer has two lengths: len and arg2"
        );
    }

    #[test]
    fn parameter_fields_follow_the_entry() {
        let mut fields = OptionFields::default();
        fields.fit_args(2);
        assert_eq!(fields.parse(&[]).unwrap().concrete_args, []);
        fields.args[0] = "-9223372036854775808".into();
        assert_eq!(fields.parse(&[]).unwrap().concrete_args, [Some(i64::MIN)]);
        fields.fit_args(3);
        assert_eq!(fields.args, ["-9223372036854775808", "", ""]);
        fields.fit_args(0);
        assert_eq!(fields.parse(&[]).unwrap().concrete_args, []);
    }
}
