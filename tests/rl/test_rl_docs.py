"""docs/rl.md's episode loops run as they are (issue 39 #12): every Python block of its
"An episode loop, for each game" section is executed, in a fresh namespace each."""

from __future__ import annotations

from paths import REPO

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

PAGE = REPO / "docs" / "rl.md"


def _section_blocks(title: str) -> list[str]:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]
    blocks, current = [], None
    for line in section.splitlines():
        if line.startswith("```python"):
            current = []
        elif line.startswith("```") and current is not None:
            blocks.append("\n".join(current))
            current = None
        elif current is not None:
            current.append(line)
    return blocks


BLOCKS = _section_blocks("An episode loop, for each game")


def test_the_section_has_a_loop_for_each_game() -> None:
    joined = "\n".join(BLOCKS)
    assert len(BLOCKS) >= 4
    for name in ("TienlenEnv", "GuandanEnv", "GuandanVectorEnv", "TienlenVectorEnv",
                 "legal_features", "guandan_env", "action_mask"):
        assert name in joined


@pytest.mark.parametrize("block", range(len(BLOCKS)))
def test_an_episode_loop_of_docs_rl_md_runs(block: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[block], f"docs/rl.md block {block}", "exec"), {"__name__": "__doc__"})
    assert capsys.readouterr().out.strip()          # each prints what it ended with
