//! Share links: the page's whole state (module, entry, options with the
//! seed) as JSON, deflated and base64url-encoded into the URL fragment
//! `#share=...`. The format is documented in `docs/share-links.md`.

use crate::run_options::RunOptions;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use miniz_oxide::inflate::TINFLStatus;
use serde::{Deserialize, Serialize};

/// The format version this page writes and reads.
pub const VERSION: u32 = 1;
/// The longest fragment accepted or produced, in bytes: links this long
/// still open in the major browsers.
pub const MAX_FRAGMENT: usize = 512 * 1024;
/// Inflated JSON is bounded too, so a small link cannot expand without end.
const MAX_INFLATED: usize = 16 * 1024 * 1024;
/// What starts a share link's fragment.
const PREFIX: &str = "share=";

/// The module a link or the saved work holds, as it came in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Text(String),
    /// Kept as bytes: there is no disassembly to show yet.
    Binary(#[serde(with = "crate::base64_bytes")] Vec<u8>),
}

impl Source {
    /// The bytes the worker loads (it tells WAT text from binary itself).
    pub fn bytes(&self) -> &[u8] {
        match self {
            Source::Text(text) => text.as_bytes(),
            Source::Binary(bytes) => bytes,
        }
    }
}

/// What a share link holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shared {
    pub source: Source,
    /// The gallery example the module is, unedited.
    pub example: Option<String>,
    pub entry: String,
    pub options: RunOptions,
    /// Compare mode's second configuration (B), when on.
    pub compare: Option<RunOptions>,
}

/// The JSON form: a WAT module as text, a binary one as standard base64.
#[derive(Serialize, Deserialize)]
struct Wire {
    version: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wat: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wasm: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    example: Option<String>,
    entry: String,
    options: RunOptions,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    compare: Option<RunOptions>,
}

/// Encodes the state as a fragment (without `#`), or says why it cannot.
pub fn encode(shared: &Shared) -> Result<String, String> {
    let json = to_json(shared)?;
    let fragment = format!(
        "{PREFIX}{}",
        URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9))
    );
    if fragment.len() > MAX_FRAGMENT {
        return Err(too_long(fragment.len()));
    }
    Ok(fragment)
}

/// The state as the JSON a link carries (and the page saves as it is).
pub fn to_json(shared: &Shared) -> Result<String, String> {
    let (wat, wasm) = match &shared.source {
        Source::Text(text) => (Some(text.clone()), None),
        Source::Binary(bytes) => (None, Some(STANDARD.encode(bytes))),
    };
    let wire = Wire {
        version: VERSION,
        wat,
        wasm,
        example: shared.example.clone(),
        entry: shared.entry.clone(),
        options: shared.options.clone(),
        compare: shared.compare.clone(),
    };
    serde_json::to_string(&wire).map_err(|e| format!("cannot encode the state: {e}"))
}

/// Whether a fragment (with or without `#`) is a share link's.
pub fn is_link(fragment: &str) -> bool {
    fragment
        .strip_prefix('#')
        .unwrap_or(fragment)
        .starts_with(PREFIX)
}

/// Decodes a fragment (with or without `#`): `None` when it is no share
/// link at all, else the state or a message for the reader.
pub fn decode(fragment: &str) -> Option<Result<Shared, String>> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let payload = fragment.strip_prefix(PREFIX)?;
    Some(decode_payload(fragment.len(), payload))
}

fn too_long(len: usize) -> String {
    format!(
        "the share link is too long: {} KiB, over the cap of {} KiB",
        len.div_ceil(1024),
        MAX_FRAGMENT / 1024
    )
}

/// What is wrong with a link's text, in the words of someone who copied it.
fn base64_damage(e: &base64::DecodeError) -> String {
    match e {
        base64::DecodeError::InvalidByte(at, byte) => format!(
            "it holds `{}` at character {} after `#share=`, which no link made by Share holds (was it changed when copied?)",
            (*byte as char).escape_default(),
            at + 1
        ),
        _ => "it ends in the middle of its data (was it cut short when copied?)".into(),
    }
}

fn decode_payload(len: usize, payload: &str) -> Result<Shared, String> {
    if len > MAX_FRAGMENT {
        return Err(too_long(len));
    }
    let broken = |what: String| format!("the share link is damaged: {what}");
    let deflated = URL_SAFE_NO_PAD
        .decode(payload.trim_end_matches('='))
        .map_err(|e| broken(base64_damage(&e)))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED)
        .map_err(|e| match e.status {
            TINFLStatus::HasMoreOutput => format!(
                "the share link is refused: it expands to more than {} MiB (from {} KiB)",
                MAX_INFLATED >> 20,
                len.div_ceil(1024)
            ),
            _ => broken("its data ends or changes where it should not (was it cut short or changed when copied?)".into()),
        })?;
    from_json(&json).map_err(|e| match e {
        Unreadable::Damaged(what) => broken(what),
        Unreadable::Newer(message) => message,
    })
}

/// Why a state's JSON cannot be read.
#[derive(Debug, PartialEq)]
pub enum Unreadable {
    /// What is wrong with it.
    Damaged(String),
    /// It is of another format version: the message that says so.
    Newer(String),
}

/// What is wrong, or the message about the version.
impl std::fmt::Display for Unreadable {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Unreadable::Damaged(why) | Unreadable::Newer(why) => f.write_str(why),
        }
    }
}

/// Reads the state from the JSON a link carries.
pub fn from_json(json: &[u8]) -> Result<Shared, Unreadable> {
    let broken = Unreadable::Damaged;
    // The version is read first, so a newer link gets a message that says so
    // rather than an error about one of its fields.
    let value: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| broken(format!("bad JSON ({e})")))?;
    match value.get("version").and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => {
            return Err(Unreadable::Newer(format!(
                "the share link has format version {v}; this page reads version {VERSION}"
            )))
        }
        None => return Err(broken("no format version".into())),
    }
    let wire: Wire = serde_json::from_value(value).map_err(|e| broken(format!("{e}")))?;
    let source = match (wire.wat, wire.wasm) {
        (Some(text), None) => Source::Text(text),
        (None, Some(b64)) => Source::Binary(
            STANDARD
                .decode(b64)
                .map_err(|e| broken(format!("bad base64 in the module ({e})")))?,
        ),
        _ => return Err(broken("it needs exactly one of `wat` and `wasm`".into())),
    };
    Ok(Shared {
        source,
        example: wire.example,
        entry: wire.entry,
        options: wire.options,
        compare: wire.compare,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(source: Source) -> Shared {
        Shared {
            source,
            example: Some("sign".into()),
            entry: "get_sign".into(),
            options: RunOptions {
                search: "random-path".into(),
                seed: 42,
                max_time_ms: Some(1500),
                max_paths: Some(10),
                max_depth: None,
                max_instructions: Some(1_000_000),
                max_memory_mib: Some(256),
                concrete_args: vec![None, Some(-7)],
                buffer_args: Vec::new(),
                heap: symplay_engine::memory::HeapOptions {
                    capacity: 33,
                    ..Default::default()
                },
                outcomes: symplay_engine::report::OutcomeRules {
                    fork_selects: false,
                    result_values: 4,
                },
                max_call_depth: Some(64),
                havoc_imports: true,
                merge: symplay_engine::report::MergeOptions {
                    mode: symplay_engine::report::MergeMode::SmOpt,
                    max_states: 100,
                    validate: true,
                },
            },
            compare: None,
        }
    }

    /// A fragment that carries `json` as a share link does.
    fn wrap(json: &str) -> String {
        format!(
            "#{PREFIX}{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 6))
        )
    }

    fn error(fragment: &str) -> String {
        decode(fragment).expect("a share link").unwrap_err()
    }

    #[test]
    fn text_and_binary_modules_round_trip() {
        let binary: Vec<u8> = b"\0asm\x01\0\0\0".iter().copied().chain(0..=255).collect();
        for source in [
            Source::Text("(module (func (export \"f\")))\n;; ünïcode".into()),
            Source::Binary(binary),
        ] {
            let shared = state(source);
            let fragment = encode(&shared).unwrap();
            assert!(fragment
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_=".contains(&b)));
            assert_eq!(decode(&format!("#{fragment}")), Some(Ok(shared.clone())));
            assert_eq!(decode(&fragment), Some(Ok(shared)));
        }
    }

    #[test]
    fn a_comparison_travels_with_its_second_configuration() {
        let mut shared = state(Source::Text("(module)".into()));
        let mut b = shared.options.clone();
        b.heap.size_mode = symplay_engine::memory::SizeMode::ForkEager;
        b.search = "bfs".into();
        shared.compare = Some(b);
        let fragment = encode(&shared).unwrap();
        assert_eq!(decode(&fragment), Some(Ok(shared.clone())));
        // A link without a comparison has no `compare` field at all.
        shared.compare = None;
        let fragment = encode(&shared).unwrap();
        let deflated = URL_SAFE_NO_PAD.decode(&fragment[PREFIX.len()..]).unwrap();
        let json = miniz_oxide::inflate::decompress_to_vec(&deflated).unwrap();
        assert!(!String::from_utf8(json).unwrap().contains("compare"));
    }

    #[test]
    fn links_without_parameter_values_leave_every_parameter_symbolic() {
        // As Share wrote them before parameters could take values.
        let old = r#"{"version":1,"wat":"(module)","entry":"f","options":{"search":"dfs","seed":3,"max_time_ms":null,"max_paths":null,"max_depth":null,"max_instructions":null}}"#;
        let shared = decode(&wrap(old)).unwrap().unwrap();
        assert_eq!(shared.options.seed, 3);
        assert_eq!(shared.options.concrete_args, []);
    }

    #[test]
    fn other_fragments_are_no_share_links() {
        assert_eq!(decode(""), None);
        assert_eq!(decode("#"), None);
        assert_eq!(decode("#results"), None);
    }

    #[test]
    fn each_kind_of_damage_gets_its_message() {
        assert_eq!(
            error("#share=ab$cd"),
            "the share link is damaged: it holds `$` at character 3 after `#share=`, which no link made by Share holds (was it changed when copied?)"
        );
        assert!(error("#share=A").contains("it ends in the middle of its data (was it cut short"));
        assert!(error("#share=AAAAAAAA").contains("its data ends or changes where it should not"));
        assert!(error(&wrap("{\"version\": 1,")).contains("bad JSON"));
        assert!(error(&wrap("[1, 2]")).contains("no format version"));
        let no_entry = r#"{"version":1,"wat":"(module)","options":{"search":"dfs","seed":0}}"#;
        assert!(error(&wrap(no_entry)).contains("missing field `entry`"));
        let both = r#"{"version":1,"wat":"","wasm":"","entry":"f","options":{"search":"dfs","seed":0,"max_time_ms":null,"max_paths":null,"max_depth":null,"max_instructions":null}}"#;
        assert!(error(&wrap(both)).contains("exactly one"));
        // A cut link: the deflate stream ends early.
        let good = encode(&state(Source::Text("(module)".repeat(50)))).unwrap();
        let cut = PREFIX.len() + (good.len() - PREFIX.len()) / 8 * 4;
        assert!(error(&good[..cut]).contains("was it cut short or changed when copied?"));
    }

    #[test]
    fn a_newer_version_is_named() {
        let newer = r#"{"version":2,"something":"new"}"#;
        assert_eq!(
            error(&wrap(newer)),
            "the share link has format version 2; this page reads version 1"
        );
    }

    #[test]
    fn links_over_the_cap_are_refused_both_ways() {
        let long = format!("#{PREFIX}{}", "A".repeat(MAX_FRAGMENT));
        assert!(error(&long).contains("over the cap of 512 KiB"));
        // Random bytes do not compress: their link is over the cap.
        let mut x: u32 = 1;
        let noise: Vec<u8> = (0..MAX_FRAGMENT)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                x as u8
            })
            .collect();
        let err = encode(&state(Source::Binary(noise))).unwrap_err();
        assert!(err.contains("too long"), "{err}");
    }

    #[test]
    fn a_link_that_inflates_past_the_bound_is_refused_by_name() {
        // 17 MiB of spaces deflate to a few KiB: a decompression bomb.
        let bomb = miniz_oxide::deflate::compress_to_vec(&vec![b' '; 17 << 20], 9);
        let fragment = format!("#{PREFIX}{}", URL_SAFE_NO_PAD.encode(&bomb));
        assert!(fragment.len() < 64 * 1024, "{}", fragment.len());
        let message = error(&fragment);
        assert!(
            message.starts_with("the share link is refused: it expands to more than 16 MiB"),
            "{message}"
        );
    }
}
