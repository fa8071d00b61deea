//! A fight stepped one round at a time, as a virtual table shows it
//! (`cargo run -p nutshell-mls --example step_by_step`, from the repository).

use nutshell_dice::Seeded;
use nutshell_mls::{Fight, FightOptions, Progress, sheet::Side};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let sides = [
        Side::load("examples/mls/duel/knight.toml".as_ref())?,
        Side::load("examples/mls/duel/brigand.toml".as_ref())?,
    ];
    let mut fight = Fight::new(sides, FightOptions::default())?;
    let mut dice = Seeded::new(9);
    loop {
        let progress = fight.step(&mut dice)?;
        let health: Vec<String> = fight
            .fighters()
            .iter()
            .map(|f| format!("{} {} CHP", f.sheet.name, f.chp))
            .collect();
        match progress {
            Progress::Round { turn, round } => {
                println!("turn {turn} round {round}: {}", health.join(", "))
            }
            Progress::Over(ending) => {
                println!("over after {} turns: {}", ending.turns, ending.reason);
                break;
            }
        }
    }
    Ok(())
}
