"""Plain-text reports: fixed-width columns for any printer, cards and slips drawn in ASCII.

The interface document asks for pairing cards "as either a flat text file or in another
easily portable format": the text form of the cards is that file.
"""

from __future__ import annotations

from addin.reports.model import RESULT_CODE, Card, Layout, Report, Slip, SlipPlayer

RULE = "-" * 78


def _header(report: Report) -> list[str]:
    return [report.tournament, report.heading, f"Printed {report.printed.isoformat()}", ""]


def _table(report: Report) -> list[str]:
    texts = report.text_rows()
    widths = [
        max([len(c.header), *(len(row[i]) for row in texts)]) for i, c in enumerate(report.columns)
    ]

    def line(cells: list[str]) -> str:
        out = []
        for text, col, width in zip(cells, report.columns, widths, strict=True):
            right = col.format.numeric and text != "Bye"
            out.append(text.rjust(width) if right else text.ljust(width))
        return "  ".join(out).rstrip()

    lines = [line([c.header for c in report.columns]), line(["-" * w for w in widths])]
    lines += [line(row) for row in texts]
    if not texts:
        lines.append("(none)")
    return lines


def _card(card: Card, per_line: int = 6) -> list[str]:
    """A card: the top line, then rows of three-box groups (opponent | h/c over score)."""
    top = f"{card.number:>3}  {card.name} ({card.initial})  {card.rating}"
    lines = [top + (f"  [{card.note}]" if card.note else "")]
    if card.code_line:
        lines.append(f"     {card.code_line}")
    boxes = list(card.boxes)
    for start in range(0, len(boxes), per_line):
        chunk = boxes[start : start + per_line]
        numbers = range(start + 1, start + len(chunk) + 1)
        edge = "+" + "+".join("-----------" for _ in chunk) + "+"
        labels = (b.label(n).center(12) for n, b in zip(numbers, chunk, strict=True))
        lines.append(" " + "".join(labels))
        lines.append(edge)
        lines.append("|" + "|".join(f"{b.opponent:^5}|{b.condition:^5}" for b in chunk) + "|")
        lines.append("|" + "|".join(f"{b.score:^11}" for b in chunk) + "|")
        lines.append(edge)
    return lines


def _slip(slip: Slip, tournament: str) -> list[str]:
    def who(color: str, p: SlipPlayer) -> str:
        return f"  [ ] {color:<6} {p.name}  (AGA {p.aga_id}, {p.rank})"

    return [
        f"{tournament}    Round {slip.round}    Board {slip.board}",
        f"  Handicap: {slip.handicap_text}    Komi: {slip.komi:g}"
        + (f"    {RESULT_CODE}: {slip.code}" if slip.code else ""),
        "  Mark the winner:",
        who("White", slip.white),
        who("Black", slip.black),
        "  Signatures: White ______________________  Black ______________________",
        "- " * 39,
    ]


def render(report: Report) -> str:
    lines = _header(report)
    if report.layout is Layout.CARDS:
        for card in report.cards:
            lines += [*_card(card), ""]
    elif report.layout is Layout.SLIPS:
        for slip in report.slips:
            lines += _slip(slip, report.tournament)
        if not report.slips:
            lines.append("(no games)")
    else:
        lines += _table(report)
    if report.notes:
        lines += ["", *report.notes]
    return "\n".join(lines) + "\n"
