//! A check of one of the rulesets from a program: rolled from a seed, read
//! step by step, and its exact odds (`cargo run -p nutshell-rules --example check`).

use nutshell_dice::Seeded;
use nutshell_rules::mls;

fn main() -> Result<(), nutshell_rules::RulesError> {
    // The Nutshell MLS: 3d6 + skill + modifiers; 15 succeeds, 20 is a critical.
    let check = mls::Check {
        skill: 12,
        modifier: -2,
    };
    let result = check.roll(&mut Seeded::new(7))?;
    for step in &result.transcript {
        println!("{}  ({})", step.text, step.rule);
    }
    println!("{}", result.outcome.id());
    // The exact probability of every outcome, from the exact engine.
    println!("{}", check.odds()?);
    Ok(())
}
