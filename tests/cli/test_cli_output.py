"""What every command's output shares: the --help texts, a stdout whose reader goes away,
counts in the singular and the plural, and the status line shown on terminals only."""

from __future__ import annotations

import argparse
import io
import os
import re
import subprocess
import sys

import pytest

from polychess.cli import build_parser, main
from polychess.cli.status_line import StatusLine
from polychess.cli.wording import plural


def _subcommands() -> argparse._SubParsersAction[argparse.ArgumentParser]:
    return next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))


SUBCOMMANDS = sorted(_subcommands().choices)

# Left in a help text by writing it for another reader: reST and Sphinx (``x``, :class:`x`),
# click's \b paragraph marker, argparse's %-escapes.
RAW_MARKUP = re.compile(r"``|`|:(?:class|func|mod|meth|attr):|\\|\x08|%\(|%%|\*\*")
# How a text that was cut off ends: in the middle of a clause.
CUT_OFF = re.compile(r"(?:[,;:(\-]|\b(?:and|or|the|a|an|of|to|with|e\.g\.))$")


def _flat(text: str) -> str:
    """The text with its line breaks and indentation as single spaces, as help wraps it."""
    return " ".join(text.split())


def test_the_command_list_gives_every_command_a_summary(capsys):
    assert main(["--help"]) == 0
    out = _flat(capsys.readouterr().out)
    for choice in _subcommands()._choices_actions:
        assert choice.help and not CUT_OFF.search(choice.help), choice.dest
        assert f"{choice.dest} {choice.help}" in out
    assert not RAW_MARKUP.search(out)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_help_of_every_command_is_complete(capsys, command):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert not RAW_MARKUP.search(out), RAW_MARKUP.search(out)
    shown = _flat(out)
    parser = _subcommands().choices[command]
    # The description: whole sentences, all of them shown.
    assert parser.description and _flat(parser.description).endswith("."), parser.description
    assert _flat(parser.description) in shown
    # Every paragraph after the options ends where its sentence or list ends.
    for paragraph in (parser.epilog or "").split("\n\n"):
        assert not CUT_OFF.search(_flat(paragraph)), paragraph
        assert _flat(paragraph) in shown
    # Every option says what it does.
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert action.help and action.help != argparse.SUPPRESS, f"{command} {action.option_strings} has no help"
        assert not CUT_OFF.search(action.help), action.help
        assert _flat(action.help) in shown


# --------------------------------------------------------------------------- a closed stdout


@pytest.mark.parametrize(
    "args, stdin",
    [
        (["show", "--compact"], ""),
        (["show", "--variant", "four-player"], ""),
        (["moves"], ""),
        (["perft", "--depth", "2", "--divide"], ""),
        (["perft", "--depth", "3", "--all"], ""),
        (["play", "--variant", "standard", "--humans", "all", "--no-color"], "e2e4\nquit\n"),
        (["selfplay", "--variant", "standard", "--games", "1", "--depth", "1", "--max-plies", "4"], ""),
        (["bench", "--variant", "standard", "--time", "0.05", "--hash", "1"], ""),
    ],
)
def test_a_reader_that_stops_reading_ends_the_command_quietly(args, stdin):
    # As `polychess show --compact | head` when head has read enough: stdout's reading end is
    # closed before the command writes anything, so that every write fails.
    reading_end, writing_end = os.pipe()
    os.close(reading_end)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "polychess", *args],
            stdin=subprocess.PIPE,
            stdout=writing_end,
            stderr=subprocess.PIPE,
        )
    finally:
        os.close(writing_end)
    _, err = process.communicate(stdin.encode(), timeout=120)
    # bench's progress goes to stderr; nothing more may: no "Broken pipe", no traceback, no
    # "Exception ignored" at exit
    assert not re.search(r"Broken pipe|Traceback|Exception ignored|Error", err.decode()), err.decode()
    assert process.returncode == 1  # as Python's documentation does it (signal module, SIGPIPE)


def test_help_to_a_reader_that_stops_reading_is_quiet():
    reading_end, writing_end = os.pipe()
    os.close(reading_end)
    try:
        process = subprocess.Popen(
            [sys.executable, "-m", "polychess", "play", "--help"], stdout=writing_end, stderr=subprocess.PIPE
        )
    finally:
        os.close(writing_end)
    _, err = process.communicate(timeout=60)
    assert err.decode() == ""


# --------------------------------------------------------------------------- wording


def test_plural():
    assert plural(1, "node") == "1 node"
    assert plural(0, "node") == "0 nodes"
    assert plural(2, "game") == "2 games"
    assert plural(1, "ply", "plies") == "1 ply" and plural(3, "ply", "plies") == "3 plies"
    assert plural(1234567, "node", grouped=True) == "1,234,567 nodes"
    assert plural(1, "legal move") == "1 legal move"


# --------------------------------------------------------------------------- the status line


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_status_line_is_redrawn_in_place_and_wiped():
    stream = _Terminal()
    with StatusLine(stream) as line:
        line.show("counting a long line")
        line.show("short")
    assert stream.getvalue() == "\rcounting a long line" + "\rshort" + " " * 15 + "\r" + " " * 5 + "\r"


def test_status_line_writes_nothing_off_a_terminal():
    stream = io.StringIO()
    with StatusLine(stream) as line:
        line.show("counting")
    assert stream.getvalue() == "" and not line.live
