//! Combatants as TOML files: traits and skills, weapons, armour by location,
//! shield, hit points, Fate Points, minor or major, and a tactic. The schema is
//! documented in `docs/mls/combat.md`.
//!
//! A file holds one combatant (its fields at the top level) or a side
//! (`side = "..."` and one `[[combatant]]` table per member).
//!
//! ```
//! use nutshell_mls::sheet::Side;
//! let side = Side::parse("duelist.toml", r#"
//! name = "Aldric"
//! thp = 14
//! skills = { sword = 12 }
//! weapons = [{ name = "sword", skill = "sword", dam = 8 }]
//! "#)?;
//! assert_eq!(side.name, "Aldric");
//! assert_eq!(side.combatants[0].weapons[0].dam, 8);
//! # Ok::<(), nutshell_mls::FightError>(())
//! ```

use crate::body::{Coverage, Location};
use crate::character::Character;
use crate::error::FightError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use crate::character::primary::Traits;

/// What kind of attack a weapon makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WeaponKind {
    /// Close combat, against an adjacent enemy.
    #[default]
    Melee,
    /// A missile weapon (bow, sling, thrown): a shot (mls, *Shooting*).
    Missile,
    /// An offensive spell, "treated as missile weapons, but use the appropriate
    /// Sphere or Deity skill for their score" (mls, *Offensive Spells*).
    Spell,
}

/// A weapon, or an offensive spell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weapon {
    /// Its name, for the log.
    pub name: String,
    /// The skill it is used with: a key of `skills`.
    pub skill: String,
    /// Its Dam rating.
    pub dam: i64,
    /// Melee, missile or spell.
    #[serde(default)]
    pub kind: WeaponKind,
    /// The range in squares (missiles and spells): shooting beyond it costs -1
    /// for each increment begun beyond it (RULING M-9).
    #[serde(default)]
    pub range: Option<i64>,
    /// Attacks spent reloading after each shot (mls, *Reloading*).
    #[serde(default)]
    pub reload: u32,
    /// Attacks spent preparing before each cast (mls, *Preparing Spells*).
    #[serde(default)]
    pub prepare: u32,
    /// A spell's magic points per cast, spent from the caster's TMP (mls,
    /// *Total Magic Points*; *Time Costs of Actions*: "Cast an offensive
    /// spell: 1 combat action per 2 magic points expended or part thereof").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mp: Option<u32>,
    /// A spear may attack the diagonal squares in front (mls, *Who May
    /// Attack*); used on a battle map.
    #[serde(default)]
    pub spear: bool,
    /// What sort of missile weapon it is, for the arcs it may shoot into on a
    /// battle map (mls, *Who May Shoot*): `bow` (the default) or `thrown`
    /// shoot Forward and Left (Right for the left-handed); `other` (guns,
    /// crossbows) also to the Right.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missile: Option<Launcher>,
}

/// A missile weapon's sort, for its arcs of fire (mls, *Who May Shoot*:
/// "All characters on foot may use throwing weapons and bows to front and
/// left (substitute right if left-handed), and all other weapons (such as
/// guns) also include the right").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Launcher {
    /// A bow.
    #[default]
    Bow,
    /// A throwing weapon.
    Thrown,
    /// Any other missile weapon (a gun, a crossbow).
    Other,
}

impl Weapon {
    /// Whether it shoots (a missile or a spell).
    pub fn is_ranged(&self) -> bool {
        self.kind != WeaponKind::Melee
    }

    /// Attacks spent preparing before each cast: `prepare`, and at least what
    /// the spell's magic points take ("1 combat action per 2 magic points
    /// expended or part thereof", the last of them the cast itself).
    ///
    /// ```
    /// use nutshell_mls::sheet::{Weapon, WeaponKind};
    /// let mut bolt = Weapon { name: "bolt".into(), skill: "fire".into(), dam: 6,
    ///     kind: WeaponKind::Spell, range: Some(10), reload: 0, prepare: 0, mp: Some(5), spear: false, missile: None };
    /// assert_eq!(bolt.actions_to_prepare(), 2); // 5 MP: 3 combat actions
    /// bolt.mp = Some(2);
    /// assert_eq!(bolt.actions_to_prepare(), 0);
    /// ```
    pub fn actions_to_prepare(&self) -> u32 {
        let by_mp = self.mp.map_or(0, |m| m.div_ceil(2).saturating_sub(1));
        self.prepare.max(by_mp)
    }
}

/// A piece of armour: its value, its coverage and the locations it covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Armour {
    /// Its name, for the log.
    #[serde(default)]
    pub name: Option<String>,
    /// The armour value, subtracted from damage.
    pub value: i64,
    /// Partial, full, encased or total.
    pub coverage: Coverage,
    /// The locations it covers; every location when left out.
    #[serde(default)]
    pub locations: Option<Vec<Location>>,
}

impl Armour {
    /// Whether it covers `location`.
    pub fn covers(&self, location: Location) -> bool {
        self.locations
            .as_ref()
            .is_none_or(|ls| ls.contains(&location))
    }
}

/// A shield or parrying weapon (mls, *Shields*).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shield {
    /// Its name, for the log.
    #[serde(default)]
    pub name: Option<String>,
    /// Its armour value, subtracted from a blocked hit.
    pub value: i64,
}

/// How a combatant makes its attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Normal attacks.
    #[default]
    Normal,
    /// Every attack a Total Attack (mls, *Total Attack*).
    TotalAttack,
    /// Every attack a Total Defence (mls, *Total Defence*).
    TotalDefence,
    /// Every attack foregone: rolls when attacked, does no harm (mls,
    /// *Foregoing Attacks*).
    Forego,
}

/// Whom a combatant picks when it may choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TargetChoice {
    /// The first enemy in file order.
    #[default]
    First,
    /// The enemy with the fewest CHP.
    Weakest,
    /// The enemy with the most CHP.
    Strongest,
    /// The nearest enemy (then file order).
    Nearest,
}

/// A set action a combatant may be told to prefer (mls, *Set Actions*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preferred {
    /// Move, then shoot once (mls, *Move and Shoot*).
    MoveAndShoot,
    /// Stand and wait (Respond): attack whoever comes adjacent.
    Respond,
    /// Run from the fight (mls, *Flee!*): a double move away from every
    /// enemy, no attacks.
    Flee,
}

/// The combatant's tactic: what the fight engine chooses for it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tactic {
    /// Normal, total attack, total defence, or forego.
    #[serde(default)]
    pub mode: Mode,
    /// A location every attack is aimed at (RULING M-8); the chest when left out.
    #[serde(default)]
    pub aim: Option<Location>,
    /// How to pick a target.
    #[serde(default)]
    pub target: TargetChoice,
    /// Delay an attack of each turn by this many rounds (+1 each): the first,
    /// or the one `delay_attack` names.
    #[serde(default)]
    pub delay: u32,
    /// Which attack of the turn `delay` applies to (1 for the first).
    #[serde(default = "first", skip_serializing_if = "is_first")]
    pub delay_attack: u32,
    /// Rush an attack of each turn one round early (-2): the first, or the one
    /// `rush_attack` names.
    #[serde(default)]
    pub rush: bool,
    /// Which attack of the turn `rush` applies to (1 for the first).
    #[serde(default = "first", skip_serializing_if = "is_first")]
    pub rush_attack: u32,
    /// Break off and flee when CHP falls below this.
    #[serde(default, deserialize_with = "crate::bounds::hit_points_option")]
    pub break_off_below: Option<i64>,
    /// Dodge shots when not attacking (true unless set false).
    #[serde(default = "yes")]
    pub dodge: bool,
    /// A set action to prefer over the engine's choice, where the rules allow it.
    #[serde(default)]
    pub action: Option<Preferred>,
    /// With a Total Attack: stop the chain after this many hits (mls, *Total
    /// Attack*: "continuing to attack until he has hit all enemies,
    /// voluntarily stops his attacks or fails an attack"); no limit when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop_after: Option<u32>,
    /// A full-turn action outside the set actions, tried every turn of its
    /// side instead of fighting ("search the wall", "pick the lock"): it takes
    /// effect at the turn's end unless an attack interrupts it (mls, *Set
    /// Actions*; *3. Turn Actions*).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_action: Option<String>,
}

fn yes() -> bool {
    true
}

fn first() -> u32 {
    1
}

fn is_first(n: &u32) -> bool {
    *n == 1
}

impl Tactic {
    /// The penalty of aiming (RULING M-8), 0 when not aiming.
    pub fn aim_penalty(&self) -> i64 {
        self.aim
            .and_then(Location::aim)
            .map_or(0, |(penalty, _)| penalty)
    }
}

impl Default for Tactic {
    fn default() -> Tactic {
        Tactic {
            mode: Mode::Normal,
            aim: None,
            target: TargetChoice::First,
            delay: 0,
            delay_attack: 1,
            rush: false,
            rush_attack: 1,
            break_off_below: None,
            dodge: true,
            action: None,
            stop_after: None,
            turn_action: None,
        }
    }
}

/// One combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Combatant {
    /// Its name, unique in the fight.
    pub name: String,
    /// A minor NPC (mls, *Minors*; RULING M-5, M-7).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub minor: bool,
    /// Primary traits.
    #[serde(default)]
    pub traits: Traits,
    /// Skills by name (the weapons' `skill` keys, `dodge`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub skills: BTreeMap<String, i64>,
    /// Total Hit Points.
    pub thp: i64,
    /// Current Hit Points at the start (THP when left out).
    #[serde(default, deserialize_with = "crate::bounds::hit_points_option")]
    pub chp: Option<i64>,
    /// The Shock trait for shock rolls (Body when left out).
    #[serde(default, deserialize_with = "crate::bounds::shock_option")]
    pub shock: Option<i64>,
    /// Fate Points.
    #[serde(default)]
    pub fate_points: u32,
    /// Magic points at the start of the fight, spent by spells with `mp`
    /// (the character's TMP when left out).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "crate::bounds::magic_points_option"
    )]
    pub tmp: Option<i64>,
    /// Weapons and offensive spells; the first melee one is used in close
    /// combat, the first ranged one for shooting.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weapons: Vec<Weapon>,
    /// Armour pieces; on a location, the best piece covering it counts.
    #[serde(default, alias = "armor", skip_serializing_if = "Vec::is_empty")]
    pub armour: Vec<Armour>,
    /// A shield or parrying weapon.
    #[serde(default)]
    pub shield: Option<Shield>,
    /// The tactic.
    #[serde(default)]
    pub tactic: Tactic,
    /// Squares behind its side's front line (see `docs/mls/combat.md`); 0, on
    /// the line, when left out.
    #[serde(default)]
    pub position: Option<i64>,
    /// Its length in squares on a battle map (1 when left out): a long
    /// creature occupies its square and those behind it, and pays 2
    /// movement points to turn to the rear (mls, *Forward Movement*).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// Left-handed: throwing weapons and bows shoot to the Right arc instead
    /// of the Left (mls, *Who May Shoot*).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left_handed: bool,
    /// A trained horse archer, mounted: may also shoot to the Rear (mls,
    /// *Who May Shoot*: "Trained horse archers will usually be able to fire
    /// to the rear when mounted and riding away").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub horse_archer: bool,
    /// A player character's sheet: race, age, secondary traits, personality,
    /// CPs and the ledger (`docs/mls/characters.md`). Its secondary traits
    /// become skills when the combatant is read for a fight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub character: Option<Character>,
}

impl Combatant {
    /// The skill's level (0 when it has none).
    pub fn skill(&self, name: &str) -> i64 {
        self.skills.get(name).copied().unwrap_or(0)
    }

    /// Magic points at the start of a fight: `tmp`, else the character's TMP.
    pub fn magic_points(&self) -> Option<i64> {
        self.tmp
            .or_else(|| self.character.as_ref().and_then(|c| c.tmp))
    }

    /// The first melee weapon.
    pub fn melee(&self) -> Option<&Weapon> {
        self.weapons.iter().find(|w| !w.is_ranged())
    }

    /// The first missile weapon or spell.
    pub fn ranged(&self) -> Option<&Weapon> {
        self.weapons.iter().find(|w| w.is_ranged())
    }

    /// The Shock trait: `shock`, or Body.
    pub fn shock_trait(&self) -> i64 {
        self.shock.unwrap_or(self.traits.body)
    }

    /// The dodge score: the `dodge` skill, or Agility.
    pub fn dodge(&self) -> i64 {
        self.skills
            .get("dodge")
            .copied()
            .unwrap_or(self.traits.agility)
    }

    /// Its length in squares on a battle map (1 unless `length` says more).
    pub fn squares_long(&self) -> u32 {
        self.length.unwrap_or(1).max(1)
    }

    /// Squares moved by a Move, Charge or Move and Shoot: "up to their Agl+1".
    pub fn movement(&self) -> i64 {
        (self.traits.agility + 1).max(0)
    }

    /// The armour on `location`: "the location hit can never give more
    /// protection than the armor covering it"; the best piece covering it.
    pub fn armour_on(&self, location: Location) -> Option<&Armour> {
        self.armour
            .iter()
            .filter(|a| a.covers(location))
            .max_by_key(|a| a.value)
    }
}

/// The longest combatant, in squares.
pub const MAX_LENGTH: u32 = 10;

/// A side: a name and its combatants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Side {
    /// The side's name.
    pub name: String,
    /// Player characters: they act first unless surprised (mls, *Party Turns
    /// and Turn Order*).
    pub pcs: bool,
    /// Its combatants.
    pub combatants: Vec<Combatant>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    side: Option<String>,
    #[serde(default)]
    pcs: bool,
    #[serde(default)]
    combatant: Vec<Combatant>,
}

/// Line of a byte offset in `text`, counting from 1.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

/// The line of a field of the combatant named `name`, such as `thp`,
/// `tactic.delay` or `weapons[0] (axe).skill` (found after the weapon's name):
/// the best place to point at for a value serde accepted but the rules do not.
fn field_line(text: &str, name: &str, field: &str) -> Option<usize> {
    let at_name = text.find(&format!("\"{name}\""))?;
    let start = text[..at_name].rfind("[[combatant]]").unwrap_or(0);
    let end = text[at_name..]
        .find("[[combatant]]")
        .map_or(text.len(), |o| at_name + o);
    let mut from = start;
    // A weapon's or piece's name in parentheses anchors the search.
    if let Some(open) = field.find(" (")
        && let Some(close) = field[open..].find(')')
    {
        let anchor = format!("\"{}\"", &field[open + 2..open + close]);
        if let Some(o) = text[from..end].find(&anchor) {
            from += o;
        }
    }
    let key = field.rsplit('.').next().unwrap_or(field);
    let key = key.split(['[', ' ']).next().unwrap_or(key);
    let block = &text[from..end];
    let found = block.match_indices(key).find(|&(i, _)| {
        let before = block[..i].chars().next_back();
        let after = block[i + key.len()..].trim_start();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with('=')
    });
    Some(line_of(text, from + found.map_or(0, |(i, _)| i)))
}

/// The line where a dotted field path is written in `text`: each segment is
/// looked for after the previous one (a heuristic: the first match).
pub fn line_of_field(text: &str, field: &str) -> Option<usize> {
    let mut at = 0;
    let mut found = false;
    for seg in field.split('.') {
        let seg = seg.split('[').next().unwrap_or(seg);
        let bytes = text.as_bytes();
        let mut from = at;
        let mut hit = None;
        while let Some(i) = text[from..].find(seg) {
            let s = from + i;
            let e = s + seg.len();
            let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
            let before_ok = s == 0 || !word(bytes[s - 1]);
            let after_ok = e >= bytes.len() || !word(bytes[e]);
            // A key: not in a comment, followed by `=`, `.` or `]`.
            let line_start = text[..s].rfind('\n').map_or(0, |n| n + 1);
            let commented = text[line_start..s].contains('#');
            let key = text[e..]
                .trim_start_matches([' ', '\t'])
                .starts_with(['=', '.', ']']);
            if before_ok && after_ok && !commented && key {
                hit = Some(s);
                break;
            }
            from = e;
        }
        match hit {
            Some(s) => {
                at = s;
                found = true;
            }
            None => continue,
        }
    }
    found.then(|| text[..at].matches('\n').count() + 1)
}

/// A character sheet fights as the combatant it is: its character table's
/// traits become skills when its side is read ([`Side::parse`]).
impl Character {
    /// Makes `combatant` ready to fight: the occupation and secondary traits
    /// become skills (a skill the sheet also gives must agree), and a trait
    /// trained up counts one higher.
    pub fn fighting(&self, combatant: &mut Combatant) -> Result<(), (String, String)> {
        let scores = self.scores(&combatant.traits)?;
        for (k, v) in scores {
            // Traits and levels are bounded when read, so the score is
            // exact; it must still be a skill (RULING N-1).
            if let Err(why) = crate::bounds::SKILL.check(v) {
                let field = if k == self.occupation.name {
                    "character.occupation.level".to_string()
                } else {
                    format!("character.secondary.{k}.level")
                };
                return Err((field, format!("{k} = base + level = {why}")));
            }
            match combatant.skills.get(&k) {
                Some(given) if *given != v => {
                    return Err((
                        format!("skills.{k}"),
                        format!(
                            "is {given}, but the character's trait {k} is {v} (base + level): leave it out of skills"
                        ),
                    ));
                }
                _ => {
                    combatant.skills.insert(k, v);
                }
            }
        }
        combatant.traits = self.effective_traits(&combatant.traits);
        Ok(())
    }
}

/// Reads `text`, the file `file`, as a `T` as written
/// (`nutshell_rules::toml_file`: a list where a table is expected is
/// refused); errors give the file, the line, the key and what is wrong.
pub fn read<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, FightError> {
    nutshell_rules::toml_file::from_str(text).map_err(|e| FightError::File(format!("{file}: {e}")))
}

/// The most combatants one side may have.
pub const MAX_COMBATANTS: usize = 1000;

impl Side {
    /// Reads a side (or one combatant) from TOML text; `file` names it in errors,
    /// which give the field and the line.
    pub fn parse(file: &str, text: &str) -> Result<Side, FightError> {
        let bad =
            |e: nutshell_rules::toml_file::FileError| FightError::File(format!("{file}: {e}"));
        // One parse: the top-level keys say which shape the file has.
        let document = nutshell_rules::toml_file::Document::parse(text).map_err(bad)?;
        let side = if document.has_key("combatant") || document.has_key("side") {
            let f: SideFile = document.read().map_err(bad)?;
            let name = f.side.unwrap_or_else(|| {
                let names: Vec<&str> = f.combatant.iter().map(|c| c.name.as_str()).collect();
                names.join(", ")
            });
            Side {
                name,
                pcs: f.pcs,
                combatants: f.combatant,
            }
        } else {
            let c: Combatant = document.read().map_err(bad)?;
            return Side::of_one(file, text, c);
        };
        Side::made(file, text, side)
    }

    /// The side of one combatant already read from `text` (the file
    /// `file`), made ready to fight and checked as [`Side::parse`] does.
    pub fn of_one(file: &str, text: &str, c: Combatant) -> Result<Side, FightError> {
        let side = Side {
            name: c.name.clone(),
            pcs: false,
            combatants: vec![c],
        };
        Side::made(file, text, side)
    }

    /// Characters' traits made skills, then every check.
    fn made(file: &str, text: &str, side: Side) -> Result<Side, FightError> {
        let mut side = side;
        for c in &mut side.combatants {
            if let Some(character) = c.character.take() {
                let made = character.fighting(c);
                c.character = Some(character);
                made.map_err(|(field, why)| {
                    let line = line_of_field(text, &field)
                        .map(|l| format!("line {l}: "))
                        .unwrap_or_default();
                    FightError::File(format!(
                        "{file}: {line}combatant {:?}: {field}: {why}",
                        c.name
                    ))
                })?;
            }
        }
        side.check(file, text)?;
        Ok(side)
    }

    /// Reads a side from a file.
    pub fn load(path: &std::path::Path) -> Result<Side, FightError> {
        let shown = path.display().to_string();
        let text =
            std::fs::read_to_string(path).map_err(|e| FightError::File(format!("{shown}: {e}")))?;
        Side::parse(&shown, &text)
    }

    /// The checks serde cannot make: every value in range, every weapon's
    /// skill known. Errors name the combatant, the field and its line.
    fn check(&self, file: &str, text: &str) -> Result<(), FightError> {
        if self.combatants.is_empty() {
            return Err(FightError::File(format!(
                "{file}: no combatants: give one combatant's fields, or [[combatant]] tables"
            )));
        }
        if self.combatants.len() > MAX_COMBATANTS {
            return Err(FightError::File(format!(
                "{file}: {} combatants: at most {MAX_COMBATANTS} on a side",
                self.combatants.len()
            )));
        }
        // The line where a combatant's table starts, found by its name.
        let name_line = |name: &str| {
            let needle = format!("\"{name}\"");
            text.find(&needle)
                .map(|o| format!("line {}: ", line_of(text, o)))
                .unwrap_or_default()
        };
        for c in &self.combatants {
            let bad = |field: &str, why: String| {
                let line = field_line(text, &c.name, field)
                    .map(|l| format!("line {l}: "))
                    .unwrap_or_default();
                FightError::File(format!(
                    "{file}: {line}combatant {:?}: {field}: {why}",
                    c.name
                ))
            };
            if c.name.trim().is_empty() {
                return Err(FightError::File(format!(
                    "{file}: a combatant has an empty name"
                )));
            }
            let thp = &crate::bounds::THP.range;
            if !thp.contains(&c.thp) {
                return Err(bad(
                    "thp",
                    format!(
                        "{} is not a number of hit points from {} to {}",
                        c.thp,
                        thp.start(),
                        thp.end()
                    ),
                ));
            }
            if let Some(chp) = c.chp
                && !(-c.thp..=c.thp).contains(&chp)
            {
                return Err(bad(
                    "chp",
                    format!("{chp} must lie between -THP and THP ({})", c.thp),
                ));
            }
            for (k, v) in &c.skills {
                crate::bounds::SKILL
                    .check(*v)
                    .map_err(|why| bad(&format!("skills.{k}"), why))?;
            }
            if c.fate_points > 100 {
                return Err(bad(
                    "fate_points",
                    format!("{} is more than 100", c.fate_points),
                ));
            }
            for (i, w) in c.weapons.iter().enumerate() {
                let field = format!("weapons[{i}] ({})", w.name.escape_debug());
                if !c.skills.contains_key(&w.skill) {
                    return Err(bad(
                        &format!("{field}.skill"),
                        format!(
                            "{:?} is not one of its skills ({})",
                            w.skill,
                            c.skills.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
                crate::bounds::DAM
                    .check(w.dam)
                    .map_err(|why| bad(&format!("{field}.dam"), why))?;
                match (w.is_ranged(), w.range) {
                    (true, None) => {
                        return Err(bad(
                            &format!("{field}.range"),
                            "a missile weapon or spell needs a range in squares".into(),
                        ));
                    }
                    (_, Some(r)) if !crate::bounds::SQUARES.range.contains(&r) => {
                        return Err(bad(
                            &format!("{field}.range"),
                            crate::bounds::SQUARES.check(r).unwrap_err(),
                        ));
                    }
                    _ => {}
                }
                if !w.is_ranged() && (w.range.is_some() || w.reload > 0 || w.prepare > 0) {
                    return Err(bad(&field, "range, reload and prepare are for missile weapons and spells (kind = \"missile\" or \"spell\")".into()));
                }
                if w.reload > 20 || w.prepare > 20 {
                    return Err(bad(
                        &field,
                        "reload and prepare are at most 20 attacks".into(),
                    ));
                }
            }
            for (i, a) in c.armour.iter().enumerate() {
                if a.locations.as_ref().is_some_and(Vec::is_empty) {
                    return Err(bad(
                        &format!("armour[{i}].locations"),
                        "an empty list covers nothing: leave locations out to cover every location"
                            .into(),
                    ));
                }
                crate::bounds::DAM
                    .check(a.value)
                    .map_err(|why| bad(&format!("armour[{i}].value"), why))?;
            }
            if let Some(s) = &c.shield {
                crate::bounds::DAM
                    .check(s.value)
                    .map_err(|why| bad("shield.value", why))?;
            }
            if let Some(p) = c.position
                && !crate::bounds::POSITION.range.contains(&p)
            {
                return Err(bad(
                    "position",
                    format!("{p}: squares behind the side's line, 0..10000"),
                ));
            }
            if let Some(n) = c.length
                && !(1..=MAX_LENGTH).contains(&n)
            {
                return Err(bad(
                    "length",
                    format!("{n}: a combatant is 1..{MAX_LENGTH} squares long"),
                ));
            }
            if c.tactic.delay > 4 {
                return Err(bad(
                    "tactic.delay",
                    format!(
                        "{} rounds: a turn has five rounds, so at most 4",
                        c.tactic.delay
                    ),
                ));
            }
            if let Some(tmp) = c.tmp {
                crate::bounds::MAGIC_POINTS
                    .check(tmp)
                    .map_err(|why| bad("tmp", why))?;
            }
            for w in &c.weapons {
                let Some(mp) = w.mp else { continue };
                if w.kind != WeaponKind::Spell {
                    return Err(bad(
                        "weapons",
                        format!(
                            "{}: mp (magic points) is for spells (kind = \"spell\")",
                            w.name
                        ),
                    ));
                }
                if c.magic_points().is_none() {
                    return Err(bad(
                        "tmp",
                        format!(
                            "{} costs {mp} magic point(s): give the caster's magic points (tmp = N)",
                            w.name
                        ),
                    ));
                }
            }
            for (field, n) in [
                ("tactic.delay_attack", c.tactic.delay_attack),
                ("tactic.rush_attack", c.tactic.rush_attack),
            ] {
                if !(1..=5).contains(&n) {
                    return Err(bad(
                        field,
                        format!("{n}: the attacks of a turn are numbered 1 to 5"),
                    ));
                }
            }
        }
        let mut names: Vec<&str> = self.combatants.iter().map(|c| c.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(FightError::File(format!(
                "{file}: {}two combatants are named {:?}: names must be unique",
                name_line(w[0]),
                w[0]
            )));
        }
        Ok(())
    }
}
