//! Fights played at random, as OpenSpiel's `random_sim_test` plays games
//! (docs/mls/combat.md, "Playing a fight by decisions"; P-80, P-89).
//!
//! Every combatant is played by decisions answered with an option picked at
//! random among those offered, on the line, on every example map and on
//! generated maps, with random hand-overs to the engine and back at random
//! points and answers sent twice. After every answer:
//!
//! - a fight not over awaits at least one decision, and each decision
//!   awaited has at least one option;
//! - every option offered is accepted (a sample of each decision's, and its
//!   default);
//! - an answer to a decision already answered is refused, whatever is
//!   asked next;
//! - every fight ends;
//! - replaying the same hand-overs and answers on the same dice gives the
//!   same fight, line for line.
//!
//! `cargo test` plays 120 fights on each example setting and 1,200 on
//! generated maps (2,040 in all); `NUTSHELL_PLAYOUTS=N` plays N per example
//! setting and ten times N on generated maps instead (the soak of
//! docs/mls/combat.md).

use super::{combatant, side, text};
use nutshell_dice::Seeded;
use nutshell_mls::fight::{Controller, Next, Play};
use nutshell_mls::map::BattleMap;
use nutshell_mls::sheet::Side;
use nutshell_mls::{Fight, FightOptions, Progress};
use std::sync::Arc;

/// A small generator of our own (SplitMix64), so the playouts do not
/// depend on the dice they check.
struct Pick(u64);

impl Pick {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// What a playout did, so that it can be replayed.
#[derive(Debug, Clone)]
enum Act {
    Hand(usize, Controller),
    Answer(String, nutshell_mls::fight::Choice),
}

/// One setting: two sides and the options (a map or the line).
struct Setting {
    name: String,
    a: Side,
    b: Side,
    options: FightOptions,
}

fn example(path: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/mls/");
    std::fs::read_to_string(format!("{root}{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn example_side(path: &str) -> Side {
    Side::parse(path, &example(path)).unwrap_or_else(|e| panic!("{e}"))
}

fn on_map(map: &str) -> FightOptions {
    FightOptions {
        map: Some(Arc::new(BattleMap::parse("map.toml", map).unwrap())),
        max_turns: 40,
        ..FightOptions::default()
    }
}

/// The example sides, on the line and on the example maps they fit.
fn examples() -> Vec<Setting> {
    let duel = || {
        (
            example_side("duel/knight.toml"),
            example_side("duel/brigand.toml"),
        )
    };
    let skirmish = || {
        (
            example_side("skirmish/party.toml"),
            example_side("skirmish/goblins.toml"),
        )
    };
    let archers = || {
        (
            example_side("archers/left.toml"),
            example_side("archers/right.toml"),
        )
    };
    let line = |distance| FightOptions {
        distance,
        max_turns: 40,
        ..FightOptions::default()
    };
    let mut all = Vec::new();
    let mut add = |name: &str, (a, b): (Side, Side), options| {
        all.push(Setting {
            name: name.to_string(),
            a,
            b,
            options,
        })
    };
    add("the duel on the line", duel(), line(3));
    add("the skirmish on the line", skirmish(), line(4));
    add("the archers on the line", archers(), line(12));
    add(
        "the duel in the corridor",
        duel(),
        on_map(&example("maps/corridor.toml")),
    );
    add(
        "the duel in the crypt",
        duel(),
        on_map(&example("maps/crypt.toml")),
    );
    add(
        "the skirmish at the crossroads",
        skirmish(),
        on_map(&example("maps/crossroads.toml")),
    );
    add(
        "the archers in the pillared hall",
        archers(),
        on_map(&example("maps/pillars.toml")),
    );
    all
}

/// A generated map: open ground with walls here and there, two or three
/// fighters a side (swordsmen, an archer) placed at random.
fn generated(pick: &mut Pick) -> Setting {
    let (w, h) = (6 + pick.below(9), 4 + pick.below(5));
    let mut rows: Vec<Vec<char>> = (0..h)
        .map(|_| {
            (0..w)
                .map(|_| if pick.chance(7) { '#' } else { '.' })
                .collect()
        })
        .collect();
    let mut free: Vec<(usize, usize)> = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.iter().enumerate() {
            if *c == '.' {
                free.push((x, y));
            }
        }
    }
    let mut names = Vec::new();
    let mut sides = [String::new(), String::new()];
    for s in 0..2 {
        for k in 0..1 + pick.below(3) {
            let name = format!("{}{}", ["Ann", "Bob"][s], k + 1);
            let archer = pick.chance(3);
            let extra = if archer {
                "weapons = [{ name = \"bow\", skill = \"blade\", dam = 5, kind = \"missile\", range = 12 }]\n"
            } else {
                ""
            };
            let mut text = combatant(
                &name,
                9 + pick.below(5) as i64,
                4 + pick.below(6) as i64,
                14 + pick.below(12) as i64,
                "",
            );
            if archer {
                // The archer's bow replaces the blade.
                text = text
                    .lines()
                    .filter(|l| !l.starts_with("weapons"))
                    .collect::<Vec<_>>()
                    .join("\n");
                text += "\n";
                text += extra;
            }
            sides[s] += &text;
            names.push(name);
        }
    }
    let facings = ["north", "east", "south", "west"];
    let mut map = String::new();
    for name in &names {
        let at = free.swap_remove(pick.below(free.len()));
        map += &format!(
            "[[start]]\nwho = \"{name}\"\nat = \"{}{}\"\nfacing = \"{}\"\n",
            (b'A' + at.0 as u8) as char,
            at.1 + 1,
            facings[pick.below(4)]
        );
        rows[at.1][at.0] = '.';
    }
    let rows: Vec<String> = rows.iter().map(|r| r.iter().collect()).collect();
    let text = format!("rows = '''\n{}\n'''\n{map}", rows.join("\n"));
    Setting {
        name: format!("a generated map:\n{text}"),
        a: side(&sides[0]),
        b: side(&sides[1]),
        options: on_map(&text),
    }
}

fn controller(pick: &mut Pick) -> Controller {
    if pick.chance(4) {
        Controller::Engine
    } else {
        Controller::Person
    }
}

/// The counts of a run of playouts.
#[derive(Default, Debug)]
struct Counts {
    fights: usize,
    answers: usize,
    checked_options: usize,
    hand_overs: usize,
    doubles: usize,
}

/// Plays one fight at random; panics with the setting and the log on the
/// first broken invariant. Returns what it did.
fn playout(setting: &Setting, seed: u64, counts: &mut Counts) -> (Vec<(usize, Act)>, Fight) {
    let mut pick = Pick(seed);
    let fight = Fight::new(
        [setting.a.clone(), setting.b.clone()],
        setting.options.clone(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", setting.name));
    let n = fight.fighters().len();
    let controllers = (0..n).map(|_| controller(&mut pick)).collect();
    let mut play = Play::new(fight, controllers);
    let mut dice = Seeded::new(seed);
    let mut script: Vec<(usize, Act)> = Vec::new();
    let mut answered: Vec<String> = Vec::new();
    let fail = |play: &Play, what: String| -> ! {
        let waiting: Vec<String> = play
            .pending_all()
            .iter()
            .map(|d| format!("{} ({})", d.id, d.question))
            .collect();
        let so_far: Vec<&str> = play.so_far().iter().map(|l| l.text.as_str()).collect();
        panic!(
            "{} (seed {seed}): {what}\n{}\nthe round so far: {so_far:#?}\nwaiting: {waiting:#?}",
            setting.name,
            text(play.fight())
        )
    };
    for step in 0.. {
        if step > 5_000 {
            fail(&play, "the fight does not end".into());
        }
        if pick.chance(8) {
            let (i, c) = (pick.below(n), controller(&mut pick));
            play.set_controller(i, c).unwrap();
            script.push((step, Act::Hand(i, c)));
            counts.hand_overs += 1;
        }
        match play.advance(&mut dice) {
            Ok(Next::Step(Progress::Over(_))) => break,
            Ok(Next::Step(Progress::Round { .. })) => {
                fail(&play, "advance stopped at a round".into())
            }
            Ok(Next::Decide(_)) => {}
            Err(e) => fail(&play, format!("the fight failed: {e}")),
        }
        let pending = play.pending_all().to_vec();
        if pending.is_empty() {
            fail(&play, "a fight not over awaits nobody".into());
        }
        for d in &pending {
            if d.options.is_empty() {
                fail(&play, format!("a decision with no option: {d:?}"));
            }
            // Asked again after its answer only when the answer no longer
            // held once the fight reached it (another member acted first, a
            // hand-over), saying so.
            if answered.contains(&d.id) && !d.question.contains("no longer holds") {
                fail(
                    &play,
                    format!("decision {} is asked again after its answer", d.id),
                );
            }
            // What is offered is accepted: the default and a sample of the
            // options.
            let sample = [
                d.default.clone(),
                d.options[pick.below(d.options.len())].choice.clone(),
            ];
            for choice in sample {
                let mut trial = play.clone();
                if let Err(e) = trial.answer_id(&d.id, choice.clone(), Controller::Person) {
                    fail(
                        &play,
                        format!(
                            "{}'s {:?} offers {choice:?}, then refuses it: {e}",
                            d.name, d.kind
                        ),
                    );
                }
                counts.checked_options += 1;
            }
        }
        // Answer one of them (members answer in any order), sometimes twice.
        let d = &pending[pick.below(pending.len())];
        let choice = d.options[pick.below(d.options.len())].choice.clone();
        play.answer_id(&d.id, choice.clone(), Controller::Person)
            .unwrap_or_else(|e| fail(&play, format!("{e}")));
        answered.push(d.id.clone());
        script.push((step, Act::Answer(d.id.clone(), choice.clone())));
        counts.answers += 1;
        if pick.chance(3) {
            counts.doubles += 1;
            if play.answer_id(&d.id, choice, Controller::Person).is_ok() {
                fail(&play, format!("decision {} was answered twice", d.id));
            }
        }
    }
    counts.fights += 1;
    (script, play.fight().clone())
}

/// Replays `script` on the same setting and seed: the same fight.
fn replay(setting: &Setting, seed: u64, script: &[(usize, Act)], expected: &Fight) {
    let mut pick = Pick(seed);
    let fight = Fight::new(
        [setting.a.clone(), setting.b.clone()],
        setting.options.clone(),
    )
    .unwrap();
    let n = fight.fighters().len();
    let controllers = (0..n).map(|_| controller(&mut pick)).collect();
    let mut play = Play::new(fight, controllers);
    let mut dice = Seeded::new(seed);
    let mut acts = script.iter().peekable();
    for step in 0.. {
        while let Some((_, Act::Hand(i, c))) = acts.peek().filter(|(s, _)| *s == step) {
            play.set_controller(*i, *c).unwrap();
            acts.next();
        }
        if let Ok(Next::Step(Progress::Over(_))) = play.advance(&mut dice) {
            break;
        }
        match acts.next() {
            Some((_, Act::Answer(id, choice))) => play
                .answer_id(id, choice.clone(), Controller::Person)
                .unwrap(),
            other => panic!(
                "{}: the replay parts from the play at {other:?}",
                setting.name
            ),
        }
    }
    assert_eq!(
        text(play.fight()),
        text(expected),
        "{} (seed {seed}): the replay differs",
        setting.name
    );
}

/// Prints a run's counts and keeps them in the build's temporary directory
/// (`random-play-counts.txt`), which `.ci/test` shows at its end: a passing
/// test's output is otherwise not shown. (The server's played fights keep
/// theirs the same way: each crate's tests build alone.)
fn report(line: &str) {
    use std::io::Write;
    println!("{line}");
    let path = concat!(env!("CARGO_TARGET_TMPDIR"), "/random-play-counts.txt");
    if let Ok(mut file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
    {
        let _ = writeln!(file, "{line}");
    }
}

fn fights_per_setting(default: usize) -> usize {
    std::env::var("NUTSHELL_PLAYOUTS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(default)
}

/// Plays every setting `per` times; every eighth fight is replayed from
/// its hand-overs and answers and must come out the same.
fn run(settings: &[Setting], per: usize, salt: u64) -> Counts {
    let mut counts = Counts::default();
    for (k, setting) in settings.iter().enumerate() {
        for f in 0..per {
            let seed = salt ^ ((k as u64) << 32 | f as u64);
            let (script, fight) = playout(setting, seed, &mut counts);
            if f % 8 == 0 {
                replay(setting, seed, &script, &fight);
            }
        }
    }
    counts
}

/// mls, *Set Actions* (P-80, P-89), and the guide's random playouts: fights
/// on the line and on the example maps, played at random by persons and
/// the engine in turn, never stall, never refuse what they offer, never
/// take an answer twice, end, and replay the same.
#[test]
fn random_playouts_on_the_line_never_stall() {
    let settings: Vec<Setting> = examples()
        .into_iter()
        .filter(|s| s.options.map.is_none())
        .collect();
    let counts = run(&settings, fights_per_setting(120), 0x5EED);
    report(&format!("playouts on the line: {counts:?}"));
    assert_eq!(counts.fights, settings.len() * fights_per_setting(120));
}

/// The same on the example maps.
#[test]
fn random_playouts_on_the_example_maps_never_stall() {
    let settings: Vec<Setting> = examples()
        .into_iter()
        .filter(|s| s.options.map.is_some())
        .collect();
    let counts = run(&settings, fights_per_setting(120), 0x5EED ^ 0x3A9);
    report(&format!("playouts on the example maps: {counts:?}"));
    assert_eq!(counts.fights, settings.len() * fights_per_setting(120));
}

/// The same on generated maps.
#[test]
fn random_playouts_on_generated_maps_never_stall() {
    let per = fights_per_setting(120) * 10;
    let mut pick = Pick(0xA11CE);
    let mut counts = Counts::default();
    for f in 0..per {
        let setting = generated(&mut pick);
        let (script, fight) = playout(&setting, f as u64, &mut counts);
        if f % 8 == 0 {
            replay(&setting, f as u64, &script, &fight);
        }
    }
    report(&format!("playouts on generated maps: {counts:?}"));
    assert_eq!(counts.fights, per);
}

/// Replaying a playout's hand-overs and answers on the same dice gives the
/// same fight, line for line, and a changed answer gives another fight (so
/// the comparison can fail).
#[test]
fn a_playout_replays_the_same_and_a_changed_answer_does_not() {
    let settings = examples();
    let setting = &settings[3];
    let mut counts = Counts::default();
    let (script, fight) = playout(setting, 7, &mut counts);
    replay(setting, 7, &script, &fight);
    let changed = std::panic::catch_unwind(|| {
        let mut other = script.clone();
        other.truncate(script.len() / 2);
        replay(setting, 7, &other, &fight)
    });
    assert!(
        changed.is_err(),
        "a script cut short replays the same fight"
    );
}
