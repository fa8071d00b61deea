"""The module answers as the command line does: ``to_dict()`` equals the
command line's ``--json`` for seeded rolls, exact odds, the rulesets'
checks, contests and odds, and MLS fights and simulations."""

from __future__ import annotations

import pytest

import nutshell
from nutshell import mls

ROLLS = ["4d6kh3+2", "2d20kh1 + 5", "8d10>=7", "3d6! >= 20", "2d6[fire] + 1d4[cold]",
         "{3d6, 2d8+1}kh1", "10d6!", "4d6r1kh3", "1d20 + floor(1d6 / 2)", "5d10!p"]


@pytest.mark.parametrize("expression", ROLLS)
@pytest.mark.parametrize("seed", [1, 7, 2**63])
def test_seeded_rolls_equal_the_command_line(cli, expression: str, seed: int) -> None:
    r = nutshell.roll(expression, seed=seed)
    expected = cli("roll", expression, "--seed", str(seed), "--json")
    assert r.to_dict() == expected
    assert r.total == expected["total"] and r.text == expected["text"]
    assert [d.faces for d in r.dice] == [[f["face"] for f in d["faces"]] for d in expected["dice"]]
    assert [d.kept for d in r.dice] == [d["kept"] for d in expected["dice"]]


def test_typed_in_faces_equal_the_command_line(cli) -> None:
    for expression, faces in [("4d6kh3", "6,5,3,1"), ("3d6!", "6,6,2,4,1"), ("2d8r<2", "1,5,7")]:
        r = nutshell.roll(expression, faces=faces)
        assert r.to_dict() == cli("roll", expression, "--faces", faces, "--json")
        assert nutshell.roll(expression, faces=[int(f) for f in faces.split(",")]).to_dict() == r.to_dict()


def test_an_expression_rolls_as_roll_does() -> None:
    e = nutshell.Expression("4d6kh3 + 2")
    assert e.roll(seed=9).to_dict() == nutshell.roll("4d6kh3 + 2", seed=9).to_dict()
    assert int(e.roll(seed=9)) == nutshell.roll("4d6kh3 + 2", seed=9).total
    # Unseeded rolls vary and stay in range.
    totals = {nutshell.roll("1d1000").total for _ in range(50)}
    assert len(totals) > 40 and all(1 <= t <= 1000 for t in totals)


@pytest.mark.parametrize("expression,flags", [
    ("4d6kh3", []), ("3d6! >= 20", []), ("2d10!", ["--max-explosions", "5"]),
    ("8d10>=7", []), ("2d20kl1 - 1d4", []), ("10d10!kh5", ["--max-explosions", "9"]),
    ("1d6!", ["--tail", "0", "--max-explosions", "10"]),
])
def test_odds_equal_the_command_line(cli, expression: str, flags) -> None:
    kwargs = {}
    if "--max-explosions" in flags:
        kwargs["max_explosions"] = int(flags[flags.index("--max-explosions") + 1])
    if "--tail" in flags:
        kwargs["tail"] = float(flags[flags.index("--tail") + 1])
    d = nutshell.odds(expression, **kwargs)
    expected = cli("odds", expression, "--json", *flags)
    assert d.to_dict() == expected
    from fractions import Fraction
    assert {e["value"]: Fraction(e["probability"]) for e in expected["distribution"]} == dict(d.items())
    assert d.tail == Fraction(expected["tail"]) and d.mean == Fraction(expected["mean"])
    assert d.variance == Fraction(expected["variance"])


CHECKS = [
    ("fantasy", dict(mod=5, dc="hard", crit_success=True), ["--mod", "5", "--dc", "hard", "--crit-success"]),
    ("fantasy", dict(mod=3, dc=15, effect="1d8+3"), ["--mod", "3", "--dc", "15", "--effect", "1d8+3"]),
    ("mls", dict(skill=12, mod=[-2, 1]), ["--skill", "12", "--mod=-2", "--mod", "1"]),
    ("exploding-d6", dict(score=3, dc=6, helper=[2]), ["--score", "3", "--dc", "6", "--helper", "2"]),
    ("tiered-d20", dict(skill=4, dc=14, edge=2, advantage=True),
     ["--skill", "4", "--dc", "14", "--edge", "2", "--advantage"]),
    ("tiered-d20", dict(skill=5, dc=10, then=["3:12", "2:8"]),
     ["--skill", "5", "--dc", "10", "--then", "3:12", "--then", "2:8"]),
    ("favor-3d6", dict(mod=2, dc=12, favor=1), ["--mod", "2", "--dc", "12", "--favor", "1"]),
]


@pytest.mark.parametrize("ruleset,options,flags", CHECKS)
def test_checks_equal_the_command_line(cli, ruleset, options, flags) -> None:
    for seed in (1, 2, 3):
        r = nutshell.check(ruleset, seed=seed, **options)
        assert r.to_dict() == cli("check", ruleset, *flags, "--seed", str(seed), "--json")
    odds = nutshell.check(ruleset, odds=True, **options)
    assert odds.to_dict() == cli("check", ruleset, *flags, "--odds", "--json")


CONTESTS = [
    ("mls", dict(skill=12, vs_skill=10), ["--skill", "12", "--vs-skill", "10"]),
    ("exploding-d6", dict(score=3, vs_score=2), ["--score", "3", "--vs-score", "2"]),
    ("favor-3d6", dict(mod=2, pc=True, vs_mod=2, vs_defender=True),
     ["--mod", "2", "--pc", "--vs-mod", "2", "--vs-defender"]),
]


@pytest.mark.parametrize("ruleset,options,flags", CONTESTS)
def test_contests_equal_the_command_line(cli, ruleset, options, flags) -> None:
    for seed in (1, 5):
        r = nutshell.contest(ruleset, seed=seed, **options)
        assert r.to_dict() == cli("contest", ruleset, *flags, "--seed", str(seed), "--json")
    odds = nutshell.contest(ruleset, odds=True, **options)
    assert odds.to_dict() == cli("contest", ruleset, *flags, "--odds", "--json")
    assert sum(odds.values()) + odds.tail == 1


def test_outcome_odds_are_exact_fractions_summing_to_one() -> None:
    from fractions import Fraction
    for ruleset, options, _ in CHECKS:
        odds = nutshell.check(ruleset, odds=True, **options)
        tiers = [odds] if isinstance(odds, nutshell.OutcomeOdds) else list(odds)
        for t in tiers:
            assert all(isinstance(p, Fraction) for p in t.values())
            assert sum(t.values()) + t.tail == 1, (ruleset, options)


def test_fights_equal_the_command_line(cli, examples) -> None:
    knight, brigand = examples / "mls/duel/knight.toml", examples / "mls/duel/brigand.toml"
    for seed in (40, 41):
        fight = mls.Fight(knight, brigand, seed=seed)
        ending = fight.run()
        expected = cli("mls", "fight", str(knight), str(brigand), "--seed", str(seed), "--json")
        assert fight.to_dict() == expected
        assert ending.winner == expected["ending"]["winner"]
    # Stepped round by round, the same fight.
    stepped = mls.Fight(str(knight), str(brigand), seed=40)
    rounds = list(stepped)
    assert rounds and stepped.over
    whole = mls.Fight(knight, brigand, seed=40)
    whole.run()
    assert stepped.to_dict() == whole.to_dict()


def test_fights_on_a_map_and_from_text_equal_the_command_line(cli, examples) -> None:
    knight, brigand = examples / "mls/duel/knight.toml", examples / "mls/duel/brigand.toml"
    corridor = examples / "mls/maps/corridor.toml"
    fight = mls.Fight(knight.read_text(), brigand.read_text(), map=corridor.read_text(), seed=3)
    fight.run()
    expected = cli("mls", "fight", str(knight), str(brigand), "--map", str(corridor), "--seed", "3", "--json")
    assert fight.to_dict() == expected
    assert any(line.get("positions") for line in fight.log())


def test_simulations_equal_the_command_line(cli, examples) -> None:
    party, goblins = examples / "mls/skirmish/party.toml", examples / "mls/skirmish/goblins.toml"
    ours = mls.simulate(party, goblins, trials=300, seed=5, threads=3).to_dict()
    expected = cli("mls", "simulate", str(party), str(goblins), "--trials", "300", "--seed", "5", "--json")
    ours.pop("fights_per_second")
    expected.pop("fights_per_second")
    assert ours == expected
    one_thread = mls.simulate(party, goblins, trials=300, seed=5, threads=1).to_dict()
    one_thread.pop("fights_per_second")
    assert one_thread == ours
