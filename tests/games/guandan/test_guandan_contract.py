"""GUANDAN.md is a contract: its labels are well formed, and every G1-G4 label has a test.

G5-G8 are implemented by the game (issue 17); their labels are checked for form here and
get their tests with it. The scan reads test source text, so it holds even while the tests
of tienlen.guandan skip because the core is not built.
"""

from __future__ import annotations

from paths import REPO

import re
from pathlib import Path

LABEL = re.compile(r"\*\*(G(\d+)\.(\d+))\b")


def labels() -> list[tuple[int, int]]:
    text = (REPO / "GUANDAN.md").read_text(encoding="utf-8")
    return [(int(m.group(2)), int(m.group(3))) for m in LABEL.finditer(text)]


def test_labels_are_numbered_in_order_without_gaps() -> None:
    found = labels()
    assert len(found) == len(set(found))
    for section in range(1, 9):
        numbers = [n for s, n in found if s == section]
        assert numbers == list(range(1, len(numbers) + 1)), f"G{section}: {numbers}"
    assert [s for s, _ in found] == sorted(s for s, _ in found)


def test_every_rules_core_label_has_a_test() -> None:
    names = "\n".join(
        name
        for path in sorted((REPO / "tests").rglob("test_*.py"))
        for name in re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8"))
    )
    # G4.6-G4.10 share one parametrised test as well; each also has its own.
    missing = [
        f"G{s}.{n}" for s, n in labels()
        if s <= 4 and not re.search(rf"G{s}_{n}(?!\d)", names)
    ]
    assert not missing, f"labels without a test named after them: {missing}"
