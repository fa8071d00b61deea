//! Flags that set the engine's limits, shared by every command that parses dice.

use clap::Args;
use nutshell_dice::Limits;

/// Limits on what one expression may ask (see `docs/notation.md`, "Limits"),
/// for every command that reads dice. The limits of exact odds alone are
/// [`ExactLimitArgs`], given to the commands that compute them.
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Most faces rolled for one roll, rerolls and explosions included
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_dice, global = true)]
    pub max_dice: u64,
    /// Most explosions of one die (rerolls are bounded by --max-dice only)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_repeats_per_die, global = true)]
    pub max_explosions: u32,
    /// Deepest nesting of brackets, groups, functions and signs (at most 1000)
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_nesting as u16, global = true,
          value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub max_nesting: u16,
    /// Longest expression, in characters
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_expression_chars, global = true)]
    pub max_length: usize,
    /// Most bytes of one file read (sides, sheets, maps, tables, choices, standard input)
    #[arg(long, value_name = "BYTES", default_value_t = crate::files::DEFAULT_MAX_FILE_BYTES, global = true)]
    pub max_file_size: u64,
}

/// The limits of exact odds (`nutshell odds`, `nutshell serve`'s odds).
#[derive(Debug, Clone, Args)]
#[command(next_help_heading = "Limits of exact odds")]
pub struct ExactLimitArgs {
    /// Most distinct outcomes of an exact distribution
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_outcomes)]
    pub max_outcomes: usize,
    /// Most elementary steps of an exact computation (about 1 second per 10^9); digits
    /// or a power of ten such as 1e10
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_work, value_parser = parse_work)]
    pub max_work: u64,
    /// Exact odds follow explosions until the tail they leave out is below P (a power of
    /// ten such as 1e-15; 0 follows every die to --max-explosions)
    #[arg(long, value_name = "P", default_value = "1e-12", value_parser = parse_tail)]
    pub tail: u32,
}

impl Default for LimitArgs {
    /// The flags' defaults (what clap gives when none is written).
    fn default() -> LimitArgs {
        let limits = Limits::default();
        LimitArgs {
            max_dice: limits.max_dice,
            max_explosions: limits.max_repeats_per_die,
            max_nesting: limits.max_nesting as u16,
            max_length: limits.max_expression_chars,
            max_file_size: crate::files::DEFAULT_MAX_FILE_BYTES,
        }
    }
}

impl Default for ExactLimitArgs {
    /// The flags' defaults (what clap gives when none is written).
    fn default() -> ExactLimitArgs {
        let limits = Limits::default();
        ExactLimitArgs {
            max_outcomes: limits.max_outcomes,
            max_work: limits.max_work,
            tail: limits.tail_digits,
        }
    }
}

impl LimitArgs {
    /// The engine's limits: these flags, the defaults of exact odds.
    pub fn limits(&self) -> Limits {
        Limits {
            max_dice: self.max_dice,
            max_repeats_per_die: self.max_explosions,
            max_nesting: usize::from(self.max_nesting),
            max_expression_chars: self.max_length,
            ..Limits::default()
        }
    }
}

impl ExactLimitArgs {
    /// `limits` with these limits of exact odds.
    pub fn apply(&self, limits: &Limits) -> Limits {
        Limits {
            max_outcomes: self.max_outcomes,
            max_work: self.max_work,
            tail_digits: self.tail,
            ..limits.clone()
        }
    }
}

/// `--max-work N`: a whole number of steps, in digits (`4000000000`) or in
/// scientific notation (`4e9`, `2.5e10`).
pub(crate) fn parse_work(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let bad = || format!("`{text}` is not a whole number of steps such as 4000000000 or 4e9");
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (mantissa, exponent) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.strip_prefix('+').unwrap_or(e)),
        None => (text, "0"),
    };
    if !all_digits(exponent) {
        return Err(bad());
    }
    let exponent: usize = exponent.parse().map_err(|_| bad())?;
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if !all_digits(whole) || !(fraction.is_empty() || all_digits(fraction)) {
        return Err(bad());
    }
    let fraction = fraction.trim_end_matches('0');
    if fraction.len() > exponent {
        return Err(bad());
    }
    let zeros = exponent - fraction.len();
    let digits = format!("{whole}{fraction}");
    let significant = digits.trim_start_matches('0');
    if significant.is_empty() {
        return Ok(0);
    }
    if significant.len() + zeros > 20 {
        return Err(format!(
            "`{text}` is more than the most steps, {}",
            u64::MAX
        ));
    }
    format!("{significant}{}", "0".repeat(zeros))
        .parse()
        .map_err(|_| format!("`{text}` is more than the most steps, {}", u64::MAX))
}

/// `--tail P`: the threshold as digits, `P <= 10^-digits` (a P that is not a
/// power of ten is rounded to the stricter one: 5e-13 gives 13 digits).
pub(crate) fn parse_tail(text: &str) -> Result<u32, String> {
    let p: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("`{text}` is not a probability such as 1e-12"))?;
    if p == 0.0 {
        return Ok(0);
    }
    if !(p > 0.0 && p < 1.0) {
        return Err(format!(
            "`{text}`: the tail threshold is a probability between 0 and 1, such as 1e-12 (0 turns it off)"
        ));
    }
    let digits = (-p.log10() - 1e-9).ceil();
    if digits > 300.0 {
        return Err(format!("`{text}`: at most 1e-300"));
    }
    Ok(digits as u32)
}

#[cfg(test)]
mod tests {
    #[test]
    fn work_limits_are_read_in_digits_or_powers_of_ten() {
        use super::parse_work;
        assert_eq!(parse_work("4000000000"), Ok(4_000_000_000));
        assert_eq!(parse_work("4e9"), Ok(4_000_000_000));
        assert_eq!(parse_work("1E12"), Ok(1_000_000_000_000));
        assert_eq!(parse_work("2.5e10"), Ok(25_000_000_000));
        assert_eq!(parse_work("1.50e2"), Ok(150));
        assert_eq!(parse_work("0"), Ok(0));
        assert_eq!(parse_work("18446744073709551615"), Ok(u64::MAX));
        for bad in [
            "", "x", "1e", "e9", "-1", "1.5", "1.25e1", "1e-3", "1e20", "1e400",
        ] {
            assert!(parse_work(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tail_thresholds_are_read_as_digits() {
        assert_eq!(super::parse_tail("1e-12"), Ok(12));
        assert_eq!(super::parse_tail("1e-15"), Ok(15));
        assert_eq!(super::parse_tail("5e-13"), Ok(13));
        assert_eq!(super::parse_tail("0"), Ok(0));
        assert!(super::parse_tail("2").is_err());
        assert!(super::parse_tail("x").is_err());
    }
}
