"""A review in words, for the command line and the terminal session: one line per decision
(the mistakes with the better play, the cost and the reason), a heading and a total, in
English or Chinese. Each line comes with a style name (``"bad"``, ``"ok"``, ``"dim"``,
``"why"``, ``"head"``) that a front end may colour."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tienlen.table.review import Evaluation
from .service import Review

__all__ = ["action_text", "review_lines"]

_WORDS = {
    "en": {"pass": "pass", "head": "{title}, hand {hand}: seat {seat}'s {n} decisions, {deals} deals "
                                   "each, threshold {threshold:g} {unit}",
           "forced": "(the only action)", "skipped": "(not evaluated)", "better": "better:",
           "cost": "cost {cost:.2f} {unit}",
           "total": "{n} mistake(s), costing {cost:.2f} {unit}", "late": " (the time ran out: "
           "some decisions not evaluated)", "secs": "; {s:.1f} s",
           "levels": "levels", "points": "points", "give_tribute": "tribute",
           "return_tribute": "return"},
    "zh": {"pass": "过", "head": "{title} 第 {hand} 局：座位 {seat} 的 {n} 步，每步 {deals} 种发法，"
                                 "阈值 {threshold:g} {unit}",
           "forced": "（只能这样）", "skipped": "（未评估）", "better": "更好：",
           "cost": "损失 {cost:.2f} {unit}", "total": "{n} 处失误，共损失 {cost:.2f} {unit}",
           "late": "（时间用完：有些步未评估）", "secs": "；{s:.1f} 秒",
           "levels": "级", "points": "分", "give_tribute": "进贡", "return_tribute": "还贡"},
}


def action_text(action: Mapping[str, Any], lang: str = "en") -> str:
    """An action as a person reads it: its cards and label (in ``lang`` when the game gives
    one), or "pass".

    >>> action_text({"kind": "play", "cards": ["3s", "3h"], "label": "pair of 3"})
    '3s 3h (pair of 3)'
    >>> action_text({"kind": "pass"}, "zh")
    '过'
    >>> action_text({"kind": "return_tribute", "card": "3c", "to": 3}, "zh")
    '还贡 3c'
    """
    words = _WORDS.get(lang, _WORDS["en"])
    kind = action.get("kind")
    if kind == "pass":
        return words["pass"]
    if kind != "play":
        return f"{words.get(str(kind), kind)} {action.get('card', '')}".strip()
    cards = " ".join(str(c) for c in action.get("cards", ()))
    label = (action.get("label_zh") if lang == "zh" else None) or action.get("label")
    return f"{cards} ({label})" if label else cards


def _line(e: Evaluation, lang: str, unit: str) -> list[tuple[str, str]]:
    words = _WORDS.get(lang, _WORDS["en"])
    chosen = action_text(e.chosen.action, lang)
    head = f"  #{e.turn + 1:<3} {chosen}"
    if e.forced:
        return [("dim", f"{head}  {words['forced']}")]
    if not e.evaluated:
        return [("dim", f"{head}  {words['skipped']}")]
    value = f"{e.chosen.value:+.2f} ±{e.chosen.stderr:.2f}"
    if not e.mistake:
        return [("ok", f"{head}  {value}")]
    better = (f"{words['better']} {action_text(e.best.action, lang)} {e.best.value:+.2f} "
              f"±{e.best.stderr:.2f}  {words['cost'].format(cost=e.cost, unit=unit)}")
    return [("bad", f"✗ #{e.turn + 1:<3} {chosen}  {value}  {better}"), ("why", f"       {e.why}")]


def review_lines(review: Review, title: str, lang: str = "en") -> list[tuple[str, str]]:
    """The review as ``(style, text)`` lines (see the module's docstring); decisions are
    numbered from 1 (the state's turn number plus one)."""
    words = _WORDS.get(lang, _WORDS["en"])
    unit = words.get(review.unit, review.unit)
    out = [("head", words["head"].format(title=title, hand=review.record.hand, seat=review.seat,
                                         n=review.decisions, deals=review.deals,
                                         threshold=review.threshold, unit=unit))]
    for e in review.evaluations:
        out.extend(_line(e, lang, unit))
    mistakes = review.mistakes
    total = words["total"].format(n=len(mistakes), cost=sum(e.cost for e in mistakes), unit=unit)
    if not review.complete:
        total += words["late"]
    out.append(("head", total + words["secs"].format(s=review.elapsed)))
    return out
