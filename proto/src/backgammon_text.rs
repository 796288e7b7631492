//! A backgammon side as the narrow views name it — a device's two lines, the console's
//! cells, the CLI — by its letter. Whose turn it is and the cube are put into words in
//! one place, `baffle_i18n::turn`, from the catalogue; beside [`crate::chess_text`].

use crate::v1;

/// "A", "B" or "-".
pub fn side(value: i32) -> &'static str {
    match v1::Side::try_from(value) {
        Ok(v1::Side::A) => "A",
        Ok(v1::Side::B) => "B",
        _ => "-",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_is_its_letter() {
        assert_eq!(side(v1::Side::A as i32), "A");
        assert_eq!(side(v1::Side::B as i32), "B");
        assert_eq!(side(v1::Side::Unspecified as i32), "-");
        assert_eq!(side(99), "-");
    }
}
