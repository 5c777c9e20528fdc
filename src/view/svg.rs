//! Small SVG writers shared by the games' drawings.

use std::fmt::Write;

/// Text made safe for SVG content and attribute values.
pub fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A rectangle `[x, y, w, h]` with rounded corners `r`.
pub fn rect(out: &mut String, [x, y, w, h]: [f64; 4], r: f64, fill: &str, stroke: &str) {
    let _ = write!(
        out,
        r#"<rect x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="{r:.1}" fill="{fill}" stroke="{stroke}"/>"#
    );
}

/// A circle.
pub fn circle(out: &mut String, cx: f64, cy: f64, r: f64, fill: &str, stroke: &str) {
    let _ = write!(
        out,
        r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{r:.1}" fill="{fill}" stroke="{stroke}"/>"#
    );
}

/// A line.
pub fn line(out: &mut String, x1: f64, y1: f64, x2: f64, y2: f64, stroke: &str, width: f64) {
    let _ = write!(
        out,
        r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{stroke}" stroke-width="{width:.1}" stroke-linecap="round"/>"#
    );
}

/// Text anchored at (x, y): `anchor` is `start`, `middle` or `end`.
pub fn text(out: &mut String, x: f64, y: f64, size: f64, anchor: &str, fill: &str, content: &str) {
    let _ = write!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" fill="{fill}">{}</text>"#,
        esc(content)
    );
}

/// Bold text, as [`text`].
pub fn bold(out: &mut String, x: f64, y: f64, size: f64, anchor: &str, fill: &str, content: &str) {
    let _ = write!(
        out,
        r#"<text x="{x:.1}" y="{y:.1}" font-size="{size:.1}" text-anchor="{anchor}" fill="{fill}" font-weight="bold">{}</text>"#,
        esc(content)
    );
}

/// A layer: `body` wrapped in a group with a class naming it (tests and
/// styles find layers by class).
pub fn layer(class: &str, body: &str) -> String {
    format!(r#"<g class="{class}">{body}</g>"#)
}

/// A clickable area `[x, y, w, h]` named `pick` (`data-pick`), invisible
/// in the drawing: `boardlab play --html` highlights it when it selects a
/// move ([`Picture::picks`](super::Picture::picks)).
pub fn pick(out: &mut String, [x, y, w, h]: [f64; 4], pick: &str) {
    let _ = write!(
        out,
        r##"<rect class="pick" data-pick="{}" x="{x:.1}" y="{y:.1}" width="{w:.1}" height="{h:.1}" rx="6" fill="#ffd54a" fill-opacity="0"/>"##,
        esc(pick)
    );
}

/// A card back: face down, identity hidden.
pub fn card_back(out: &mut String, x: f64, y: f64, w: f64, h: f64) {
    rect(out, [x, y, w, h], 4.0, "#3b3f5c", "#1d1f2e");
    rect(
        out,
        [x + 3.0, y + 3.0, w - 6.0, h - 6.0],
        3.0,
        "url(#hatch)",
        "#6b7094",
    );
}

/// A use of the symbol `id` at (x, y).
pub fn use_at(out: &mut String, id: &str, x: f64, y: f64) {
    let _ = write!(out, r##"<use href="#{id}" x="{x:.1}" y="{y:.1}"/>"##);
}

/// Shared definitions (the card-back hatch, the arrowhead), one layer that
/// every frame repeats and the page stores once.
pub fn defs() -> String {
    r##"<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#4a4f73"/><line x1="0" y1="0" x2="0" y2="6" stroke="#6b7094" stroke-width="2"/></pattern><marker id="arrowhead" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" fill="#2b2b2b"/></marker></defs>"##.to_string()
}

/// `text` in lines of at most `n` characters, broken at spaces (a word
/// longer than a line is clipped); lines after the first start with `indent`.
pub fn wrap(text: &str, n: usize, indent: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut words = 0;
    for word in text.split(' ') {
        if words > 0 && line.chars().count() + 1 + word.chars().count() > n {
            lines.push(std::mem::take(&mut line));
            line.push_str(indent);
            words = 0;
        } else if words > 0 {
            line.push(' ');
        }
        line.push_str(word);
        words += 1;
    }
    lines.push(line);
    lines.into_iter().map(|l| clip(&l, n)).collect()
}

/// `text` cut to `n` characters, an ellipsis marking the cut.
pub fn clip(text: &str, n: usize) -> String {
    if text.chars().count() <= n {
        return text.to_string();
    }
    let mut t: String = text.chars().take(n - 1).collect();
    t.push('…');
    t
}

#[cfg(test)]
mod text_tests {
    use super::{clip, wrap};

    #[test]
    fn wrap_breaks_at_spaces_and_clips_what_cannot_break() {
        assert_eq!(
            wrap("Messenger's Sandals", 12, ""),
            ["Messenger's", "Sandals"]
        );
        assert_eq!(wrap("a b c", 12, ""), ["a b c"]);
        assert_eq!(wrap("one two three", 7, "  "), ["one two", "  three"]);
        assert_eq!(wrap("Archaeologist", 6, ""), ["Archa…"]);
        assert_eq!(clip("Scarab", 6), "Scarab");
    }
}
