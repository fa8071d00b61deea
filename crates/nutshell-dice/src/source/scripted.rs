//! Faces given in advance: dice rolled on a physical table, or a test's exact faces.

use super::{DiceSource, SourceError};
use crate::plan::Faces;

/// A source that hands out the faces it was given, in order.
///
/// ```
/// use nutshell_dice::{Expression, Scripted};
/// let expr = Expression::parse("2d6+1")?;
/// assert_eq!(expr.roll(&mut Scripted::new([3, 4]))?.total, 8);
/// // A face the die cannot show is refused:
/// assert!(expr.roll(&mut Scripted::new([3, 7])).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    faces: Vec<i64>,
    next: usize,
}

impl Scripted {
    /// A source that gives `faces` in order.
    pub fn new(faces: impl IntoIterator<Item = i64>) -> Scripted {
        Scripted {
            faces: faces.into_iter().collect(),
            next: 0,
        }
    }

    /// Reads a comma- or space-separated list such as `6,5,3,1`. An item
    /// that is not a number is quoted in the error, cut after 40 characters.
    ///
    /// ```
    /// let faces = nutshell_dice::Scripted::parse_list("6, 5 3,1").unwrap();
    /// assert_eq!(faces.remaining(), 4);
    /// assert!(nutshell_dice::Scripted::parse_list("6,x").is_err());
    /// assert!(nutshell_dice::Scripted::parse_list("6,,5").is_err());
    /// ```
    pub fn parse_list(text: &str) -> Result<Scripted, String> {
        const SHOWN_CHARS: usize = 40;
        let mut faces = Vec::new();
        let parts: Vec<&str> = text.split(',').collect();
        for (n, part) in parts.iter().enumerate() {
            if part.trim().is_empty() {
                // `6,,5` lost a face; a lone trailing comma is harmless.
                if n + 1 == parts.len() && n > 0 {
                    continue;
                }
                return Err(format!(
                    "face {} of the list is missing (nothing between two commas)",
                    faces.len() + 1
                ));
            }
            for item in part.split_whitespace() {
                let cleaned = item.replace('\u{2212}', "-");
                let face: i64 = cleaned.parse().map_err(|_| {
                    // A long item is cut: the message stays a line.
                    let shown: String = if item.chars().count() > SHOWN_CHARS {
                        let head: String = item.chars().take(SHOWN_CHARS).collect();
                        format!("{head}… ({} characters)", item.chars().count())
                    } else {
                        item.to_string()
                    };
                    format!(
                        "face {} of the list, `{shown}`, is not a whole number",
                        faces.len() + 1
                    )
                })?;
                faces.push(face);
            }
        }
        if faces.is_empty() {
            return Err("the list of faces is empty".to_string());
        }
        Ok(Scripted::new(faces))
    }

    /// How many faces are left.
    pub fn remaining(&self) -> usize {
        self.faces.len() - self.next
    }

    /// How many faces have been used.
    pub fn used(&self) -> usize {
        self.next
    }
}

impl DiceSource for Scripted {
    fn draw(&mut self, faces: &Faces<'_>) -> Result<i64, SourceError> {
        let Some(&face) = self.faces.get(self.next) else {
            return Err(SourceError::Exhausted {
                given: self.faces.len(),
            });
        };
        if !faces.contains(face) {
            return Err(SourceError::NotOnDie { face });
        }
        self.next += 1;
        Ok(face)
    }
}
