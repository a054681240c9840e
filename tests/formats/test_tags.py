"""The lexer and writer of the tag-pair formats (polychess.formats.tags), which PGN, PGN4 and
game records share: tags and their escapes, the movetext's tokens and their lines, comments,
variations, results, and the errors, each at its line."""

import re

import pytest

from polychess.formats import Pgn4Error, PgnError, RecordError
from polychess.formats.tags import TagPairError, Token, read_tag_pair_text, wrap, write_tag_pair_text

RECORD_RESULT = re.compile(r"\*|[0-9]+(?:-[0-9]+)+")


def read(text: str, **options):
    return read_tag_pair_text(text, TagPairError, **options)


def tokens(text: str, **options) -> list[tuple[int, str, str]]:
    return [(t.line, t.kind, t.text) for t in read(text, **options).tokens]


# -- tags -------------------------------------------------------------------------------------------


def test_tags_with_their_lines_and_escapes():
    text = '\ufeff[Event "A \\"quoted\\" name"]\n  [Site "back\\\\slash"]\n\n[Round  "1"]\n\n1. e4 *\n'
    split = read(text)
    assert split.tags == {"Event": 'A "quoted" name', "Site": "back\\slash", "Round": "1"}
    assert split.tag_lines == {"Event": 1, "Site": 2, "Round": 4}
    assert list(split.tags) == ["Event", "Site", "Round"]  # in their order


def test_tags_on_one_line_with_a_comment_and_spaces_inside_the_brackets():
    split = read('[ Event "a" ]\t[Site "b"] ; a note [not a tag]\n; a line of its own\n[Date "c"]\n\n1. d4')
    assert split.tags == {"Event": "a", "Site": "b", "Date": "c"}
    assert split.tag_lines == {"Event": 1, "Site": 1, "Date": 3}


def test_names_of_letters_digits_and_underscores():
    assert read('[White_Elo2 "1500"]\n[_x "y"]\n[9 "z"]').tags == {"White_Elo2": "1500", "_x": "y", "9": "z"}


def test_escape_lines_are_skipped_but_counted():
    split = read('% the source of the file\n[Event "x"]\n%[Site "skipped"]\n\n1. e4\n% 1. d4\ne5')
    assert split.tags == {"Event": "x"} and split.tag_lines == {"Event": 2}
    assert tokens("% x\n\n1. e4\n%e5\nd5") == [(3, "number", "1"), (3, "word", "e4"), (5, "word", "d5")]


def test_a_text_without_tags_or_movetext():
    for text in ("", "\n\n", "% only an escape line"):
        split = read(text)
        assert split.tags == {} and split.tokens == [] and split.result is None and split.last_line == 1


# -- movetext ---------------------------------------------------------------------------------------


def test_move_numbers_words_and_periods():
    assert tokens("1. e4 e5 2.Nf3 2... Nc6 3 Bb5 3\u2026a6 .. 4...") == [
        (1, "number", "1"),
        (1, "word", "e4"),
        (1, "word", "e5"),
        (1, "number", "2"),
        (1, "word", "Nf3"),
        (1, "number", "2"),
        (1, "word", "Nc6"),
        (1, "number", "3"),
        (1, "word", "Bb5"),
        (1, "number", "3"),
        (1, "word", "a6"),
        (1, "number", "4"),
    ]
    # PGN4's '..' between the moves of a round
    assert [t for _, kind, t in tokens("1. h2-h3 .. b7-c7 ..R") if kind == "word"] == ["h2-h3", "b7-c7", "R"]
    # a word that starts with digits but has no period is a word: 12Nf6, 0-0
    assert tokens("12Nf6 0-0") == [(1, "word", "12Nf6"), (1, "word", "0-0")]


def test_comments_keep_their_text_and_the_line_they_start_on():
    text = '[Event "x"]\n\n1. e4 { a comment\nover two lines } e5 ; to the end of the line { not a comment\n2. Nf3 {}'
    assert tokens(text) == [
        (3, "number", "1"),
        (3, "word", "e4"),
        (3, "comment", "a comment\nover two lines"),
        (4, "word", "e5"),
        (5, "number", "2"),
        (5, "word", "Nf3"),
        (5, "comment", ""),
    ]


def test_comments_do_not_nest():
    assert tokens("e4 {a {b} c") == [(1, "word", "e4"), (1, "comment", "a {b"), (1, "word", "c")]


def test_nags_and_variations_are_skipped():
    text = "1. e4 $1 e5$14 (1... c5 {a (paren} 2. Nf3 (2. c3 ; )\n) d6) 2. Nf3\n(2. d4 $2) Nc6"
    assert tokens(text) == [
        (1, "number", "1"),
        (1, "word", "e4"),
        (1, "word", "e5"),
        (2, "number", "2"),
        (2, "word", "Nf3"),
        (3, "word", "Nc6"),
    ]


def test_without_variations_parentheses_are_part_of_words():
    text = "1. E2E4 mate(red,white) resign(black) draw 1-2-3"
    split = read(text, results=RECORD_RESULT, variations=False)
    assert [t.text for t in split.tokens] == ["1", "E2E4", "mate(red,white)", "resign(black)", "draw"]
    assert split.result == Token(1, "result", "1-2-3")
    assert [t.text for t in read("E2E4 )", variations=False).tokens] == ["E2E4", ")"]


def test_the_result_ends_the_movetext():
    split = read('[Result "1-0"]\n\n1. e4 e5\n1-0 {White wins}\n')
    assert [t.text for t in split.tokens] == ["1", "e4", "e5"]
    assert split.result == Token(4, "result", "1-0")  # the comment after it is dropped
    for result in ("1-0", "0-1", "1/2-1/2", "*"):
        assert read(f"e4 {result}").result == Token(1, "result", result)
    assert read("e4 1-2-3").result is None  # not a PGN result: a word
    assert read("1. e4 2-1", results=RECORD_RESULT).result == Token(1, "result", "2-1")


def test_last_line():
    assert read('[Event "x"]\n\n1. e4\n{a comment}').last_line == 3  # comments do not count
    assert read('[Event "x"]\n[Site "y"]\n\n{only a comment}').last_line == 2  # the last tag
    assert read("1. e4\n\n*").last_line == 3  # the result


# -- errors -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "problem"),
    [
        ('[Event "x"\n\n1. e4', 1, 'malformed tag \'[Event "x"\' (expected [Name "value"])'),
        ('[Event "x"]\n[Site x]', 2, "malformed tag '[Site x]' (expected [Name \"value\"])"),
        ('[Event "x"] [Site]', 1, "malformed tag '[Site]' (expected [Name \"value\"])"),
        ('[Event x"]', 1, 'malformed tag \'[Event x"]\' (expected [Name "value"])'),
        ('[Ev-ent "x"]', 1, 'malformed tag \'[Ev-ent "x"]\' (expected [Name "value"])'),
        ('[Event "two\nlines"]', 1, 'malformed tag \'[Event "two\' (expected [Name "value"])'),
        ('[Event "x"]\n\n[Event "y"]', 3, "tag Event given twice"),
        ('[Event "x"] junk\n', 1, "unexpected 'junk' after tag Event"),
        ('[Event "x"] {comment}\n', 1, "unexpected '{comment}' after tag Event"),
        ("1. e4 {\nnever\nclosed", 1, "comment '{' is never closed"),
        ("1. e4\n(1. d4 (1. c4)\n", 2, "variation '(' is never closed"),
        ("1. e4 (1. d4 {unclosed) *", 1, "comment '{' is never closed"),
        ("1. e4\n\ne5 )", 3, "')' without '('"),
        ("1. e4 }", 1, "'}' without '{'"),
        ("1. e4 ]", 1, "']' without '['"),
        ("1. e4 $ *", 1, "'$' without a number (a NAG is written $1, $2, ...)"),
        ("1. e4 [Event] *", 1, "a tag inside the movetext"),
        ('1. e4 *\n\n[Event "second"]\n\n1. d4 *', 3, "the tags of another game (read one game at a time)"),
        ('1. e4\n[Event "second"]', 2, "the tags of another game (read one game at a time)"),
        ("1. e4\n1-0 e5", 2, "result 1-0 before the end of the movetext"),
        ("1. e4 * 2.", 1, "result * before the end of the movetext"),
    ],
)
def test_errors_name_the_line_and_the_problem(text, line, problem):
    with pytest.raises(TagPairError) as info:
        read(text)
    assert (info.value.line, info.value.problem) == (line, problem)
    assert str(info.value) == f"line {line}: {problem}" and isinstance(info.value, ValueError)


@pytest.mark.parametrize("error", [PgnError, Pgn4Error, RecordError])
def test_errors_are_raised_as_the_format_s_own(error):
    with pytest.raises(error, match=r"^line 2: tag Event given twice$"):
        read_tag_pair_text('[Event "x"]\n[Event "y"]', error)
    assert issubclass(error, TagPairError)


# -- writing ----------------------------------------------------------------------------------------


def test_write_escapes_and_reads_back():
    tags = {"Event": 'A "quoted" \\ name', "Round": "3", "White_Elo": ""}
    text = write_tag_pair_text(tags, ["1. e4 e5", "2. Nf3 *"])
    assert text == '[Event "A \\"quoted\\" \\\\ name"]\n[Round "3"]\n[White_Elo ""]\n\n1. e4 e5\n2. Nf3 *\n'
    split = read(text)
    assert split.tags == tags and split.result == Token(6, "result", "*")


def test_write_without_movetext_and_values_that_are_not_text():
    assert write_tag_pair_text({"Round": 3}, []) == '[Round "3"]\n\n'


@pytest.mark.parametrize(
    ("tags", "message"),
    [
        ({"Bad Name": "x"}, "bad tag name 'Bad Name' (letters, digits and '_' only)"),
        ({"": "x"}, "bad tag name ''"),
        ({"Event": "two\nlines"}, "the value of tag Event has a line break"),
        ({"Event": "two\rlines"}, "the value of tag Event has a line break"),
        ({"Event": "two\u2028lines"}, "the value of tag Event has a line break"),  # str.splitlines breaks there
    ],
)
def test_write_refuses_what_could_not_be_read_back(tags, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        write_tag_pair_text(tags, [])


def test_wrap():
    words = ["1.", "e4", "e5", "2.", "Nf3", "Nc6"]
    assert wrap(words, width=80) == ["1. e4 e5 2. Nf3 Nc6"]
    assert wrap(words, width=9) == ["1. e4 e5", "2. Nf3", "Nc6"]
    assert wrap(["{a comment longer than the line}", "e4"], width=10) == ["{a comment longer than the line}", "e4"]
    assert all(len(line) <= 80 for line in wrap(["Nf3"] * 100))
