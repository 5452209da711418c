"""Hostile and unlucky input on the real command line: every command, every input format.

Each case runs ``python -m addin ...`` (in process, the real code) on a real tournament
workbook and asserts three things: the exit status (1 error, 2 usage), that the message
names what was wrong (a fragment of it), and that the workbook is byte for byte as it was.
Every message is checked to be short (no value echoed at length) and no traceback is ever
printed (``--debug`` is the only way to see one, tested last).
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import openpyxl
import pytest

from tests.helpers import DATA, digest, run
from tests.workbook_fixtures import simple_tournament, write_workbook

ROUNDS = 4
"""The workbook has 4 rounds, 2 of them paired with results; players are 10000-10009."""

TDLISTA = (DATA / "tdlista" / "tdlista-snapshot.txt").read_bytes().split(b"\r\n")[:30]
"""30 real TDListA lines."""

CSV_HEAD = "Name,AGA #,Rank,Bye requests\r\n"
AGA_TEXT = (DATA / "aga-text" / "eggplant-sample-report.txt").read_bytes()
XML_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>\n<TournamentReport><Header>'
    b"<TournamentName>T</TournamentName></Header>\n"
    b'<PlayerList><Player ID="1" GivenName="A" FamilyName="Ay" Rating="3K"/>\n'
    b'<Player ID="2" GivenName="B" FamilyName="Be" Rating="4K"/></PlayerList>\n'
)


def xml_round(number: str = "1", handicap: str = "0", komi: str = "7") -> bytes:
    return (
        XML_HEAD
        + (
            f'<RoundList><Round RoundNumber="{number}">\n'
            f'<Game BlackPlayerID="2" WhitePlayerID="1" Komi="{komi}" Handicap="{handicap}" '
            'GameResult="White Win"/>\n</Round></RoundList></TournamentReport>\n'
        ).encode()
    )


def aga_text(games: str = "GAMES 1\n99995\t99994\tW\t0\t7\n") -> bytes:
    return AGA_TEXT.split(b"GAMES 1")[0] + games.encode() + b"END\n"


BILLION_LAUGHS = (
    b'<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lol">'
    b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>\n'
    b"<TournamentReport>&lol2;</TournamentReport>\n"
)
HUGE = "x" * 100_000


@dataclass(frozen=True)
class Case:
    id: str
    args: tuple[str, ...]
    """``{book}`` is the workbook, ``{file}`` the input file, ``{tmp}`` the test's folder."""
    message: str
    """A fragment the error message must hold."""
    code: int = 1
    file: bytes | None = None
    """The content of ``{file}`` (a TDListA, CSV, AGA report...)."""


def case(id: str, line: str, message: str, code: int = 1, file: bytes | None = None) -> Case:
    return Case(id, tuple(line.split()), message, code, file)


# --- round numbers -------------------------------------------------------------------------


ROUND_CASES = [
    case(f"{cmd}-round-{n}", f"{cmd} {{book}} --round {n} {rest}", expect, code)
    for cmd, rest in [
        ("pair", ""),
        ("unpair", ""),
        ("result", "--board 1 --result W"),
        ("set-game", "--board 1 --komi 6.5"),
        ("break-pair", "--board 1"),
        ("make-pair", "--white 10000 --black 10001"),
        ("bye", "--player 10000"),
        ("volunteer", "--player 10000"),
        ("force", "--first 10000 --second 10001"),
        ("prohibit", "--first 10000 --second 10001"),
        ("report", "pairings --out {tmp}/r.html"),
    ]
    for n, expect, code in [
        ("0", "round 0 is not a round of this 4-round tournament", 1),
        ("-1", "round -1 is not a round", 1),
        ("99", "round 99 is not a round", 1),
        # past what a cell holds exactly: named as typed, never rounded to another number
        ("100000000000000000000", "100000000000000000000 is past 9,007,199,254,740,992", 2),
    ]
    if not (cmd == "pair" and n == "99")
] + [
    case("pair-round-99", "pair {book} --round 99", "is not a round of this 4-round"),
    case("pair-round-text", "pair {book} --round two", "invalid int value: 'two'", 2),
    case("pair-round-float", "pair {book} --round 1.5", "invalid int value", 2),
    case("pair-round-paired", "pair {book} --round 2", "round 2 is already paired"),
    case("pair-round-skips", "pair {book} --round 4", "round 3 comes before round 4"),
    case("unpair-not-last", "unpair {book} --round 1", "unpair round 2 first"),
    case("unpair-not-paired", "unpair {book} --round 3", "round 3 is not paired"),
]

# --- numbers the TD types -----------------------------------------------------------------

NUMBER_CASES = [
    case("komi-1e308", "set-game {book} --board 1 --komi 1e308", "not between -50 and 50"),
    case("komi-minus-51", "set-game {book} --board 1 --komi -51", "not between -50 and 50"),
    case("komi-nan", "set-game {book} --board 1 --komi nan", "is not a number"),
    case("komi-inf", "set-game {book} --board 1 --komi inf", "is not a number"),
    case("komi-quarter", "set-game {book} --board 1 --komi 7.25", "not in half points"),
    case("komi-text", "set-game {book} --board 1 --komi seven", "'seven' is not a number"),
    case("handicap-12", "set-game {book} --board 1 --handicap 12", "not between 0 and 9"),
    case("handicap-negative", "set-game {book} --board 1 --handicap -1", "not between 0 and 9"),
    case("board-0", "result {book} --board 0 --result W", "has no board 0"),
    case("board-99", "result {book} --board 99 --result W", "has no board 99"),
    case("board-negative", "break-pair {book} --board -3", "has no board -3"),
    case("result-unknown", "result {book} --board 1 --result maybe", "--result"),
    case("player-0", "drop {book} --player 0", "AGA # 0 is not in the Players sheet"),
    case("player-negative", "bye {book} --round 3 --player -5", "is not in the Players sheet"),
    case(  # once said "AGA # 100000000000000000000": rounded through a float
        "player-huge",
        "readmit {book} --player 99999999999999999999",
        "99999999999999999999 is past 9,007,199,254,740,992",
        2,
    ),
    case("band-0", "set-band {book} --player 10000 --band 0", "band"),
    case("band-99", "set-band {book} --player 10000 --band 99", "band"),
    case("replace-id-text", "replace-id {book} --from 10000 --to abc", "is not an AGA number"),
    case("replace-id-negative", "replace-id {book} --from 10000 --to -5", "is not an AGA"),
    case("replace-id-huge", f"replace-id {{book}} --from 10000 --to {HUGE}", "characters"),
    case("replace-id-unknown", "replace-id {book} --from 99999 --to 123", "not in the Players"),
    case("replace-id-in-use", "replace-id {book} --from 10000 --to 10001", "is already"),
    case("replace-id-temporary", "replace-id {book} --from 10000 --to 90000", "not a real AGA"),
    case("rating-1e308", "set-rating {book} --player 10000 --rating 1e308", "is not a rank"),
    case("rating-nan", "set-rating {book} --player 10000 --rating nan", "is not a rank"),
    case("rating-99d", "set-rating {book} --player 10000 --rating 99d", "dan ranks run"),
    case("rating-huge", f"set-rating {{book}} --player 10000 --rating {HUGE}", "characters"),
    case("register-rank-bad", "register {book} --name Doe,John --rank 99k", "kyu ranks run"),
    case("register-nothing", "register {book}", "register needs --aga N"),
    case("register-aga-unknown", "register {book} --aga 424242", "424242"),
    case("make-pair-self", "make-pair {book} --round 2 --white 10000 --black 10000", "themself"),
    case(
        "make-pair-unpaired",
        "make-pair {book} --round 3 --white 10000 --black 10001",
        "round 3 is not paired",
    ),
    case("force-self", "force {book} --first 10000 --second 10000", "themself"),
    case("register-name-control", "register {book} --name Bad\x01,Name --rank 3k", "U+0001"),
    case("register-name-long", f"register {{book}} --name {HUGE[:40_000]},B --rank 3k", "32,767"),
    case("register-name-empty", "register {book} --name ,Given --rank 3k", "is not a name"),
    case("new-name-control", "new {tmp}/new.xlsx --name Evil\x07Open", "control character U+0007"),
    case("lookup-no-list", f"lookup {{book}} {HUGE}", "the TDListA sheet is empty"),
]

# --- commands that create files -----------------------------------------------------------

CREATE_CASES = [
    case("demo-players-1", "demo {tmp}/new.xlsx --players 1", "not between 2 and", 2),
    case("demo-players-0", "demo {tmp}/new.xlsx --players 0", "not between 2 and", 2),
    case("demo-players-huge", "demo {tmp}/new.xlsx --players 10000000", "not between 2", 2),
    case("demo-rounds-0", "demo {tmp}/new.xlsx --rounds 0", "not between 1 and 30", 2),
    case("demo-rounds-31", "demo {tmp}/new.xlsx --rounds 31", "not between 1 and 30", 2),
    case("demo-rounds-negative", "demo {tmp}/new.xlsx --rounds -1", "not between 1 and 30", 2),
    case("demo-no-folder", "demo {tmp}/none/new.xlsx", "there is no folder", 1),
    case("demo-exists", "demo {book}", "already exists", 1),
    case("new-rounds-0", "new {tmp}/new.xlsx --rounds 0", "not between 1 and 30", 2),
    case("new-rounds-1000", "new {tmp}/new.xlsx --rounds 1000", "not between 1 and 30", 2),
    case(
        "new-dates-reversed",
        "new {tmp}/new.xlsx --start 2026-05-02 --end 2026-05-01",
        "is before --start",
        2,
    ),
    case("new-date-bad", "new {tmp}/new.xlsx --start 2026-02-30", "not a date", 2),
    case("new-no-folder", "new {tmp}/none/new.xlsx", "there is no folder", 1),
    case("new-exists", "new {book}", "already exists", 1),
    case("new-is-folder", "new {tmp}", "it is a folder", 1),
    case("template-no-folder", "template {tmp}/none/t.xlsx", "there is no folder", 1),
    case("build-excel-no-folder", "build-excel {tmp}/none/a.xlam", "there is no folder", 1),
    case("build-calc-no-folder", "build-calc {tmp}/none/a.oxt", "there is no folder", 1),
    case("install-calc-a-file", "install-calc --profile {file}", "expected a folder", 1, b"x"),
    case("unknown-command", "frobnicate {book}", "invalid choice", 2),
    case("missing-book", "pair", "required", 2),
]

# --- outputs ------------------------------------------------------------------------------

OUTPUT_CASES = [
    case("report-no-folder", "report {book} pairings --out {tmp}/none/r.html", "no folder"),
    case("report-is-folder", "report {book} pairings --out {tmp}", "it is a folder"),
    case("report-bad-extension", "report {book} pairings --out {tmp}/r.docx", ".docx"),
    case("report-nowhere", "report {book} pairings", "say where the report goes"),
    case("export-text-no-folder", "export-aga {book} --text {tmp}/none/a.txt", "no folder"),
    case("export-xml-no-folder", "export-aga {book} --xml {tmp}/none/a.xml", "no folder"),
    case("export-is-folder", "export-aga {book} --xml {tmp}", "it is a folder"),
    case("ratings-no-folder", "ratings {book} --out {tmp}/none/r.csv", "no folder"),
    case("ratings-is-folder", "ratings {book} --out {tmp}", "it is a folder"),
    case("serve-no-site", "serve {book}", "there is no site folder"),
    case("serve-site-is-file", "serve {book} --folder {file}", "is a file, not a folder", 1, b"x"),
    case("serve-port-minus-1", "serve {book} --port -1", "port -1 is not a port number"),
    case("serve-port-70000", "serve {book} --port 70000", "port 70000 is not a port number"),
    case("serve-port-text", "serve {book} --port eighty", "invalid int value: 'eighty'", 2),
    case(
        "serve-poster-no-folder",
        "serve {book} --poster-only --poster {tmp}/none/p.pdf",
        "no folder",
    ),
    case("serve-poster-not-pdf", "serve {book} --poster-only --poster {tmp}/p.png", "end in .pdf"),
    case("serve-poster-only-any-port", "serve {book} --poster-only --port 0", "a fixed port"),
    case("serve-bind-a-name", "serve {book} --bind hall-pc", "is not an IPv4 address"),
    case("accept-results-a-board", "accept-results {book} --board 1", "unrecognized arguments", 2),
    case("checkin-superscript-two", "checkin {book} --player ²", "invalid int value: '²'", 2),
    case(
        "checkin-23-digits",
        "checkin {book} --player 99999999999999999999999",
        "99999999999999999999999 is past 9,007,199,254,740,992",
        2,
    ),
    case("checkin-not-registered", "checkin {book} --player 987654", "is not in the Players sheet"),
    case("drop-5000-digits", "drop {book} --player " + "9" * 5000, "(5,000 characters)", 2),
    case("take-entries-missing-book", "take-entries {tmp}/missing.xlsx", "missing.xlsx"),
    case("take-entries-a-board", "take-entries {book} --board 1", "unrecognized arguments", 2),
    case("check-aga-missing-book", "check-aga {tmp}/missing.xlsx", "missing.xlsx"),
    case("publish-no-folder", "publish {book} --to {tmp}/none/site", "there is no folder"),
    case("publish-to-a-file", "publish {book} --to {book}", "is a file, not a folder"),
    case("publish-among-files", "publish {book} --to {tmp}", "not a site published by"),
]

# --- the workbook itself ------------------------------------------------------------------

BOOK_CASES = [
    case("book-missing", "check {tmp}/missing.xlsx", "missing.xlsx"),
    case("book-text", "pair {file}", "not an Excel .xlsx workbook", file=b"not a workbook\n"),
    case("book-empty", "standings {file}", "not an Excel .xlsx workbook", file=b""),
    case("book-tdlista", "bands {file}", "not an Excel .xlsx workbook", file=b"\r\n".join(TDLISTA)),
    case("book-folder", "check {tmp}", "not an Excel .xlsx workbook"),
]

# --- TDListA files ------------------------------------------------------------------------

TDLISTA_CASES = [
    case(f"tdlista-{name}", "import-tdlista {book} {file}", message, file=content)
    for name, content, message in [
        ("empty", b"", "empty"),
        ("blank-lines", b"\r\n\r\n \t \r\n", "empty"),
        ("binary", b"\x00\x01\x02binary\x00", "NUL byte"),
        ("zip", b"PK\x03\x04\x14\x00\x06\x00" * 20, "NUL byte"),
        ("utf16-no-bom", b"\r\n".join(TDLISTA[:3]).decode().encode("utf-16-le"), "UTF-16"),
        (
            "undefined-cp1252",
            b"\r\n".join([TDLISTA[0].replace(b"a", b"\x81", 1), *TDLISTA[1:3]]),
            "byte 0x81 is neither UTF-8 nor Windows-1252",
        ),
        ("csv", b"Name,AGA,Rank\r\nDoe,1,3k\r\n", "no tab at all"),
        ("three-columns", b"a\tb\tc\r\nd\te\tf\r\n", "9 tab-separated fields"),
        (
            "aga-not-number",
            b"\r\n".join([*TDLISTA[:3], b"Bad, Guy\t12x45\tFull\t\t\t\t\t\t"]),
            "line 4: AGA number '12x45'",
        ),
        (
            "aga-huge-text",
            b"\r\n".join([*TDLISTA[:3], b"Bad, Guy\t" + b"7" * 1500 + b"x\t"]),
            "(1,501 characters)",
        ),
        (
            "aga-out-of-range",
            b"\r\n".join([*TDLISTA[:3], b"Bad, Guy\t100000\tFull\t\t\t\t\t\t"]),
            "line 4: AGA number '100000' of 'Bad, Guy' is not from 1 to 99999",
        ),
        (
            "aga-zero",
            b"\r\n".join([*TDLISTA[:3], b"Bad, Guy\t0\tFull\t\t\t\t\t\t"]),
            "is not from 1 to 99999",
        ),
        (
            "aga-1900-digits",
            b"\r\n".join([*TDLISTA[:3], b"Bad, Guy\t" + b"7" * 1900 + b"\t"]),
            "(1,900 characters) of 'Bad, Guy' is not from 1 to 99999",
        ),
        (
            "no-aga",
            b"\r\n".join([*TDLISTA[:3], b"Bad, Guy\t\tFull\t\t\t\t\t\t"]),
            "line 4: no AGA number",
        ),
        ("bad-bom-utf16", b"\xff\xfe" + b"\x00\xd8", "is not UTF-16"),
    ]
] + [
    case("tdlista-missing", "import-tdlista {book} {tmp}/none.txt", "cannot read"),
    case("tdlista-folder", "import-tdlista {book} {tmp}", "cannot read"),
]

# --- the EGD list, and lists from the web ------------------------------------------------------

EGD_CASES = [
    case(f"egd-{name}", "import-egd-list {book} {file}", message, file=content)
    for name, content, message in [
        ("empty", b"", "the file is empty"),
        ("blank-lines", b"\r\n\r\n \t \r\n", "the file is empty"),
        ("binary", b"\x00\x01\x02binary\x00", "NUL byte"),
        ("tdlista", b"\r\n".join(TDLISTA), "not an EGD rating list: no line holds a player"),
        ("utf16-no-bom", b" 14986906  Aahs Robert  SE".decode().encode("utf-16-le"), "UTF-16"),
        ("web-page", b"<html><title>Sign in</title></html>", "not an EGD rating list"),
    ]
] + [
    case("egd-missing", "import-egd-list {book} {tmp}/none.txt", "cannot read"),
    case("egd-folder", "import-egd-list {book} {tmp}", "cannot read"),
    case("egd-neither", "import-egd-list {book}", "needs the EGD rating list file", 2),
    case("egd-both", "import-egd-list {book} {file} --download", "not both", 2, b"x"),
    case("egd-download-ftp", "import-egd-list {book} --download ftp://x/l", "is not a web address"),
    case("tdlista-download-file", "import-tdlista {book} --download file:///etc/x", "not a web"),
    case("tdlista-download-no-host", "import-tdlista {book} --download http://", "not a web"),
    case("download-list-ftp", "download-list {book} --url ftp://x/l", "is not a web address"),
    case("register-pin-zero", "register {book} --pin 0", "0 is not between 1 and 99999999", 2),
    case("register-pin-text", "register {book} --pin abc", "'abc' is not a whole number", 2),
    case("register-pin-huge", "register {book} --pin 123456789012", "is not between 1 and", 2),
    case("register-pin-unknown", "register {book} --pin 12345678", "is not in the EGD list sheet"),
    case("register-pin-and-aga", "register {book} --pin 12345678 --aga 5", "not both", 2),
]  # fmt: skip

# --- pre-registration CSV files -----------------------------------------------------------


def csv_file(*rows: str, encoding: str = "utf-8") -> bytes:
    return (CSV_HEAD + "".join(r + "\r\n" for r in rows)).encode(encoding)


CSV_CASES = [
    case(f"csv-{name}", "preregister {book} {file}", message, file=content)
    for name, content, message in [
        ("empty", b"", "the file is empty"),
        ("binary", b"\x00\x01\x02\x03binary\x00", "NUL byte"),
        ("utf16-no-bom", csv_file('"Doe, John",,5k,', encoding="utf-16-le"), "UTF-16 without"),
        ("utf16-be-no-bom", csv_file('"Doe, John",,5k,', encoding="utf-16-be"), "UTF-16 (big"),
        ("undefined-cp1252", b"Name,Rank\r\nDo\x81e,5k\r\n", "byte 0x81"),
        ("no-name-column", b"Rank,Club\r\n5k,SEA\r\n", "no name column"),
        ("aga-out-of-range", csv_file('"Doe, John",123456,5k,'), "'123456' is not from 1 to 99999"),
        ("aga-zero", csv_file('"Doe, John",0,5k,'), "AGA number '0' is not from 1 to 99999"),
        ("control-characters", csv_file('"Doe\x01, John",,5k,'), "control characters"),
        (
            "huge-cell",
            csv_file(f'"Doe, {HUGE[:5000]}",,5k,'),
            "5,005 characters; expected at most 2,000",
        ),
        ("field-over-csv-limit", csv_file(f'"Doe, {HUGE * 2}",,5k,'), "not a CSV row"),
        ("bye-round-99", csv_file('"Doe, John",,5k,99'), "'99' is not a round number"),
        ("bye-round-0", csv_file('"Doe, John",,5k,0'), "'0' is not a round number"),
        ("bye-round-huge", csv_file('"Doe, John",,5k,' + "9" * 5000), "expected at most 2,000"),
        ("aga-not-number", csv_file('"Doe, John",12x,5k,'), "AGA number '12x'"),
        ("rank-1e308", csv_file('"Doe, John",,1e308,'), "is not a rank"),
        ("rank-huge", csv_file('"Doe, John",,' + "5" * 1500 + "k,"), "characters)"),
        ("duplicate-aga", csv_file('"Doe, John",123,5k,', '"Roe, Jane",123,4k,'), "already on"),
    ]
] + [case("csv-missing", "preregister {book} {tmp}/none.csv", "cannot read")]

# --- AGA text reports ---------------------------------------------------------------------

TEXT_CASES = [
    case(f"aga-text-{name}", "import-aga-text {book} {file} --yes", message, file=content)
    for name, content, message in [
        ("games-99999", aga_text("GAMES 99999\n99995\t99994\tW\t0\t7\n"), "numbered 1 to 30"),
        ("games-0", aga_text("GAMES 0\n"), "numbered 1 to 30"),
        ("games-huge", aga_text("GAMES " + "9" * 1500 + "\n"), "(1,506 characters)"),
        ("handicap-12", aga_text("GAMES 1\n99995\t99994\tW\t12\t0\n"), "handicap 12 is not"),
        ("komi-999", aga_text("GAMES 1\n99995\t99994\tW\t0\t999\n"), "komi 999 is not"),
        (
            "komi-huge",
            aga_text("GAMES 1\n99995\t99994\tW\t0\t" + "9" * 1500 + "\n"),
            "is not a whole number",
        ),
        ("control-characters", aga_text("GAMES 1\n99995\t99994\tW\t0\t7\x07\n"), "control"),
        ("long-line", aga_text("GAMES 1\n" + "9" * 10_000 + "\n"), "10,000 characters"),
        ("binary", b"\x00\x01binary\x00", "NUL byte"),
        ("utf16-no-bom", AGA_TEXT.decode().encode("utf-16-le"), "UTF-16 without"),
        ("undefined-cp1252", AGA_TEXT.replace(b"c, c", b"c\x8d, c"), "byte 0x8D"),
        ("no-players", b"TOURNEY x\n", "no PLAYERS section"),
        ("unknown-player", aga_text("GAMES 1\n12345\t99994\tW\t0\t7\n"), "not in PLAYERS"),
        ("bad-result", aga_text("GAMES 1\n99995\t99994\tX\t0\t7\n"), "result 'X'"),
        (
            "player-twice",
            aga_text("GAMES 1\n99995\t99994\tW\t0\t7\n99995\t99996\tW\t0\t7\n"),
            "appears twice",
        ),
        ("not-a-report", b"hello\nworld\n", "expected TOURNEY"),
        (
            "dates-reversed",
            AGA_TEXT.replace(b"finish=10/29/2013", b"finish=10/28/2013"),
            "End date 2013-10-28 is before Start date 2013-10-29",
        ),
    ]
]

# --- AGA XML reports ----------------------------------------------------------------------

XML_CASES = [
    case(f"aga-xml-{name}", "import-aga-xml {book} {file} --yes", message, file=content)
    for name, content, message in [
        ("round-1000000", xml_round("1000000"), "RoundNumber='1000000' is not a round number"),
        ("round-0", xml_round("0"), "is not a round number"),
        ("round-31", xml_round("31"), "(1 to 30)"),
        ("round-huge", xml_round("9" * 5000), "characters)"),
        ("handicap-12", xml_round(handicap="12"), "Handicap='12' is not a number of stones"),
        ("handicap-negative", xml_round(handicap="-1"), "Handicap='-1'"),
        ("komi-1e308", xml_round(komi="1e308"), "not between -50 and 50"),
        ("komi-nan", xml_round(komi="nan"), "Komi='nan' is not a number"),
        ("komi-quarter", xml_round(komi="6.25"), "not in half points"),
        ("billion-laughs", BILLION_LAUGHS, "entit"),
        ("not-xml", b"this is not xml", "not well-formed"),
        ("binary", b"\x00\x01\x02", "not well-formed XML"),
        ("wrong-root", b"<html><body/></html>", "expected <TournamentReport>"),
        ("truncated", xml_round()[:-40], "not well-formed"),
        (
            "dates-reversed",
            xml_round().replace(
                b"</Header>",
                b"<StartDate>2024-05-02</StartDate><EndDate>2024-05-01</EndDate></Header>",
            ),
            "End date 2024-05-01 is before Start date 2024-05-02",
        ),
    ]
] + [case("aga-xml-missing", "import-aga-xml {book} {tmp}/none.xml", "cannot read")]

# --- OpenGotha files ----------------------------------------------------------------------


def opengotha(
    round_number: str = "1", result: str = "RESULT_WHITEWINS", rounds: str = "3"
) -> bytes:
    """A two-player OpenGotha tournament file with one game."""
    return (
        '<Tournament dataVersion="201"><Players>'
        '<Player name="Ann" firstName="A" rank="1D"/><Player name="Bob" firstName="B" rank="2K"/>'
        f'</Players><Games><Game roundNumber="{round_number}" tableNumber="1" '
        f'whitePlayer="ANNA" blackPlayer="BOBB" handicap="0" result="{result}"/></Games>'
        f'<TournamentParameterSet><GeneralParameterSet numberOfRounds="{rounds}"/>'
        "<HandicapParameterSet/></TournamentParameterSet></Tournament>"
    ).encode()


OPENGOTHA_CASES = [
    case(f"opengotha-{name}", "import-opengotha {book} {file} --yes", message, file=content)
    for name, content, message in [
        ("both-win", opengotha(result="RESULT_BOTHWIN"), "RESULT_BOTHWIN has no AGA equivalent"),
        ("round-0", opengotha("0"), "roundNumber=0 is not a round (1 to 30)"),
        ("round-huge", opengotha("9" * 5000), "is not a whole number"),
        ("rounds-huge", opengotha(rounds="9" * 20), "is not a number of rounds (1 to 30)"),
        ("result-huge", opengotha(result="R" * 40_000), "(40,000 characters) has no AGA"),
        (
            "players-beyond-temporary-numbers",
            opengotha().replace(
                b"<Players>",
                b"<Players>" + b"".join(b'<Player name="P%d"/>' % i for i in range(10_000)),
            ),
            "10,002 players: all 10000 temporary AGA numbers 90000-99999 are in use",
        ),
        ("rounds-0", opengotha(rounds="0"), "numberOfRounds='0' is not a number of rounds"),
        ("rounds-negative", opengotha(rounds="-1"), "numberOfRounds='-1' is not a number"),
        ("rounds-31", opengotha(rounds="31"), "numberOfRounds='31' is not a number of rounds"),
        ("not-xml", b"this is not xml", "not well-formed"),
        ("billion-laughs", BILLION_LAUGHS, "declares entities"),
        ("wrong-root", b"<TournamentReport/>", "not an OpenGotha tournament file"),
    ]
] + [
    case("opengotha-missing", "import-opengotha {book} {tmp}/none.xml", "cannot read"),
    case("export-opengotha-no-folder", "export-opengotha {book} {tmp}/none/a.xml", "no folder"),
    case("export-opengotha-is-folder", "export-opengotha {book} {tmp}", "it is a folder"),
]

EGD_REPORT_CASES = [
    case("check-egd-missing-book", "check-egd {tmp}/missing.xlsx", "missing.xlsx"),
    case(
        "export-egd-no-out", "export-egd {book}", "the following arguments are required: --out", 2
    ),
    case("export-egd-class-z", "export-egd {book} --out {tmp}/a.h9 --class Z", "invalid choice", 2),
    case("check-egd-huge-country", "check-egd {book} --country " + "D" * 40_000, "2-letter code"),
    case("export-egd-is-folder", "export-egd {book} --out {tmp} --force --yes", "it is a folder"),
]

RULES_CASES = [
    case("rules-unknown-preset", "rules {book} --preset WGC", "invalid choice: 'WGC'", 2),
    case("rules-control-char", "rules {book} --preset EGF\x01", "invalid choice", 2),
]

JOURNAL_CASES = [
    case("undo-no-journal", "undo {book}", "has no journal yet"),
    case("undo-to-text", "undo {book} --to two", "invalid int value: 'two'", 2),
    case("undo-to-0", "undo {book} --to 0", "nothing to undo"),
    case("redo-no-journal", "redo {book}", "has no journal yet"),
    case("undo-no-book", "undo {tmp}/nowhere.xlsx", "has no journal yet"),
    case("history-no-book", "history {tmp}/nowhere.xlsx", "does not exist"),
    case("history-prune-text", "history {book} --prune-before x", "invalid int value", 2),
    case("history-prune-none", "history {book} --prune-before 5", "has no journal entries"),
]

ALL_CASES = [
    *RULES_CASES,
    *JOURNAL_CASES,
    *ROUND_CASES,
    *NUMBER_CASES,
    *CREATE_CASES,
    *OUTPUT_CASES,
    *BOOK_CASES,
    *TDLISTA_CASES,
    *EGD_CASES,
    *CSV_CASES,
    *TEXT_CASES,
    *XML_CASES,
    *OPENGOTHA_CASES,
    *EGD_REPORT_CASES,
]

MAX_MESSAGE_LINE = 600
"""No line of a message is longer: values are quoted at most 200 characters."""


@pytest.fixture(scope="module")
def original(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile") / "tournament.xlsx"
    return write_workbook(path, simple_tournament(10, 2), rounds=ROUNDS)


@pytest.fixture
def book(original: Path, tmp_path: Path) -> Path:
    path = tmp_path / "tournament.xlsx"
    shutil.copyfile(original, path)
    return path


def expand(c: Case, book: Path, tmp_path: Path) -> list[str]:
    file = tmp_path / "input.dat"
    if c.file is not None:
        file.write_bytes(c.file)
    values = {"book": str(book), "file": str(file), "tmp": str(tmp_path)}
    return [a.format(**values) for a in c.args]


def folder_state(folder: Path) -> dict[str, str]:
    """Every file beside the workbook but the case's input (the turn lock is elsewhere)."""
    return {p.name: digest(p) for p in folder.iterdir() if p.is_file() and p.name != "input.dat"}


@pytest.mark.parametrize("c", ALL_CASES, ids=lambda c: c.id)
def test_hostile_input_is_one_short_message_and_the_workbook_is_unchanged(
    c: Case, book: Path, tmp_path: Path
) -> None:
    before = folder_state(tmp_path)
    result = run(*expand(c, book, tmp_path))
    output = result.stdout + result.stderr
    assert result.returncode == c.code, output
    assert c.message in result.stderr, output
    assert "Traceback" not in output
    assert all(len(line) <= MAX_MESSAGE_LINE for line in output.splitlines()), output[:2000]
    assert folder_state(tmp_path) == before  # the workbook and nothing else written


def test_an_input_file_far_too_large_is_refused_before_it_is_read(
    book: Path, tmp_path: Path
) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as f:
        f.truncate(101 * 2**20)  # sparse: costs no disk
    before = digest(book)
    result = run("import-tdlista", book, huge)
    assert result.returncode == 1
    assert "105,906,176 bytes is more than the 100 MB" in result.stderr
    assert digest(book) == before


def test_there_are_at_least_100_cases_covering_every_command() -> None:
    from addin.cli import build_parser

    parser = build_parser()
    commands = set(parser._subparsers._group_actions[0].choices)  # type: ignore[union-attr]
    covered = {c.args[0] for c in ALL_CASES} | set(HAND_EDITED)
    covered |= {"install-excel"}  # Windows/macOS Excel only: no input beyond flags
    assert len(ALL_CASES) + len(HAND_EDITED) >= 100
    assert commands <= covered, sorted(commands - covered)


# --- a workbook edited by hand ------------------------------------------------------------


def set_cell(path: Path, sheet: str, header: str, value: object, row: int = 2) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb[sheet]
    headers = [c.value for c in ws[1]]
    ws.cell(row=row, column=headers.index(header) + 1, value=value)
    wb.save(path)


def set_setting(path: Path, label: str, value: object) -> None:
    wb = openpyxl.load_workbook(path)
    ws = wb["Tournament"]
    for row in ws.iter_rows():
        for cell in row:
            if cell.value == label:
                ws.cell(row=cell.row, column=cell.column + 1, value=value)
    wb.save(path)


HAND_EDITED: dict[str, tuple[Callable[[Path], None], str]] = {
    "check": (lambda p: set_cell(p, "Round 1", "Handicap", 12), "a handicap is 0 to 9 stones"),
    "standings": (lambda p: set_cell(p, "Round 2", "Komi", 1e308), "is not between -50 and 50"),
    "bands": (lambda p: set_setting(p, "Komi (even games)", 1e308), "Komi (even games)"),
    "pair": (lambda p: set_setting(p, "Komi (even games)", 7.3), "not in half points"),
    "export-aga": (lambda p: set_cell(p, "Round 1", "Komi", -7.25), "not in half points"),
    "check-aga": (lambda p: set_cell(p, "Players", "AGA fee", -5), "is not an amount in dollars"),
    "check-egd": (lambda p: set_cell(p, "Players", "EGD PIN", "1e7x"), "EGD PIN"),
}


@pytest.mark.parametrize("command", sorted(HAND_EDITED))
def test_a_hand_edited_value_out_of_range_is_a_problem_named_by_sheet(
    command: str, book: Path, tmp_path: Path
) -> None:
    edit, message = HAND_EDITED[command]
    edit(book)
    before = digest(book)
    extra = {
        # --force: past what the AGA would reject (no dates, no director) to the komi warning
        "export-aga": ["--xml", str(tmp_path / "a.xml"), "--force"],
    }.get(command, [])
    result = run(command, book, *extra)
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    # export-aga does not read komi: a warning to confirm (3), not an error
    assert result.returncode == (3 if command == "export-aga" else 1), output
    assert message in output
    assert digest(book) == before


def test_debug_shows_the_traceback_of_an_unexpected_failure(book: Path, tmp_path: Path) -> None:
    """``--debug`` (anywhere on the line) lets an unexpected failure raise as it is."""
    import addin.actions.standings as standings

    def broken(*_: object) -> None:
        raise ZeroDivisionError("a bug")

    saved = standings.update_standings
    from addin.actions.registry import ACTIONS

    spec = ACTIONS["standings"]
    ACTIONS["standings"] = dataclasses.replace(spec, run=broken)
    try:
        plain = run("standings", book)
        assert plain.returncode == 1
        assert "error: standings: ZeroDivisionError: a bug" in plain.stderr
        assert "--debug" in plain.stderr
        assert "tournament.xlsx is unchanged" in plain.stderr
        with pytest.raises(ZeroDivisionError):
            run("standings", book, "--debug")
    finally:
        ACTIONS["standings"] = spec
        assert standings.update_standings is saved


def test_an_unforeseen_failure_is_described_in_one_short_line_at_both_doors() -> None:
    """``describe`` is what the command line prints and Excel's dialog shows."""
    from openpyxl.utils.exceptions import IllegalCharacterError

    from addin.actions.failure import describe

    assert (
        describe(MemoryError()) == "out of memory: an input is far larger than a tournament needs"
    )
    assert describe(FileNotFoundError(2, "No such file or directory", "/x/y.txt")) == (
        "/x/y.txt: No such file or directory"
    )
    illegal = describe(IllegalCharacterError("Bad\x01Name cannot be used in worksheets."))
    assert illegal == "'Bad\\x01Name' holds control characters, which no Excel cell may hold"
    long = describe(ValueError("v" * 100_000 + "\nsecond line"))
    assert "\n" not in long and len(long) < 400 and "(100,012 characters)" in long
