//! How many lines a text wraps to in a column of the printed page.
//!
//! The documents print in Arial (Liberation Sans, its metric twin, on Linux), so the width
//! of a text is known from the font's advance widths. Pages are split in Rust before the
//! browser lays them out, so every estimate here errs long: words only break at spaces
//! (the browser also breaks after hyphens and slashes), every width is taken a little wider
//! than the metrics say, and any character outside ASCII counts as a full em.

/// A font size and weight of the print stylesheet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Font {
    pub pt: f32,
    pub bold: bool,
}

impl Font {
    pub const fn regular(pt: f32) -> Self {
        Self { pt, bold: false }
    }

    pub const fn bold(pt: f32) -> Self {
        Self { pt, bold: true }
    }
}

/// Advance widths in thousandths of an em of the ASCII characters ' ' to '~', Arial and
/// Liberation Sans Regular.
const REGULAR: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// The same for Arial and Liberation Sans Bold (also used for weight 600).
const BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/// Any other character: a full em, as wide as the widest Latin letters and CJK.
const OTHER: u16 = 1000;

/// Widths are taken this much wider than the metrics say (kerning, rounding to device
/// pixels, a substituted font of similar metrics).
const SAFETY: f32 = 1.05;

const MM_PER_PT: f32 = 25.4 / 72.0;

fn char_mm(c: char, font: Font) -> f32 {
    let table = if font.bold { &BOLD } else { &REGULAR };
    let units = (c as u32).checked_sub(32).and_then(|i| table.get(i as usize)).copied().unwrap_or(OTHER);
    f32::from(units) / 1000.0 * font.pt * MM_PER_PT * SAFETY
}

/// The printed width of `text` on one line, in millimetres (an upper estimate).
pub fn width_mm(text: &str, font: Font) -> f32 {
    text.chars().map(|c| char_mm(c, font)).sum()
}

/// How many lines `text` takes in a column `width` millimetres wide, wrapping at spaces and
/// breaking a word wider than the column anywhere (CSS `overflow-wrap:anywhere`). Line
/// breaks in the text start new lines; an empty text takes one line.
pub fn lines(text: &str, width: f32, font: Font) -> u32 {
    let space = char_mm(' ', font);
    let mut count = 0;
    for paragraph in text.lines() {
        count += 1;
        let mut x = 0.0_f32;
        for word in paragraph.split_whitespace() {
            let w = width_mm(word, font);
            if x > 0.0 && x + space + w <= width {
                x += space + w;
                continue;
            }
            if x > 0.0 {
                count += 1;
            }
            if w <= width {
                x = w;
                continue;
            }
            x = 0.0;
            for c in word.chars() {
                let cw = char_mm(c, font);
                if x > 0.0 && x + cw > width {
                    count += 1;
                    x = 0.0;
                }
                x += cw;
            }
        }
    }
    count.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: Font = Font::regular(9.0);

    #[test]
    fn widths_follow_the_font_metrics_with_a_margin() {
        // Ten digits at 9 pt: 10 × 0.556 em × 3.175 mm = 17.65 mm, 5 % more.
        let w = width_mm("0123456789", BODY);
        assert!((w - 17.65 * SAFETY).abs() < 0.05, "{w}");
        assert!(width_mm("iiii", BODY) < width_mm("WWWW", BODY));
        assert!(width_mm("Tyre", Font::bold(9.0)) > width_mm("Tyre", BODY));
        assert_eq!(width_mm("é", BODY), width_mm("—", BODY), "outside ASCII is a full em");
    }

    #[test]
    fn short_and_empty_texts_take_one_line() {
        assert_eq!(lines("", 50.0, BODY), 1);
        assert_eq!(lines("   ", 50.0, BODY), 1);
        assert_eq!(lines("VALVE-TR413", 50.0, BODY), 1);
    }

    #[test]
    fn text_wraps_at_spaces() {
        let text = "BF2055516ADVT 205/55R16 91V BFGOODRICH ADVANTAGE T/A SPORT";
        let one = width_mm(text, BODY);
        assert_eq!(lines(text, one + 0.1, BODY), 1);
        assert_eq!(lines(text, one - 0.1, BODY), 2);
        // Each word on its own line when the column holds one word at most.
        assert_eq!(lines("AAAA BBBB CCCC", width_mm("AAAA B", BODY), BODY), 3);
    }

    #[test]
    fn a_word_wider_than_the_column_breaks_anywhere() {
        let word = "X".repeat(30);
        let ten = width_mm(&"X".repeat(10), BODY) + 0.01;
        assert_eq!(lines(&word, ten, BODY), 3);
        // It starts on a line of its own.
        assert_eq!(lines(&format!("A {word}"), ten, BODY), 4);
    }

    #[test]
    fn line_breaks_in_the_text_start_new_lines() {
        assert_eq!(lines("Call first\nGate code 1234", 100.0, BODY), 2);
        assert_eq!(lines("Call first\n\nGate code 1234", 100.0, BODY), 3);
    }
}
