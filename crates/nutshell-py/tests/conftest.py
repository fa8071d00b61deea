"""Shared fixtures: the command line to compare with, and the repository's
example files."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any, List

import pytest

REPO = Path(__file__).resolve().parents[3]
EXAMPLES = REPO / "examples"


def _cli_path() -> Path:
    given = os.environ.get("NUTSHELL_BIN")
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    if not target.is_absolute():
        target = REPO / target
    return target / "debug" / "nutshell"


@pytest.fixture(scope="session")
def cli():
    """``cli(*args)``: runs ``nutshell ARGS`` and returns its JSON lines, parsed
    (one object, or a list when it printed several)."""
    path = _cli_path()
    if not path.exists():
        pytest.fail(f"the nutshell command line is needed to compare with: build it "
                    f"(cargo build -p nutshell-cli) or set NUTSHELL_BIN; not at {path}")

    def run(*args: str) -> Any:
        done = subprocess.run([str(path), *args], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        lines: List[Any] = [json.loads(l) for l in done.stdout.splitlines() if l.strip()]
        return lines[0] if len(lines) == 1 else lines

    return run


@pytest.fixture(scope="session")
def examples() -> Path:
    return EXAMPLES
