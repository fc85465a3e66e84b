//! Where the branch labels of the tree go on screen, and how much of each
//! is shown. Labels are drawn at one text size whatever the zoom, so that
//! a projected tree stays readable: each sits beside the middle of the
//! edge to its node, on the outer side (left of a left child's edge,
//! right of the others), in the room between that edge and its
//! neighbours in the row, inside the pane. A label longer than its room
//! is shortened, keeping the part that tells it from its siblings (the two
//! sides of a branch often differ only at the end: `… == '0'` and
//! `… != '0'`); one whose room is too small is left out, and its node's
//! tooltip still tells it.

use super::model::Model;

/// Characters a label needs at least to be shown: one of text and the
/// ellipsis would tell nothing.
const MIN_CHARS: usize = 4;

/// A label as drawn: the drawn node it belongs to and that node's parent,
/// the text shown, where it is anchored on screen, and whether the text
/// ends there (a left child's label) or starts there.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub node: usize,
    pub parent: usize,
    pub text: String,
    pub x: f64,
    pub y: f64,
    pub ends_at_x: bool,
}

/// How the pane draws: where a drawn node is on screen, the pane's size,
/// the width of a character of label text and the gap between a label and
/// its edge, in pixels.
pub struct Screen<'a> {
    pub position: &'a dyn Fn(usize) -> (f64, f64),
    pub width: f64,
    pub height: f64,
    pub char_px: f64,
    pub gap_px: f64,
}

struct Slot {
    node: usize,
    parent: usize,
    mid: (f64, f64),
    left: bool,
    /// Characters that fit in the room.
    room: usize,
}

/// The labels of `model` that can be shown on `screen`, each whole or
/// shortened, never covering another, never past the pane's edges, and
/// no two siblings reading the same.
pub fn place(model: &Model, screen: &Screen) -> Vec<Placed> {
    let mut rows: Vec<Vec<Slot>> = Vec::new();
    for (i, label) in model.labels.iter().enumerate() {
        let (Some(_), Some(p)) = (label, model.parent[i]) else {
            continue;
        };
        let ((x, y), (px, py)) = ((screen.position)(i), (screen.position)(p));
        let mid = ((x + px) / 2.0, (y + py) / 2.0);
        // A row out of the pane's height is not on screen.
        if !(screen.char_px..=screen.height - screen.char_px).contains(&mid.1) {
            continue;
        }
        let depth = model.layout.depth[i] as usize;
        if rows.len() <= depth {
            rows.resize_with(depth + 1, Vec::new);
        }
        rows[depth].push(Slot {
            node: i,
            parent: p,
            mid,
            left: x < px,
            room: 0,
        });
    }
    for row in &mut rows {
        row.sort_by(|a, b| a.mid.0.total_cmp(&b.mid.0));
        fit_rooms(row, screen);
    }
    let mut placed = Vec::new();
    for row in rows {
        // Siblings share a parent, and are next to each other in a row.
        let mut start = 0;
        while start < row.len() {
            let end = start
                + row[start..]
                    .iter()
                    .take_while(|s| s.parent == row[start].parent)
                    .count();
            let siblings = &row[start..end];
            let texts: Vec<&str> = siblings
                .iter()
                .map(|s| model.labels[s.node].as_deref().unwrap_or_default())
                .collect();
            let rooms: Vec<usize> = siblings.iter().map(|s| s.room).collect();
            for (slot, text) in siblings.iter().zip(shorten_apart(&texts, &rooms)) {
                let Some(text) = text else { continue };
                let gap = if slot.left {
                    -screen.gap_px
                } else {
                    screen.gap_px
                };
                placed.push(Placed {
                    node: slot.node,
                    parent: slot.parent,
                    text,
                    x: slot.mid.0 + gap,
                    y: slot.mid.1,
                    ends_at_x: slot.left,
                });
            }
            start = end;
        }
    }
    placed
}

/// The room of each label of a row, left to right: from its edge's
/// middle outwards to the next edge's middle (or half way, where the
/// label there comes towards it), inside the pane.
fn fit_rooms(row: &mut [Slot], screen: &Screen) {
    let mids: Vec<(f64, bool)> = row.iter().map(|s| (s.mid.0, s.left)).collect();
    for (k, slot) in row.iter_mut().enumerate() {
        let (x, left) = mids[k];
        let (from, to) = if left {
            let from = match k.checked_sub(1).map(|j| mids[j]) {
                // The label before points away from this one: it ends at
                // its edge, and the room between is this label's.
                Some((m, true)) => m,
                Some((m, false)) => (m + x) / 2.0,
                None => 0.0,
            };
            (from.max(0.0) + screen.gap_px, x - screen.gap_px)
        } else {
            let to = match mids.get(k + 1) {
                Some(&(m, false)) => m,
                Some(&(m, true)) => (x + m) / 2.0,
                None => screen.width,
            };
            (x + screen.gap_px, to.min(screen.width) - screen.gap_px)
        };
        slot.room = ((to - from) / screen.char_px).floor().max(0.0) as usize;
    }
}

/// One way to cut a label's characters to a room.
type Shorten<'a> = &'a dyn Fn(&[char], usize) -> String;

/// Each text cut to its room (`None` where the room is too small), in
/// one way for all the siblings, the first that keeps them apart: the
/// start, the end, or the part around where they first differ.
fn shorten_apart(texts: &[&str], rooms: &[usize]) -> Vec<Option<String>> {
    let chars: Vec<Vec<char>> = texts.iter().map(|t| t.chars().collect()).collect();
    let differs_at = first_difference(&chars);
    let ways: [Shorten; 3] = [
        &|c, room| head(c, room),
        &|c, room| tail(c, room),
        &|c, room| around(c, room, differs_at),
    ];
    for way in ways {
        let shown: Vec<Option<String>> = chars
            .iter()
            .zip(rooms)
            .map(|(c, &room)| {
                if c.len() <= room {
                    Some(c.iter().collect())
                } else if room >= MIN_CHARS {
                    Some(way(c, room))
                } else {
                    None
                }
            })
            .collect();
        let kept: Vec<&String> = shown.iter().flatten().collect();
        let apart = kept
            .iter()
            .enumerate()
            .all(|(i, a)| kept[i + 1..].iter().all(|b| a != b));
        if apart {
            return shown;
        }
    }
    // No way keeps them apart in so little room: only the whole ones.
    chars
        .iter()
        .zip(rooms)
        .map(|(c, &room)| (c.len() <= room).then(|| c.iter().collect()))
        .collect()
}

/// Where the first of the texts that differ from the others first differs.
fn first_difference(chars: &[Vec<char>]) -> usize {
    let shortest = chars.iter().map(Vec::len).min().unwrap_or(0);
    (0..shortest)
        .find(|&k| chars.iter().any(|c| c[k] != chars[0][k]))
        .unwrap_or(shortest)
}

fn head(c: &[char], room: usize) -> String {
    c[..room - 1].iter().chain(['…'].iter()).collect()
}

fn tail(c: &[char], room: usize) -> String {
    ['…'].iter().chain(&c[c.len() - (room - 1)..]).collect()
}

/// `room` characters around position `at`, with an ellipsis on each side
/// that is cut.
fn around(c: &[char], room: usize, at: usize) -> String {
    let inner = room.saturating_sub(2).max(1);
    let start = at.saturating_sub(inner / 2).min(c.len() - inner);
    let mut shown: String = String::new();
    if start > 0 {
        shown.push('…');
    }
    shown.extend(&c[start..start + inner]);
    if start + inner < c.len() {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(texts: &[&str], room: usize) -> Vec<Option<String>> {
        shorten_apart(texts, &vec![room; texts.len()])
    }

    #[test]
    fn whole_labels_stay_whole() {
        assert_eq!(
            shown(&["x < 0", "x >= 0"], 10),
            [Some("x < 0".into()), Some("x >= 0".into())]
        );
    }

    #[test]
    fn siblings_that_differ_at_the_end_are_cut_at_the_start() {
        let texts = [
            "text[text[0] == '-' ? 1 : 0] == '0'",
            "text[text[0] == '-' ? 1 : 0] != '0'",
        ];
        let cut = shown(&texts, 12);
        assert_eq!(
            cut,
            [Some("…: 0] == '0'".into()), Some("…: 0] != '0'".into())]
        );
        for text in cut.iter().flatten() {
            assert!(text.chars().count() <= 12, "{text}");
        }
        assert_ne!(cut[0], cut[1]);
    }

    #[test]
    fn siblings_that_differ_in_the_middle_show_the_middle() {
        let texts = [
            "a_long_common_start && x == 1 && a_long_common_end",
            "a_long_common_start && x == 2 && a_long_common_end",
        ];
        let cut = shown(&texts, 12);
        let (a, b) = (cut[0].clone().unwrap(), cut[1].clone().unwrap());
        assert_ne!(a, b);
        assert!(a.contains('1') && b.contains('2'), "{a} {b}");
        assert!(a.chars().count() <= 12 && a.starts_with('…') && a.ends_with('…'));
    }

    #[test]
    fn too_little_room_leaves_a_label_out() {
        assert_eq!(shown(&["x < 1000000"], 3), [None]);
        // A short one still fits whole.
        assert_eq!(shown(&["x<0"], 3), [Some("x<0".into())]);
    }

    #[test]
    fn rooms_end_at_the_neighbours_and_the_pane() {
        // Two right labels and a left one between them in one row.
        let mut row: Vec<Slot> = [(100.0, false), (200.0, true), (300.0, false)]
            .into_iter()
            .enumerate()
            .map(|(k, (x, left))| Slot {
                node: k,
                parent: 0,
                mid: (x, 50.0),
                left,
                room: 0,
            })
            .collect();
        let position = |_: usize| (0.0, 0.0);
        let screen = Screen {
            position: &position,
            width: 360.0,
            height: 300.0,
            char_px: 10.0,
            gap_px: 5.0,
        };
        fit_rooms(&mut row, &screen);
        // 100..150 and 150..200 are shared by the labels that come towards
        // each other; the last runs to the pane's edge at 360.
        assert_eq!(row.iter().map(|s| s.room).collect::<Vec<_>>(), [4, 4, 5]);
    }
}
