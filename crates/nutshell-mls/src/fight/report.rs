//! A fight's outcome as data: what `nutshell mls fight --json` prints and
//! what the table server stores, built in one place so they agree.

use serde::Serialize;

use super::{EarnedCheck, Ending, Fight};
use crate::log::Line;

/// Everything a finished (or stopped) fight can tell: the sides, who acted
/// first, the whole log round by round, how it ended, every combatant's
/// state and the checks on secondary traits earned.
///
/// ```
/// use nutshell_dice::Seeded;
/// use nutshell_mls::sheet::Side;
/// use nutshell_mls::{Fight, FightOptions};
/// let side = |name: &str| Side::parse(name, &format!(
///     "name = \"{name}\"\nthp = 12\ntraits = {{ strength = 3, body = 3, agility = 2 }}\n\
///      skills = {{ sword = 7 }}\nweapons = [{{ name = \"sword\", skill = \"sword\", dam = 6 }}]\n"));
/// let mut fight = Fight::new([side("Ann")?, side("Bo")?], FightOptions::default())?;
/// let ending = fight.run(&mut Seeded::new(1))?;
/// let report = fight.report(&ending);
/// assert_eq!(report.sides[..], ["Ann", "Bo"]);
/// assert!(!report.log.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FightReport<'a> {
    /// The two sides' names.
    pub sides: &'a [String; 2],
    /// The side that acted first.
    pub first: &'a str,
    /// The log, line by line, each with its turn and round.
    pub log: &'a [Line],
    /// How the fight ended.
    pub ending: EndingReport,
    /// Every combatant at the end.
    pub combatants: Vec<CombatantReport<'a>>,
    /// Checks on secondary traits earned (mls, *Checks on Secondary Traits*).
    pub checks: Vec<EarnedCheck>,
    /// The battle map as the fight began (none for a fight on the line): with
    /// the log's `positions`, `opened` and `closed`, a viewer replays the
    /// fight on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<MapReport>,
}

/// A battle map as data: its name and its rows of legend characters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MapReport {
    /// The map's name.
    pub name: String,
    /// The rows, top to bottom, one legend character a square.
    pub rows: Vec<String>,
}

/// How a fight ended, with the winner by name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct EndingReport {
    /// The winning side's name; none for a draw.
    pub winner: Option<String>,
    /// Turns played.
    pub turns: u32,
    /// Why it ended, in words.
    pub reason: String,
}

/// One combatant at the end of a fight.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CombatantReport<'a> {
    /// The combatant's name.
    pub name: &'a str,
    /// Its side's name.
    pub side: &'a str,
    /// Current hit points.
    pub chp: i64,
    /// Total hit points.
    pub thp: i64,
    /// `standing`, `unconscious`, `dead`...
    pub state: &'static str,
    /// Fate points left.
    pub fate_points: u32,
    /// On a map: its square at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    /// On a map: its facing at the end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facing: Option<&'static str>,
}

impl Fight {
    /// The fight as data, after `ending`.
    pub fn report(&self, ending: &Ending) -> FightReport<'_> {
        let names = self.side_names();
        FightReport {
            sides: names,
            first: &names[self.first_side()],
            log: self.log(),
            ending: EndingReport {
                winner: ending.winner.map(|w| names[w].clone()),
                turns: ending.turns,
                reason: ending.reason.clone(),
            },
            combatants: self
                .fighters()
                .iter()
                .map(|f| CombatantReport {
                    name: &f.sheet.name,
                    side: &names[f.side],
                    chp: f.chp,
                    thp: f.sheet.thp,
                    state: f.state.name(),
                    fate_points: f.fate_points,
                    square: f.pose.map(|p| p.square.to_string()),
                    facing: f.pose.map(|p| p.facing.name()),
                })
                .collect(),
            checks: self.earned_checks(),
            map: self.map_at_start().map(|m| MapReport {
                name: m.name.clone(),
                rows: m.rows(),
            }),
        }
    }
}
