//! `--seed` and `--faces`: where the dice come from.

use crate::exit::Failure;
use clap::Args;
use nutshell_dice::source::{DiceSource, Entropy, Scripted, Seeded};

#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Dice")]
pub struct SourceArgs {
    /// Roll reproducibly: the same seed gives the same faces on every machine, in every version
    #[arg(long, value_name = "S", conflicts_with = "faces")]
    pub seed: Option<u64>,
    /// Use these faces, in the order the transcript lists the dice (physical dice typed in)
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub faces: Option<String>,
}

/// The source chosen by the flags.
pub enum Source {
    Seeded(Seeded),
    Entropy(Entropy),
    Scripted(Scripted),
}

impl SourceArgs {
    pub fn source(&self) -> Result<Source, Failure> {
        if let Some(list) = &self.faces {
            let scripted = Scripted::parse_list(list)
                .map_err(|e| Failure::bad_input(format!("error: --faces: {e}")))?;
            return Ok(Source::Scripted(scripted));
        }
        if let Some(seed) = self.seed {
            return Ok(Source::Seeded(Seeded::new(seed)));
        }
        Entropy::new().map(Source::Entropy).map_err(|e| {
            Failure::other(format!("error: the operating system gave no entropy: {e}"))
        })
    }
}

impl Source {
    pub fn dice(&mut self) -> &mut dyn DiceSource {
        match self {
            Source::Seeded(s) => s,
            Source::Entropy(s) => s,
            Source::Scripted(s) => s,
        }
    }

    /// A warning when typed-in faces were left over.
    pub fn leftover_warning(&self) -> Option<String> {
        match self {
            Source::Scripted(s) if s.remaining() > 0 => Some(format!(
                "warning: {} of the faces given {} not used (the roll needed {})",
                s.remaining(),
                if s.remaining() == 1 { "was" } else { "were" },
                s.used()
            )),
            _ => None,
        }
    }
}
