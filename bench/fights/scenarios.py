"""Writes the generated scenarios of bench/fights/run into a folder: the duel's
open 20 x 20 map, and a battle of 200 against 200 on an open 100 x 100 map."""
import sys


def open_map(name, side, starts):
    rows = "\n".join(["." * side] * side)
    return f'name = "{name}"\nrows = """\n{rows}\n"""\n' + starts


def band(name, weapons):
    out = [f'side = "{name}"']
    for k in range(200):
        out.append(
            f'[[combatant]]\nname = "{name} {k + 1}"\nminor = true\nthp = 8\n'
            f"skills = {{ blade = 9, bow = 8 }}\nweapons = [{weapons}]"
        )
    return "\n".join(out) + "\n"


work = sys.argv[1]
with open(f"{work}/duel-20.toml", "w") as f:
    f.write(open_map("open 20 x 20", 20,
                     '[[start]]\nwho = "Sir Aldric"\nat = "C10"\nfacing = "east"\n'
                     '[[start]]\nwho = "Black Wat"\nat = "R10"\nfacing = "west"\n'))
with open(f"{work}/battle-100.toml", "w") as f:
    f.write(open_map("open 100 x 100", 100,
                     '[[start]]\nside = "Red"\nat = "AA30"\nfacing = "south"\nwidth = 20\n'
                     '[[start]]\nside = "Blue"\nat = "AA60"\nfacing = "north"\nwidth = 20\n'))
with open(f"{work}/red.toml", "w") as f:
    f.write(band("Red", '{ name = "sword", skill = "blade", dam = 7 }'))
with open(f"{work}/blue.toml", "w") as f:
    f.write(band("Blue", '{ name = "spear", skill = "blade", dam = 6, spear = true }, '
                         '{ name = "bow", skill = "bow", dam = 5, kind = "missile", range = 12 }'))
