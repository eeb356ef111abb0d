"""Issue 13, "one implementation per idea": ideas that once had several copies in the Python
layer stay in one place. These read the package's source, so a copy written back fails."""

from __future__ import annotations

import re
from pathlib import Path

import tienlen

PACKAGE = Path(tienlen.__file__).parent
SOURCES = {path.relative_to(PACKAGE).as_posix(): path.read_text(encoding="utf-8")
           for path in sorted(PACKAGE.rglob("*.py"))}


def _homes(pattern: str) -> set[str]:
    return {name for name, text in SOURCES.items() if re.search(pattern, text)}


def test_splitmix64_is_written_once_in_python() -> None:
    # The finaliser's multipliers appear only in tienlen/seeds.py.
    assert _homes(r"0x(?i:BF58476D1CE4E5B9)") == {"seeds.py"}
    assert _homes(r"0x(?i:94D049BB133111EB)") == {"seeds.py"}


def test_derived_seeds_come_from_seeds_mix() -> None:
    # Bot seeds of the play screen and the Gymnasium env, the arena's per-game seeds: all
    # through tienlen.seeds (no hashlib digests or string-seeded generators on the side).
    assert _homes(r"hashlib") == set()
    assert _homes(r"random\.Random\(f\"") == set()


def test_player_count_check_is_written_once() -> None:
    # (cli.py's solve counts the hands it was given and words its own --hands error.)
    assert _homes(r"type\(players\) is not int") == {"seeds.py"}


def test_no_python_module_reads_a_code_s_bit_layout() -> None:
    # Combo and play codes are read through the cores' code_kind / code_len / code_top
    # (code_size / code_rank for Guandan), never by shifting them in Python.
    offenders = _homes(r"code\w*\s*>>\s*(6|12)\b|\(code\s*>>\s*6\)|_code\s*&\s*63")
    assert offenders == set()


def test_card_text_is_read_in_one_place() -> None:
    # The token table and the "unknown suit" explanation live in tienlen/games/spelling.py only.
    assert _homes(r'f"unknown suit') == {"games/spelling.py"}
    assert _homes(r"removesuffix\(_VS16\)") == {"games/spelling.py"}


def test_pass_and_move_are_defined_once() -> None:
    assert _homes(r"^class _PassType\b|\nclass _PassType\b") == {"games/tienlen/actions.py"}
    assert _homes(r"\nMove = ") == {"games/tienlen/actions.py"}


def test_the_hand_split_search_lives_in_the_core() -> None:
    assert "lru_cache" not in SOURCES["games/tienlen/bots/split.py"]
    assert "_core.plan(" in SOURCES["games/tienlen/bots/split.py"]
