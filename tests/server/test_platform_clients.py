"""`tienlen serve --platform` against clients that behave as the platform's public agents do
(docs/platform.md, "What the platform's agents read"): written here, in our own words, from
what those agents were found to read and send, not from their code.

- ``RuleAgent`` (seats 0 and 2) connects with ws4py's threaded client, as the platform's
  sample agents and its rule bots do. Its state parser stores every field of a message and
  dispatches on ``(stage, type)`` among the 11 pairs v1006 sends, raising on any other; it
  reads ``publicInfo[i]["playArea"][2]``, walks ``curAction[2]`` card by card through
  suit and rank tables, and builds its leads from its own ``handCards`` (pairs, triples, a
  triple then a pair, windows low to high) and looks them up in ``actionList`` by equality,
  card order included, as a rule bot picks its index. Following, it reads ``curAction``
  (``greaterAction`` after a pass) and compares ranks through a value table.
- ``ModelAgent`` (seat 1) is DanZero-like: it indexes ``curRank``, ``selfRank`` and
  ``oppoRank`` in the ``beginning`` notice, turns every card list into 54-card counts
  (an unknown name fails), keeps ``tribute/notify``'s result for its return (a card worth
  at most 10 found by ``actionList[i][2][0]``), and scores each deal by looking the
  finishing ``order`` up in a table of the six team patterns.
- ``SampleAgent`` (seat 3) is the platform's random sample on websocket-client's
  ``WebSocketApp``: ``randint(0, indexRange)`` whenever a message has an ``actionList``.

Every ``actionList`` is checked against our core's legal plays for the hand and the top it
describes, and every action the server announces for a seat is the entry that seat chose:
so every action played was legal per the core. The matches end, and the team wins the
server prints add up to the games asked and agree with ``gameResult``.

Two smaller tests pin the card order inside an action that rule bots index into (a full
house's triple before its pair, windows low to high), case by case and over dealt hands.
"""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws4py_client = pytest.importorskip("ws4py.client.threadedclient")
websocket = pytest.importorskip("websocket")       # websocket-client

from tienlen.guandan import Cards, classify, legal_plays  # noqa: E402
from tienlen.games.guandan.plays import Kind  # noqa: E402

PASS = ["PASS", "PASS", "PASS"]
ORDER = "A23456789TJQKA"                  # window order, the ace low and high
LETTERS = "23456789TJQKA"
SUIT_ROW = {"S": 0, "H": 1, "C": 2, "D": 3}
STAGES = {("beginning", "notify"), ("play", "notify"), ("tribute", "notify"),
          ("anti-tribute", "notify"), ("back", "notify"), ("episodeOver", "notify"),
          ("gameOver", "notify"), ("gameResult", "notify"),
          ("play", "act"), ("tribute", "act"), ("back", "act")}
TEAM_PATTERNS = {"1100": 3, "1010": 2, "1001": 1, "0110": -1, "0101": -2, "0011": -3}
KINDS = {"Single": Kind.SINGLE, "Pair": Kind.PAIR, "Trips": Kind.TRIPLE,
         "ThreeWithTwo": Kind.FULL_HOUSE, "Straight": Kind.STRAIGHT, "ThreePair": Kind.THREE_PAIRS,
         "TwoTrips": Kind.PLATE, "Bomb": Kind.BOMB, "StraightFlush": Kind.STRAIGHT_FLUSH}


def card_index(name: str) -> int:
    """A platform card name as one of 54 faces (a KeyError for anything else)."""
    if name in ("SB", "HR"):
        return 52 + (name == "HR")
    return SUIT_ROW[name[0]] * 13 + LETTERS.index(name[1])


def counts(names: Any) -> list[int]:
    out = [0] * 54
    if names != "PASS":
        for name in names:
            out[card_index(name)] += 1
    return out


def values(level: str) -> dict[str, int]:
    table = {r: i + 2 for i, r in enumerate(LETTERS)} | {"B": 16, "R": 17, "JOKER": 100}
    table[level] = 15
    return table


# ---- our core's view of a message (the legality check) ----------------------------------

def ours(name: str) -> str:
    if name == "SB":
        return "SJ"
    if name == "HR":
        return "BJ"
    return ("10" if name[1] == "T" else name[1]) + name[0].lower()


def tuple_key(play: Any) -> tuple[str, str, tuple[str, ...]]:
    """Our play as (type, rank, sorted platform names), from our own reading of it."""
    kind = play.kind
    width = {Kind.STRAIGHT: 5, Kind.STRAIGHT_FLUSH: 5, Kind.THREE_PAIRS: 3, Kind.PLATE: 2}.get(kind)
    if kind is Kind.JOKER_BOMB:
        type_, rank = "Bomb", "JOKER"
    else:
        type_ = next(t for t, k in KINDS.items() if k is kind)
        low = play.rank - width + 1 if width else play.rank
        rank = "A" if low == 1 else {15: "B", 16: "R"}.get(low) or LETTERS[low - 2]
    names = []
    for card in play.cards:
        a = card.ascii()
        names.append({"SJ": "SB", "BJ": "HR"}.get(a) or a[-1].upper() + a[:-1].replace("10", "T"))
    return type_, rank, tuple(sorted(names))


def check_against_core(m: dict[str, Any]) -> None:
    """The message's actionList is the core's legal plays (or tribute/back choices)."""
    assert m["indexRange"] == len(m["actionList"]) - 1
    if m["stage"] != "play":
        assert all(a[0] == a[1] == m["stage"] and len(a[2]) == 1 for a in m["actionList"])
        return
    hand = Cards.parse(" ".join(ours(c) for c in m["handCards"]))
    level = LETTERS.index(m["curRank"]) + 2
    top = m["greaterAction"]
    pile = None
    if m["curPos"] != -1:
        cards = Cards.parse(" ".join(ours(c) for c in top[2]))
        pile = next(p for p in classify(cards, level) if tuple_key(p)[:2] == (top[0], top[1]))
    got = m["actionList"]
    if pile is not None:
        assert got[0] == PASS
        got = got[1:]
    else:
        assert PASS not in got
    want = Counter(tuple_key(p) for p in legal_plays(hand, level, pile))
    assert Counter((a[0], a[1], tuple(sorted(a[2]))) for a in got) == want


# ---- the agents -----------------------------------------------------------------------------

class Seat:
    """What every agent here records: its seat, its answers and what the server announced."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.pos: int | None = None
        self.errors: list[BaseException] = []
        self.chosen: list[Any] | None = None
        self.echoed = 0
        self.acts = 0
        self.result: dict[str, Any] | None = None
        self.stages: Counter[tuple[str, str]] = Counter()
        self.closed = threading.Event()

    def echo(self, m: dict[str, Any]) -> None:
        """A play notice for this seat announces the entry it chose."""
        if m["stage"] == "play" and m["type"] == "notify" and m["curPos"] == self.pos:
            assert self.chosen is not None and m["curAction"] == self.chosen, (m, self.chosen)
            self.chosen = None
            self.echoed += 1

    def answer(self, m: dict[str, Any], index: int) -> str:
        check_against_core(m)
        assert 0 <= index <= m["indexRange"]
        self.acts += 1
        if m["stage"] == "play":
            self.chosen = m["actionList"][index]
        return json.dumps({"actIndex": index})


class RuleAgent(Seat):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.fields: dict[str, Any] = {}
        self.left = [27] * 4
        self.tribute_result: list[Any] | None = None
        self.leads_built = 0
        self.leads_missing: list[Any] = []

    def parse(self, m: dict[str, Any]) -> None:
        self.fields.update(m)                       # every field kept, as the sample state does
        key = (m["stage"], m["type"])
        if key not in STAGES:
            raise KeyError(key)
        self.stages[key] += 1
        self.echo(m)
        if key == ("beginning", "notify"):
            self.pos = m["myPos"]
            self.left = [27] * 4
        elif key == ("play", "notify") and m["curAction"][2] != "PASS":
            for name in m["curAction"][2]:
                card_index(name)
                self.left[m["curPos"]] -= 1
        elif key == ("tribute", "notify"):
            self.tribute_result = m["result"]
        elif key == ("play", "act"):
            for i, info in enumerate(m["publicInfo"]):
                if info["playArea"] is not None:
                    info["playArea"][2]
                assert info["rest"] == self.left[i], (i, m["publicInfo"], self.left)
        elif key == ("episodeOver", "notify"):
            for seat, cards in m["restCards"]:
                assert len(cards) == self.left[seat]
        elif key == ("gameResult", "notify"):
            assert len(m["victoryNum"]) == len(m["draws"]) == 4
            self.result = m

    def builds(self, hand: list[str], level: str) -> list[list[Any]]:
        """The plays a rule bot makes of its hand on a lead, cards in hand order, the
        wild card left out."""
        wild = "H" + level
        groups: dict[str, list[str]] = {}
        for card in hand:
            if card != wild:
                groups.setdefault(card[1], []).append(card)
        out: list[list[Any]] = [["Single", c[1], [c]] for c in dict.fromkeys(hand)]
        for r, cards in groups.items():
            if len(cards) >= 2:
                out.append(["Pair", r, cards[:2]])
            if r in "BR":
                continue
            if len(cards) >= 3:
                out.append(["Trips", r, cards[:3]])
                out += [["ThreeWithTwo", r, cards[:3] + p[:2]] for q, p in groups.items()
                        if q != r and q not in "BR" and len(p) >= 2]
            if len(cards) >= 4:
                out.append(["Bomb", r, cards])
        if groups.get("B", []) + groups.get("R", []) == ["SB", "SB", "HR", "HR"]:
            out.append(["Bomb", "JOKER", ["SB", "SB", "HR", "HR"]])
        for width, per, name in ((5, 1, "Straight"), (3, 2, "ThreePair"), (2, 3, "TwoTrips")):
            for low in range(len(ORDER) - width + 1):
                window = ORDER[low:low + width]
                if all(len(groups.get(r, [])) >= per for r in window):
                    cards = [c for r in window for c in groups[r][:per]]
                    flush = per == 1 and len({c[0] for c in cards}) == 1
                    out.append(["StraightFlush" if flush else name, window[0], cards])
        return out

    def decide(self, m: dict[str, Any]) -> int:
        actions, level = m["actionList"], m["curRank"]
        if m["stage"] == "tribute":
            return 1 if "H" + level in actions[0][2] else 0
        if m["stage"] == "back":
            assert self.tribute_result is not None
            assert any(r[1] == self.pos for r in self.tribute_result)   # whom it returns to
            value = values(level)
            card = next(c for c in m["handCards"] if value[c[1]] <= 10)
            return next(i for i, a in enumerate(actions) if a[2][0] == card)
        if len(actions) == 1:
            return 0
        if m["curPos"] == -1:                     # a lead: a play of its own making
            found = []
            for play in self.builds(m["handCards"], level):
                self.leads_built += 1
                if play in actions:
                    found.append(actions.index(play))
                else:
                    self.leads_missing.append(play)
            return self.rng.choice(found) if found else 0
        top = m["greaterAction"] if m["curAction"][0] == "PASS" else m["curAction"]
        if m["greaterPos"] == ((self.pos or 0) + 2) % 4:
            return 0                               # the partner holds the trick
        value = values(level)
        same = [i for i, a in enumerate(actions) if i and a[0] == top[0]
                and value[a[1]] > value[top[1]]]
        if same:
            return min(same, key=lambda i: value[actions[i][1]])
        bombs = [i for i, a in enumerate(actions) if a[0] in ("Bomb", "StraightFlush")]
        return self.rng.choice(bombs) if bombs and self.rng.random() < 0.3 else 0


class ModelAgent(RuleAgent):
    """DanZero-like: reads the ranks of each deal, encodes everything, returns by the book."""

    RANK = {r: i + 1 for i, r in enumerate(LETTERS)}

    def parse(self, m: dict[str, Any]) -> None:
        if m["type"] == "notify" and m["stage"] == "beginning":
            self.levels = (self.RANK[m["curRank"]], self.RANK[m["selfRank"]],
                           self.RANK[m["oppoRank"]])
        if m["type"] == "notify" and m["stage"] == "play":
            counts(m["curAction"][2])
        if m["type"] == "notify" and m["stage"] == "episodeOver":
            team = (self.pos, (self.pos or 0) ^ 2)
            TEAM_PATTERNS["".join("1" if s in team else "0" for s in m["order"])]
            self.RANK[m["curRank"]]              # DanZero+ looks for a deal played at A
        super().parse(m)

    def decide(self, m: dict[str, Any]) -> int:
        if m["stage"] == "play" and len(m["actionList"]) > 1:
            encoded = [counts(a[2]) for a in m["actionList"]]
            assert len(encoded) == m["indexRange"] + 1
            self.RANK[m["curRank"]], self.RANK[m["selfRank"]], self.RANK[m["oppoRank"]]
            return self.rng.randrange(len(encoded))
        return super().decide(m)


class Ws4pyAgent(ws4py_client.WebSocketClient):      # type: ignore[misc]
    def __init__(self, url: str, agent: RuleAgent) -> None:
        super().__init__(url)
        self.agent = agent

    def received_message(self, message: Any) -> None:
        m = json.loads(str(message))
        try:
            self.agent.parse(m)
            if "actionList" in m:
                self.send(self.agent.answer(m, self.agent.decide(m)))
        except BaseException as error:
            self.agent.errors.append(error)
            raise

    def closed(self, code: int, reason: Any = None) -> None:
        self.agent.closed.set()


def sample_agent(url: str, agent: Seat) -> Any:
    def on_message(ws: Any, text: str) -> None:
        m = json.loads(text)
        try:
            agent.stages[(m["stage"], m["type"])] += 1
            if m["stage"] == "beginning":
                agent.pos = m["myPos"]
            agent.echo(m)
            if m["stage"] == "gameResult":
                agent.result = m
            if "actionList" in m:
                ws.send(agent.answer(m, agent.rng.randint(0, m["indexRange"])))
        except BaseException as error:
            agent.errors.append(error)

    def on_error(ws: Any, error: BaseException) -> None:
        # websocket-client reports the server's close as an error, even a normal one:
        # only after the last message (gameResult) is that the expected end
        if not (isinstance(error, websocket.WebSocketConnectionClosedException)
                and agent.result is not None):
            agent.errors.append(error)

    return websocket.WebSocketApp(url, on_message=on_message, on_error=on_error,
                                  on_close=lambda *args: agent.closed.set())


def test_platform_style_agents_play_full_matches_through_the_cli() -> None:
    games = 2
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tienlen", "serve", "--platform",
                             "--games", str(games), "--port", str(port), "--seed", "11"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    agents: list[RuleAgent | Seat] = [RuleAgent(1), ModelAgent(2), RuleAgent(3), Seat(4)]
    try:
        assert "Ready for connect." in (proc.stdout.readline() if proc.stdout else "")
        url = f"ws://127.0.0.1:{port}/game/client"
        threads = []
        for i, agent in enumerate(agents):
            if isinstance(agent, RuleAgent):
                client = Ws4pyAgent(f"{url}{i}", agent)
                client.daemon = True
                client.connect()                  # its own reader thread
                threads.append(threading.Thread(target=client.run_forever, daemon=True))
            else:
                app = sample_agent(f"{url}{i}", agent)
                threads.append(threading.Thread(target=app.run_forever, daemon=True))
            threads[-1].start()
            time.sleep(0.2)                       # seats by connection order
        deadline = time.monotonic() + 240
        for agent in agents:
            agent.closed.wait(max(0.0, deadline - time.monotonic()))
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    for agent in agents:
        assert agent.errors == [], agent.errors
        assert agent.closed.is_set()
    assert proc.returncode == 0, err
    assert [a.pos for a in agents] == [0, 1, 2, 3]
    for agent in agents:
        assert agent.stages[("gameOver", "notify")] == games
        assert agent.stages[("gameResult", "notify")] == 1
        assert agent.stages[("episodeOver", "notify")] >= 2 * games
        assert agent.acts > 20 and agent.echoed > 20 and agent.chosen is None
    rule = [a for a in agents if isinstance(a, RuleAgent)]
    assert all(a.leads_missing == [] for a in rule), [a.leads_missing[:5] for a in rule]
    assert sum(a.leads_built for a in rule) > 100
    assert sum(a.stages[("back", "act")] + a.stages[("anti-tribute", "notify")] for a in rule) > 0
    # the printed team wins add up, and agree with gameResult
    last = out.strip().splitlines()[-1]
    wins = [int(part.split(": ")[1].split()[0]) for part in last.split("; ")[:2]]
    draws = int(last.split("draws: ")[1])
    assert sum(wins) + draws == games
    result = agents[0].result
    assert result is not None and all(a.result == result for a in agents)
    assert result["victoryNum"] == [wins[0], wins[1], wins[0], wins[1]]
    assert result["draws"] == [draws] * 4


@pytest.mark.parametrize("cards,level,kind,want", [
    # a full house: its triple, then its pair, whichever rank is lower
    ("3s 3d Kc Kd Kh", 5, Kind.FULL_HOUSE, ["HK", "CK", "DK", "S3", "D3"]),
    # a wild card after its rank's own cards, in the triple or in the pair
    ("7s 7d 2h 3s 3d", 2, Kind.FULL_HOUSE, ["S7", "D7", "H2", "S3", "D3"]),
    ("7s 7d 7c 2h 3s", 2, Kind.FULL_HOUSE, ["S7", "C7", "D7", "S3", "H2"]),
    # windows low to high, an ace-low window's A first
    ("Ah 2s 3s 4s 5s", 9, Kind.STRAIGHT, ["HA", "S2", "S3", "S4", "S5"]),
    ("10s Js Qs Ks As", 5, Kind.STRAIGHT_FLUSH, ["ST", "SJ", "SQ", "SK", "SA"]),
    ("As Ad 2s 2h 3s 3d", 2, Kind.THREE_PAIRS, ["SA", "DA", "S2", "H2", "S3", "D3"]),
    ("Ks Kd Kh As Ad Ac", 9, Kind.PLATE, ["SK", "HK", "DK", "SA", "CA", "DA"]),
    ("3s 4s 6s 7s 10h", 10, Kind.STRAIGHT_FLUSH, ["S3", "S4", "HT", "S6", "S7"]),
    # one rank: hand order, a wild standing in last; the level's own heart in hand order
    ("2s 2h 2h 2c 9h", 9, Kind.BOMB, ["S2", "H2", "H2", "C2", "H9"]),
    ("9s 9c 9h", 9, Kind.TRIPLE, ["S9", "H9", "C9"]),
    ("SJ BJ SJ BJ", 5, Kind.JOKER_BOMB, ["SB", "SB", "HR", "HR"]),
])
def test_action_cards_are_in_the_order_agents_index(cards: str, level: int, kind: Kind,
                                                     want: list[str]) -> None:
    from tienlen.games.guandan.platform import action_tuple

    # the reading whose first card is the wanted first card's rank (7 7 ☆ 3 3: triple 7, not 3)
    tuples = [action_tuple(p) for p in classify(cards, level) if p.kind is kind]
    assert want in [t[2] for t in tuples if t[2][0][1] == want[0][1]], tuples


def test_every_legal_play_lists_its_cards_by_structure() -> None:
    """Over dealt hands at every level: a full house's first three cards are its triple's
    rank (or wild), its last two another; a window's cards climb one rank at a time."""
    from tienlen.guandan import deal
    from tienlen.games.guandan.platform import action_tuple

    rank_of = {r: i + 2 for i, r in enumerate(LETTERS)}
    checked = Counter[str]()
    for level in range(2, 15):
        hand = deal(seed=level)[level % 4]
        wild = "H" + LETTERS[level - 2]
        for play in legal_plays(hand, level, None):
            type_, rank, names = action_tuple(play)
            ranks = [None if n == wild and play.uses_wild else n[1] for n in names]
            if type_ == "ThreeWithTwo":
                assert {r for r in ranks[:3] if r} == {rank}, names
                assert len({r for r in ranks[3:] if r}) <= 1 and rank not in ranks[3:], names
            elif type_ in ("Straight", "StraightFlush", "ThreePair", "TwoTrips"):
                per = {"ThreePair": 2, "TwoTrips": 3}.get(type_, 1)
                low = 1 if rank == "A" else rank_of[rank]
                for i, r in enumerate(ranks):
                    if r is not None:
                        want = low + i // per
                        assert rank_of[r] == want or (r == "A" and want == 1), names
            checked[type_] += 1
    assert checked["ThreeWithTwo"] > 50 and checked["Straight"] > 20


def test_a_follow_list_seen_from_the_platform_is_ours_entry_by_entry() -> None:
    """One actionList captured from the platform's server sits in a public agent's sources
    (xiaoxiaowei666/NUAA-guandan-main-xxw, util.py): following a straight 9-K with a hand
    of spade 7 to K, a ten of diamonds, hearts and clubs J and Q, a second heart J, a
    diamond K and the heart A. Its 41 entries, described here rather than copied: the PASS,
    the 36 straights T-A with the ten's suit varying slowest (S, D), then the J's (S, H, C),
    the Q's (S, H, C), the K's (S, D), the A always the heart; then the J bomb; then the
    spade straight flushes from 7, 8 and 9. Ours lists the same entries in the same order,
    card order included."""
    import itertools

    from tienlen.games.guandan.platform import PASS_TUPLE, action_tuple

    hand = Cards.parse("7s 8s 9s 10s 10d Js Jh Jh Jc Qs Qh Qc Ks Kd Ah")
    pile = classify("9d 10c Jd Qd Kh", 2)[0]
    ours = [PASS_TUPLE] + [action_tuple(p) for p in legal_plays(hand, 2, pile)]
    straights = [["Straight", "T", [t + "T", j + "J", q + "Q", k + "K", "HA"]]
                 for t, j, q, k in itertools.product("SD", "SHC", "SHC", "SD")]
    flushes = [["StraightFlush", ORDER[low], ["S" + r for r in ORDER[low:low + 5]]]
               for low in (6, 7, 8)]
    assert ours == [PASS] + straights + [["Bomb", "J", ["SJ", "HJ", "HJ", "CJ"]]] + flushes


def test_an_act_message_seen_from_the_platform_has_our_hand_and_list() -> None:
    """A second capture (AltmanD/guandan_mcc, offline/rl-frame/actor/player.py): at level A,
    seat 3 follows a single Q holding 27 cards. Its handCards run 2 to A with the suits in
    S H C D order inside each rank and the small joker last; its actionList is the PASS and
    the singles K (spade), A (club), A (diamond, listed once though held twice), small
    joker. Ours writes the same hand and the same list."""
    from tienlen.games.guandan.platform import PASS_TUPLE, action_tuple, hand_cards

    hand = Cards.parse("2s 2d 3c 4s 4c 4d 5s 5h 6c 6d 7c 7d 8h 8d 9h 9c 9c 10d Jc Jd Qh Qc "
                       "Ks Ac Ad Ad SJ")
    names = hand_cards(hand, 14)
    assert names[:3] == ["S2", "D2", "C3"] and names[-5:] == ["SK", "CA", "DA", "DA", "SB"]
    assert [LETTERS.index(n[1]) for n in names[:-1]] == sorted(LETTERS.index(n[1])
                                                               for n in names[:-1])
    assert all(SUIT_ROW[a[0]] <= SUIT_ROW[b[0]] for a, b in zip(names, names[1:-1])
               if a[1] == b[1])
    follow = [PASS_TUPLE] + [action_tuple(p) for p in legal_plays(hand, 14, classify("Qs", 14)[0])]
    assert follow == [PASS, ["Single", "K", ["SK"]], ["Single", "A", ["CA"]],
                      ["Single", "A", ["DA"]], ["Single", "B", ["SB"]]]
