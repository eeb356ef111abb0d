"""RULES.md is the contract: every labelled clause has a test named after its label.

A label ``R2.5`` is covered by a test whose name contains ``R2_5`` (not followed by another
digit, so ``R1_1`` does not cover ``R1.10`` nor ``R11.1``).
"""

from __future__ import annotations

from paths import REPO

import re
from pathlib import Path



def labels() -> list[tuple[int, int]]:
    text = (REPO / "RULES.md").read_text(encoding="utf-8")
    return [(int(s), int(n)) for s, n in re.findall(r"\*\*R(\d+)\.(\d+)\b", text)]


def test_labels_are_numbered_in_order_without_gaps() -> None:
    found = labels()
    assert len(found) == len(set(found))
    assert [s for s, _ in found] == sorted(s for s, _ in found)
    for section in sorted({s for s, _ in found}):
        numbers = [n for s, n in found if s == section]
        assert numbers == list(range(1, len(numbers) + 1)), f"R{section}: {numbers}"
    assert (11, 1) in found  # the Southern rules are part of the contract file


def test_every_label_has_a_test_named_after_it() -> None:
    names = "\n".join(
        name
        for path in sorted((REPO / "tests").rglob("test_*.py"))
        for name in re.findall(r"def (test_\w+)", path.read_text(encoding="utf-8"))
    )
    missing = [f"R{s}.{n}" for s, n in labels() if not re.search(rf"(?<!\d)R{s}_{n}(?!\d)", names)]
    assert not missing, f"labels without a test named after them: {missing}"
