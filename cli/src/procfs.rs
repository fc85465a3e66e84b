//! Fields of Linux's `/proc` files, for the machine's memory and a
//! process's peak resident memory.

/// The value in bytes of the `key:` line (in kB) of a `/proc` file's text,
/// such as `MemTotal:` of `/proc/meminfo` or `VmHWM:` of `/proc/PID/status`.
pub fn kib_field(text: &str, key: &str) -> Option<u64> {
    let kib = text
        .lines()
        .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))?
        .trim()
        .strip_suffix("kB")?
        .trim()
        .parse::<u64>()
        .ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kib_field_is_read_in_bytes() {
        let text = "MemTotal:       16384 kB\nMemFree:  12 kB\nVmHWM:\t  3 kB\n";
        assert_eq!(kib_field(text, "MemTotal"), Some(16384 * 1024));
        assert_eq!(kib_field(text, "VmHWM"), Some(3 * 1024));
        assert_eq!(kib_field(text, "Mem"), None);
        assert_eq!(kib_field(text, "Swap"), None);
    }
}
