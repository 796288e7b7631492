//! The regulations' own numbering: which articles a ruling may cite.
//!
//! A ruling is recorded with the article it applies, and the record is the director's
//! word for ever: `--article 99.9` was taken and kept, and nobody could say afterwards
//! what rule it meant. The Greek Backgammon Federation's regulations
//! (`shared/seeds/001_…txt`, digested in `shared/rules/backgammon.md`) have five
//! sections; a citation is one of their articles, optionally followed by paragraphs:
//! `2.3`, `4.3 (v)`, `4.3 (ii)(c)`, `4.4 (iv), (vi)`.

use super::RuleError;

/// How many articles each section of the regulations has: 1.1–1.7 (general), 2.1–2.4
/// (the venue and time), 3.1–3.8 (equipment), 4.1–4.8 (play), 5.1–5.5 (disputes).
const ARTICLES_PER_SECTION: [u32; 5] = [7, 4, 8, 8, 5];

/// The longest citation kept: an article and a few paragraphs fit many times over.
const MAX_CITATION: usize = 40;

/// Whether `article` cites an article of the regulations, as `N.M` with the article in
/// the list, optionally followed by paragraphs in brackets (`(iv)`, `(c)`) separated by
/// spaces or commas.
pub fn check_article(article: &str) -> Result<(), RuleError> {
    let cited = article.trim();
    let refuse = || {
        RuleError::invalid(
            "",
            format!(
                "{cited:?} is not an article of the regulations: cite one of 1.1–1.7, 2.1–2.4, \
                 3.1–3.8, 4.1–4.8, 5.1–5.5, optionally with its paragraph, e.g. 4.3 (v)"
            ),
        )
    };
    if cited.len() > MAX_CITATION {
        return Err(refuse());
    }
    let number_end = cited
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(cited.len());
    let (number, paragraphs) = cited.split_at(number_end);
    let in_list = number
        .split_once('.')
        .and_then(|(section, article)| {
            let section: usize = section.parse().ok()?;
            let article: u32 = article.parse().ok()?;
            let count = ARTICLES_PER_SECTION.get(section.checked_sub(1)?)?;
            Some((1..=*count).contains(&article))
        })
        .unwrap_or(false);
    if in_list && paragraphs_are_well_formed(paragraphs) {
        Ok(())
    } else {
        Err(refuse())
    }
}

/// `""`, or paragraphs like ` (iv)`, `(ii)(c)`, ` (iv), (vi)`: each a roman numeral or a
/// letter in brackets.
fn paragraphs_are_well_formed(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start_matches([' ', ',']);
        if rest.is_empty() {
            return true;
        }
        let Some(inner) = rest.strip_prefix('(') else {
            return false;
        };
        let Some((paragraph, after)) = inner.split_once(')') else {
            return false;
        };
        let roman = !paragraph.is_empty() && paragraph.chars().all(|c| "ivx".contains(c));
        let letter = paragraph.len() == 1 && paragraph.chars().all(|c| c.is_ascii_lowercase());
        if !(roman || letter) {
            return false;
        }
        rest = after;
    }
}

#[cfg(test)]
mod tests {
    use super::check_article;

    #[test]
    fn every_article_of_the_regulations_is_taken_with_or_without_its_paragraph() {
        for cited in [
            "1.1",
            "1.7",
            "2.2",
            "2.3",
            "3.8",
            "4.3 (v)",
            "4.3 (ii)(c)",
            "4.4 (iv), (vi)",
            "4.8",
            "5.5",
            " 2.3 ",
        ] {
            assert!(check_article(cited).is_ok(), "{cited}");
        }
    }

    #[test]
    fn what_the_regulations_do_not_number_is_refused() {
        for cited in [
            "", "99.9", "1.8", "2.5", "6.1", "0.1", "4", "4.", ".3", "2.3a", "2.3 (zz)", "2.3 (",
            "test", "4.3 (v", "2.3 foo",
        ] {
            let err = check_article(cited).unwrap_err();
            assert!(err.to_string().contains("not an article"), "{cited}: {err}");
        }
        assert!(check_article(&format!("2.3 {}", "(i)".repeat(20))).is_err());
    }
}
