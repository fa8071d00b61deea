//! Colour for terminals. `anstream` strips it when stdout is not a terminal or
//! when `NO_COLOR` is set, so pipes and logs get plain text.

use anstyle::{AnsiColor, Style};
use nutshell_dice::roll::{Mark, Painter};

const DROPPED: Style = Style::new().dimmed();
const SUCCESS: Style = AnsiColor::Green.on_default().bold();
const FAILURE: Style = AnsiColor::Red.on_default().bold();
const HIGHEST: Style = AnsiColor::Green.on_default();
const LOWEST: Style = AnsiColor::Red.on_default();
const TOTAL: Style = Style::new().bold();
const LABEL: Style = AnsiColor::Cyan.on_default();
const ERROR: Style = AnsiColor::Red.on_default().bold();

/// Paints transcript marks with ANSI styles.
pub struct Terminal {
    codes: Vec<(String, String)>,
}

impl Terminal {
    pub fn new() -> Terminal {
        let styles = [DROPPED, SUCCESS, FAILURE, HIGHEST, LOWEST, TOTAL, LABEL];
        Terminal {
            codes: styles
                .iter()
                .map(|s| (s.render().to_string(), s.render_reset().to_string()))
                .collect(),
        }
    }

    /// Every style sequence it paints with (kept by `shown::styled`).
    pub fn sequences(&self) -> Vec<&str> {
        self.codes
            .iter()
            .flat_map(|(open, close)| [open.as_str(), close.as_str()])
            .collect()
    }

    fn index(mark: Mark) -> usize {
        match mark {
            Mark::Dropped => 0,
            Mark::Success => 1,
            Mark::Failure => 2,
            Mark::Highest => 3,
            Mark::Lowest => 4,
            Mark::Total => 5,
            Mark::Label => 6,
        }
    }
}

impl Painter for Terminal {
    fn open(&self, mark: Mark) -> &str {
        &self.codes[Self::index(mark)].0
    }
    fn close(&self, mark: Mark) -> &str {
        &self.codes[Self::index(mark)].1
    }
}

/// Styles a leading `error:` or `warning:` in a message.
pub fn error_prefix(message: &str) -> String {
    for prefix in ["error:", "warning:"] {
        if let Some(rest) = message.strip_prefix(prefix) {
            let style = if prefix == "error:" {
                ERROR
            } else {
                AnsiColor::Yellow.on_default().bold()
            };
            return format!("{}{prefix}{}{rest}", style.render(), style.render_reset());
        }
    }
    message.to_string()
}
