"""Where the tests find the repository: its root, the tests and their data files."""

from pathlib import Path

#: The repository's root (README.md, RULES.md, tienlen/, tests/ ...).
REPO = Path(__file__).resolve().parent.parent
#: The tests' folder.
TESTS = REPO / "tests"
#: Fixed data the tests read (landed files, bot decisions ...).
DATA = TESTS / "data"
#: The independent references and their generated tables (perft).
REFERENCE = TESTS / "reference"
