"""The web app end to end in headless Chromium (Debian's chromium and chromium-driver, driven
by Selenium with the system driver, so nothing is downloaded): a person starts a three-player
game against two engines, plays by clicking cells, and sees the engines reply.

Without the browser, the driver or Selenium these tests skip and say why."""

from __future__ import annotations

import shutil
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from polychess.web.server import WebServer
from web_server import running_server

WAIT = 30.0


def _find(*names: str) -> str | None:
    for name in names:
        path = shutil.which(name) or (name if Path(name).is_file() else None)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def server() -> Iterator[WebServer]:
    with running_server() as web:
        yield web


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install '.[test]')")
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    chromium = _find("chromium", "chromium-browser", "/usr/bin/chromium")
    driver_path = _find("chromedriver", "/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")
    if chromium is None:
        pytest.skip("no Chromium browser found (apt-get install chromium)")
    if driver_path is None:
        pytest.skip("no chromedriver found (apt-get install chromium-driver)")
    options = Options()
    options.binary_location = chromium
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
    ):
        options.add_argument(argument)
    # An explicit driver path keeps Selenium Manager (which would download one) out of it.
    try:
        driver = webdriver.Chrome(service=Service(executable_path=driver_path), options=options)
    except WebDriverException as error:  # a browser that cannot start here (missing libraries...)
        pytest.skip(f"Chromium did not start: {str(error).splitlines()[0]}")
    driver.set_page_load_timeout(WAIT)
    yield driver
    driver.quit()


def _wait(driver: Any, condition: Any, message: str) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT).until(condition, message)


def _css(driver: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, selector))


def _texts(browser: Any, selector: str) -> list[str]:
    """The text of each element found, read at once (the move list is drawn anew as answers come)."""
    return list(
        browser.execute_script(
            "return [...document.querySelectorAll(arguments[0])].map((e) => e.textContent)", selector
        )
    )


def _click_move(browser: Any, ply: int) -> None:
    """Clicks a move of the list, found and clicked at once (the list is drawn anew as answers come)."""
    browser.execute_script(f"document.querySelector('#moves .move[data-ply=\"{ply}\"]').click()")


def _click_cell(driver: Any, cell: str) -> None:
    """Clicks the middle of a cell, as a person would (whatever lies on top of it)."""
    from selenium.webdriver.common.action_chains import ActionChains

    (element,) = _css(driver, f'#board [data-cell="{cell}"].cell')
    ActionChains(driver).move_to_element(element).click().perform()


def _move_count(driver: Any) -> int:
    return len(_css(driver, "#moves .move"))


def _start_three_player_game(driver: Any, url: str) -> None:
    driver.get(url)
    _wait(
        driver,
        lambda d: d.execute_script("return document.getElementById('new-game').open"),
        "the new-game form did not open",
    )
    # The weakest level searches a hundred nodes a move: quick enough for a test.
    driver.execute_script("document.querySelector('select[name=engine_level]').value = '1';")
    seats = {e.get_attribute("name"): e for e in _css(driver, "#seat-choices input[value=engine]:checked")}
    assert sorted(seats) == ["seat-black", "seat-red"]  # by default: you play White, engines the rest
    _css(driver, "#new-game-start")[0].click()
    _wait(driver, lambda d: len(_css(d, "#board .cell")) == 96, "the board was not drawn")


def test_three_player_game_by_clicks(server: WebServer, browser: Any, tmp_path: Path) -> None:
    _start_three_player_game(browser, server.url)
    assert "White to move" in _css(browser, "#status")[0].text
    assert len(_css(browser, "#board .piece")) == 48

    for origin, target in (("E2", "E4"), ("B1", "C3")):
        before = _move_count(browser)
        _click_cell(browser, origin)
        _wait(browser, lambda d: _css(d, "#board .dot"), f"no dots after clicking {origin}")
        _click_cell(browser, target)
        # the move, then both engines' replies, and White is to move again
        _wait(browser, lambda d, n=before + 3: _move_count(d) == n, "the engines did not reply")
        _wait(browser, lambda d: "White to move" in _css(d, "#status")[0].text, "White is not to move")
        assert _css(browser, f'#board .piece[data-cell="{target}"]')
        assert not _css(browser, f'#board .piece[data-cell="{origin}"]')

    moves = [e.text for e in _css(browser, "#moves .move")]
    assert moves[0] == "E2E4" and moves[3] == "B1C3" and len(moves) == 6
    players = [e.get_attribute("class") for e in _css(browser, "#moves .move")]
    assert players == ["move white", "move red", "move black"] * 2

    shot = tmp_path / "three-player.png"
    assert browser.save_screenshot(str(shot))  # the whole page, kept for a person to look at
    board = _css(browser, "#board svg")[0]
    width, height, pixels = _decode_png(board.screenshot_as_png)
    assert abs(width - board.rect["width"]) <= 2 and abs(height - board.rect["height"]) <= 2
    colours = _colours_in(width, height, pixels)
    # the cells' two shades, the frame, three armies, highlights: a drawn board has many
    assert len(colours) >= 8, f"the board looks blank: {len(colours)} colours"
    assert max(colours.values()) < 0.8 * sum(colours.values()), "the board is mostly one colour"


def test_a_click_off_the_targets_drops_the_piece(server: WebServer, browser: Any) -> None:
    _start_three_player_game(browser, server.url)
    _click_cell(browser, "E5")  # an empty cell: nothing to pick up
    assert not _css(browser, "#board .dot")
    _click_cell(browser, "E2")
    _wait(browser, lambda d: len(_css(d, "#board .dot")) == 2, "no dots on E3 and E4")
    _click_cell(browser, "E6")  # not a target: the piece is put back, no move
    _wait(browser, lambda d: not _css(d, "#board .dot"), "the dots stayed")
    assert _move_count(browser) == 0
    assert browser.find_element("id", "toast").get_attribute("hidden") is not None


# -- reading the screenshot ------------------------------------------------------------------


def _colours_in(width: int, height: int, pixels: bytes) -> dict[bytes, int]:
    """How often each colour occurs (every 3rd pixel each way is enough)."""
    counts: dict[bytes, int] = {}
    for y in range(0, height, 3):
        row = y * width * 4
        for x in range(0, width, 3):
            colour = pixels[row + 4 * x : row + 4 * x + 3]
            counts[colour] = counts.get(colour, 0) + 1
    return counts


def _decode_png(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and RGBA bytes of an 8-bit RGB or RGBA PNG without interlacing (what
    Chromium writes); enough to look at a screenshot without an imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour_type in (2, 6) and interlace == 0, "unexpected PNG kind"
            channels = 3 if colour_type == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    out = bytearray()
    previous = bytearray(stride)
    for y in range(height):
        filter_type = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        _unfilter(filter_type, line, previous, channels)
        if channels == 3:
            for x in range(width):
                out += line[3 * x : 3 * x + 3] + b"\xff"
        else:
            out += line
        previous = line
    return width, height, bytes(out)


def _unfilter(kind: int, line: bytearray, previous: bytearray, bpp: int) -> None:
    if kind == 0:
        return
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = previous[i]
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        else:
            corner = previous[i - bpp] if i >= bpp else 0
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            line[i] = (line[i] + predictor) & 0xFF


# -- playing together, each in their own window --------------------------------------------


def _open_window(driver: Any, link: str, cells: int = 96) -> str:
    driver.switch_to.new_window("window")
    driver.get(link)
    _wait(driver, lambda d: len(_css(d, "#board .cell")) == cells, f"the board of {link} was not drawn")
    return str(driver.current_window_handle)


def _play_in(driver: Any, window: str, origin: str, target: str) -> None:
    driver.switch_to.window(window)
    _wait(driver, lambda d: d.execute_script("return myTurn()"), f"{origin}{target}: not this window's turn")
    _click_cell(driver, origin)
    _wait(driver, lambda d: _css(d, "#board .dot"), f"no dots after clicking {origin}")
    _click_cell(driver, target)


def _everyone_sees(driver: Any, windows: dict[str, str], moves: int, text: str | None = None) -> None:
    for role, window in windows.items():
        driver.switch_to.window(window)
        _wait(driver, lambda d: _move_count(d) == moves, f"{role}'s window does not show move {moves}")
        if text is not None:
            _wait(
                driver,
                lambda d: text in _css(d, "#log")[0].text + _css(d, "#status")[0].text,
                f"{role}'s window does not say {text!r}",
            )


def test_three_people_in_their_own_windows_play_to_a_mate_and_a_transfer(server: WebServer, browser: Any) -> None:
    """A game by invitation from test_three_player_game's MATE_TWICE position: each seat's link in its own
    window moves only that seat, every window (and a spectator's) sees each move live, Black is
    mated and his army passes to White, then White mates Red."""
    import json as json_module
    import urllib.request

    from game.test_three_player_game import MATE_TWICE
    from polychess import Game
    from polychess.formats import write_record
    from positions import position

    record = write_record(Game("three-player", start=position(MATE_TWICE)))
    request = urllib.request.Request(
        server.url + "api/records",
        method="POST",
        data=json_module.dumps({"record": record, "invite": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        links = json_module.loads(response.read())["invitations"]
    assert set(links) == {"white", "red", "black", "spectator"}
    first = browser.current_window_handle
    windows = {role: _open_window(browser, link) for role, link in links.items()}
    for role, window in windows.items():
        browser.switch_to.window(window)
        assert _css(browser, "#you")[0].text == (
            "You are watching." if role == "spectator" else f"You play {role.capitalize()}."
        )
    # Red's window cannot move White's pieces: no legal moves are offered to it.
    browser.switch_to.window(windows["red"])
    assert not browser.execute_script("return myTurn()")
    _click_cell(browser, "B3")
    assert not _css(browser, "#board .dot")

    _play_in(browser, windows["white"], "B3", "H3")
    _everyone_sees(browser, windows, 1)
    _play_in(browser, windows["red"], "G1", "G2")
    _everyone_sees(browser, windows, 2, "Black is checkmated by White; Black's army passes to White.")
    browser.switch_to.window(windows["black"])
    assert "out" in _css(browser, '#seats tr[data-colour="black"]')[0].text
    _play_in(browser, windows["white"], "A3", "A4")
    _play_in(browser, windows["red"], "G2", "G3")
    _play_in(browser, windows["white"], "K10", "K12")  # the inherited rook mates Red
    _everyone_sees(browser, windows, 5, "1st White")
    for window in windows.values():
        browser.switch_to.window(window)
        browser.close()
    browser.switch_to.window(first)


def _invite(url: str, body: dict[str, Any]) -> dict[str, str]:
    import json as json_module
    import urllib.request

    request = urllib.request.Request(
        url + "api/games",
        method="POST",
        data=json_module.dumps({"invite": True, **body}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=WAIT) as response:
        links: dict[str, str] = json_module.loads(response.read())["invitations"]
    return links


def _close_all(driver: Any, windows: dict[str, str], first: str) -> None:
    for window in windows.values():
        driver.switch_to.window(window)
        driver.close()
    driver.switch_to.window(first)


def _turn_shown(driver: Any, windows: dict[str, str], seat: str) -> None:
    """The window of the seat to move says it is its move, in the status, around the board and
    in the tab's title; every other window names the seat to move."""
    name = seat.capitalize()
    for role, window in windows.items():
        driver.switch_to.window(window)
        _wait(driver, lambda d: name in _css(d, "#status")[0].text, f"{role}'s window does not say {name} is to move")
        status = _css(driver, "#status")[0].text
        framed = "your-move" in (_css(driver, "#board-area")[0].get_attribute("class") or "")
        if role == seat:
            assert status.startswith(f"Your move ({name})") and framed, (role, status)
            assert driver.title.startswith(f"● Your move ({name})"), driver.title
        else:
            assert status.startswith(f"{name} to move") and not framed, (role, status)
            assert "Your move" not in driver.title, (role, driver.title)


def test_four_people_in_their_own_windows(server: WebServer, browser: Any) -> None:
    """Four windows on one game all read "Red to move", and nothing told the player to move."""
    links = _invite(server.url, {"variant": "four-player", "mode": "ffa"})
    first = browser.current_window_handle
    windows = {role: _open_window(browser, link, 160) for role, link in links.items()}
    for count, (role, origin, target) in enumerate(
        (("red", "h2", "h3"), ("blue", "b8", "c8"), ("yellow", "g13", "g12"), ("green", "m8", "l8")), start=1
    ):
        _turn_shown(browser, windows, role)
        _play_in(browser, windows[role], origin, target)
        _everyone_sees(browser, windows, count)
    _close_all(browser, windows, first)


def test_the_windows_reconnect_after_a_restart_and_play_on(browser: Any, tmp_path: Path) -> None:
    """The server stops mid-game and starts again on the same database and port: every window
    reconnects by itself and the game goes on, history and clocks kept."""
    import threading

    from polychess.web import make_server

    database = str(tmp_path / "games.sqlite3")
    web = make_server("127.0.0.1", 0, database=database)
    port = web.server_address[1]
    thread = threading.Thread(target=web.serve_forever, daemon=True)
    thread.start()
    links = _invite(web.url, {"variant": "three-player", "time_control": 600})
    first = browser.current_window_handle
    windows = {role: _open_window(browser, link) for role, link in links.items()}
    _play_in(browser, windows["white"], "E2", "E4")
    _everyone_sees(browser, windows, 1)
    web.shutdown()
    web.server_close()
    thread.join(5)

    again = make_server("127.0.0.1", port, database=database)
    thread = threading.Thread(target=again.serve_forever, daemon=True)
    thread.start()
    try:
        _play_in(browser, windows["red"], "N11", "N9")  # Red's window has reconnected: it is his turn
        _everyone_sees(browser, windows, 2)
        browser.switch_to.window(windows["spectator"])
        clock = _css(browser, '#seats tr[data-colour="white"] .clock')[0].text
        assert clock.startswith("9:") or clock.startswith("10:"), clock  # White's ten minutes, barely used
        _close_all(browser, windows, first)
    finally:
        again.shutdown()
        again.server_close()
        thread.join(5)


def test_the_host_makes_a_game_together_from_the_form(server: WebServer, browser: Any) -> None:
    browser.get(server.url)
    _wait(
        browser,
        lambda d: d.execute_script("return document.getElementById('new-game').open"),
        "the new-game form did not open",
    )
    for radio in _css(browser, "#seat-choices input[value=human]"):
        radio.click()  # every seat a person's
    _css(browser, "input[name=invite]")[0].click()
    _css(browser, "#new-game-start")[0].click()
    _wait(
        browser,
        lambda d: d.execute_script("return document.getElementById('invitations').open"),
        "the invitations were not shown",
    )
    rows = {row.get_attribute("data-role"): row for row in _css(browser, "#invitation-links li")}
    assert sorted(rows) == ["black", "red", "spectator", "white"] and "(you)" in rows["white"].text
    for role, row in rows.items():  # every link whole in its box (they were cut off), with a copy button
        link = row.find_element("css selector", ".link")
        assert link.text.startswith(server.url + "#game=") and "&token=" in link.text, role
        assert browser.execute_script(
            "const e = arguments[0]; return e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight;", link
        ), f"{role}'s link is cut off"
        assert row.find_element("css selector", "button.copy").text == "Copy"
    red_link = rows["red"].find_element("css selector", ".link").text
    rows["red"].find_element("css selector", "button.copy").click()
    _wait(
        browser,
        lambda d: rows["red"].find_element("css selector", "button.copy").text == "Copied",
        "the copy button did not copy",
    )
    _css(browser, "#invitations-close")[0].click()
    assert _css(browser, "#you")[0].text == "You play White."
    host = browser.current_window_handle
    _play_in(browser, host, "E2", "E4")
    red = _open_window(browser, red_link)
    _wait(browser, lambda d: _move_count(d) == 1 and d.execute_script("return myTurn()"), "Red cannot move")
    assert _css(browser, "#you")[0].text == "You play Red."
    browser.close()
    browser.switch_to.window(host)
    assert red != host


# -- analysis --------------------------------------------------------------------------------


def _post_record(server: WebServer, text: str) -> str:
    """The id of a game loaded from a record's text through the API."""
    import json
    import urllib.request

    request = urllib.request.Request(
        server.url.rstrip("/") + "/api/records",
        data=json.dumps({"record": text}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=WAIT) as reply:
        return str(json.loads(reply.read())["id"])


def _get(url: str) -> str:
    import urllib.request

    with urllib.request.urlopen(url, timeout=WAIT) as reply:
        return str(reply.read().decode())


def _load_record_game(server: WebServer, name: str) -> str:
    return _post_record(server, (Path(__file__).parents[1] / "data" / "pgn4" / name).read_text())


def _where(driver: Any) -> str:
    return str(_css(driver, "#analysis-where")[0].text)


def test_analysis_of_a_loaded_record(server: WebServer, browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    game_id = _load_record_game(server, "cc_teams_26780486.pgn4")
    browser.get("about:blank")  # else, from the page already open, only the fragment would change
    browser.get(server.url + f"#game={game_id}")
    _wait(browser, lambda d: _move_count(d) > 100, "the record's moves were not shown")
    moves = len(_css(browser, "#moves .move[data-ply]"))  # the moves, not the events (a mate)
    _css(browser, "#analysis-button")[0].click()
    # the game ended in a mate: nothing to search there; the graph of the whole game
    _wait(browser, lambda d: "Game over" in _css(d, "#analysis-depth")[0].text, "the end was not shown")
    assert _where(browser).endswith(f"(ply {moves} of {moves})") and not _css(browser, "#analysis-lines li")
    # the list and the position's label in the game's notation (chess.com's), numbered as the list is
    number, last = browser.execute_script(  # at once: the list is drawn anew when the review comes
        "const m = [...document.querySelectorAll('#moves .move[data-ply]')].pop();"
        "return [m.parentElement.querySelector('.number').textContent, m.firstChild.textContent];"
    )
    assert _where(browser).startswith(f"After {number.rstrip('.')}...{last}")
    _wait(browser, lambda d: _css(d, "#analysis-graph svg"), "no evaluation graph")
    # each player's accuracy and marks under it; the marked moves carry their glyph in the list
    _wait(browser, lambda d: _css(d, "#analysis-summary")[0].get_attribute("hidden") is None, "no summary")
    rows = [r.text for r in _css(browser, "#analysis-summary tr")]
    assert len(rows) == 5 and "accuracy" in rows[0] and all(row.count("%") == 1 for row in rows[1:])
    glyphs = _texts(browser, "#moves .move .glyph")
    assert glyphs and set(glyphs) <= {"?!", "?", "??"}
    assert len(glyphs) == len(
        _css(
            browser, "#analysis-graph circle.blunder, #analysis-graph circle.mistake, #analysis-graph circle.inaccuracy"
        )
    )
    # keyboard: back a move, where the engine finds the mate among its lines, drawn as arrows
    browser.find_element("tag name", "body").send_keys(Keys.ARROW_LEFT)
    _wait(browser, lambda d: _where(d).endswith(f"(ply {moves - 1} of {moves})"), "the left arrow did not step back")
    _wait(browser, lambda d: len(_css(d, "#analysis-lines li")) == 3, "no analysis lines")
    _wait(browser, lambda d: len(_css(d, "#board g.arrow")) == 3, "no arrows on the board")
    assert "depth" in _css(browser, "#analysis-depth")[0].text
    curves = _css(browser, "#analysis-graph polyline")
    assert len(curves) == 2  # the two teams
    assert all(len(c.get_attribute("points").split()) == moves + 1 for c in curves)  # a point a ply, and the start
    first_lines = [e.text for e in _css(browser, "#analysis-lines .line-move")]

    # to the start, where Red moves first
    browser.find_element("tag name", "body").send_keys(Keys.HOME)
    _wait(browser, lambda d: _where(d) == f"Start (ply 0 of {moves})", "Home did not go to the start")
    _wait(
        browser,
        lambda d: "Red to move" in _css(d, "#analysis-depth")[0].text and len(_css(d, "#analysis-lines li")) == 3,
        "no lines at the start",
    )
    assert [e.text for e in _css(browser, "#analysis-lines .line-move")] != first_lines
    # each line shows every player's outlook, and the best line's is the evaluation bar: one a player
    chips = _css(browser, "#analysis-lines li:first-child .outlook")
    assert sorted(c.get_attribute("data-colour") for c in chips) == ["blue", "green", "red", "yellow"]
    bars = _css(browser, "#analysis-bars .bar")
    assert len(bars) == 4 and all(name in bars[0].text for name in ("Red",))

    # a side line tried on the board: Red's i2 pawn one step (the game's first move was h2-h3),
    # in the list's notation, numbered, once the server has written it
    _click_cell(browser, "i2")
    _click_cell(browser, "i3")
    _wait(browser, lambda d: _where(d) == f"Start (ply 0 of {moves}), then 1.i2-i3", "the side line was not played")
    _wait(browser, lambda d: "Blue to move" in _css(d, "#analysis-depth")[0].text, "Blue is not to move after it")

    # the graph leads to its moves
    point = next(p for p in _css(browser, "#analysis-graph .point") if p.get_attribute("data-ply") == "40")
    browser.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", point)
    # ply 40: the fourth move of the tenth round
    _wait(browser, lambda d: _where(d).endswith(f"(ply 40 of {moves})"), "clicking the graph did not go to ply 40")
    assert _where(browser).startswith("After 10...") and "-" in _where(browser)
    _wait(browser, lambda d: len(_css(d, "#analysis-lines li")) == 3, "no lines at move 40")
    # 1 to 5 lines, as chosen; each line's moves in the game's notation
    from selenium.webdriver.support.ui import Select

    for count in (5, 1):
        Select(_css(browser, "#analysis-count")[0]).select_by_value(str(count))
        _wait(browser, lambda d, n=count: len(_css(d, "#analysis-lines li")) == n, f"not {count} lines")
    # read at once: the lines are drawn anew as the engine thinks on
    text, title = browser.execute_script(
        "const m = document.querySelector('#analysis-lines .line-move'); return [m.textContent, m.title];"
    )
    assert text != title  # chess.com's Ni13-j11 or Bi3xm7+, its coordinates on hover
    assert browser.save_screenshot(str(tmp_path / "analysis.png"))  # kept for a person to look at
    shot = Path("/tmp/polychess-analysis.png")
    if shot.parent.is_dir():
        browser.save_screenshot(str(shot))

    # Escape leaves the analysis: the game's own board again
    browser.find_element("tag name", "body").send_keys(Keys.ESCAPE)
    _wait(browser, lambda d: _css(d, "#analysis")[0].get_attribute("hidden") is not None, "Escape did not leave")
    _wait(browser, lambda d: not _css(d, "#board g.arrow"), "the arrows stayed after leaving")


def test_a_pgn_pasted_loads_in_san_and_saves_as_pgn(server: WebServer, browser: Any) -> None:
    import urllib.request

    browser.get("about:blank")
    browser.get(server.url)
    _wait(browser, lambda d: _css(d, "#new-game[open]"), "no new-game dialog at the start")
    browser.execute_script("document.getElementById('new-game').close()")  # a record instead
    _css(browser, "#load-record-button")[0].click()
    box = _css(browser, "#record-text")[0]
    box.clear()
    box.send_keys('[Event "Paris"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 *\n')
    browser.find_element("css selector", "#load-record-form button[type=submit]").click()
    _wait(browser, lambda d: _move_count(d) == 6, "the PGN's moves were not shown")
    assert [m.text for m in _css(browser, "#moves .move")] == ["e4", "e5", "Nf3", "d6", "d4", "Bg4"]
    # Save record offers PGN first, and the link gives the PGN of the game
    options = [o.get_attribute("value") for o in _css(browser, "#save-format option")]
    assert options == ["own", "record", "position"] and _css(browser, "#save-format option")[0].text == "PGN"
    with urllib.request.urlopen(_css(browser, "#save-record")[0].get_attribute("href"), timeout=WAIT) as reply:
        assert "1. e4 e5 2. Nf3 d6 3. d4 Bg4" in reply.read().decode()
    # in analysis, two sides share one evaluation bar: White's part and Black's make it whole
    _css(browser, "#analysis-button")[0].click()
    _wait(browser, lambda d: len(_css(d, "#analysis-bars .bar .part")) == 2, "no evaluation bar")
    widths = [float(p.get_attribute("style").split(":")[1].strip(" %;")) for p in _css(browser, "#analysis-bars .part")]
    assert sum(widths) == pytest.approx(100, abs=0.2) and widths[0] > 0


OPERA_GAME = (  # Morphy against the Duke of Brunswick and Count Isouard, Paris 1858
    '[Event "Paris"]\n\n1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 '
    "8. Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 "
    "15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0\n"
)


def _open_analysis(browser: Any, server: WebServer, record: str) -> None:
    game_id = _post_record(server, record)
    browser.get("about:blank")
    browser.get(server.url + f"#game={game_id}")
    _wait(browser, lambda d: _css(d, "#moves .move"), "the record's moves were not shown")
    _css(browser, "#analysis-button")[0].click()
    _wait(browser, lambda d: "Game over" in _css(d, "#analysis-depth")[0].text, "the analysis did not open")


def _key(browser: Any, key: str) -> None:
    browser.find_element("tag name", "body").send_keys(key)


def _try_in_analysis(browser: Any, origin: str, target: str, where: str) -> None:
    """Plays a move on the analysis board once the position's answer has come (it brings the
    legal moves), and waits for the position's label to end with ``where``."""
    _wait(browser, lambda d: "to move" in _css(d, "#analysis-depth")[0].text, "no answer for the position")
    _click_cell(browser, origin)
    _click_cell(browser, target)
    _wait(browser, lambda d: _where(d).endswith(where), f"{where} was not tried")


def test_side_lines_grow_a_variation_tree(server: WebServer, browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    _open_analysis(browser, server, OPERA_GAME)
    _click_move(browser, 4)  # after 2...d6
    _wait(browser, lambda d: _where(d) == "After 2...d6 (ply 4 of 33)", "the move list did not lead to ply 4")
    # 3.Bc4 Nf6 instead of the game's 3.d4: a variation under the move it replaces, numbered
    _try_in_analysis(browser, "f1", "c4", "then 3.Bc4")
    _try_in_analysis(browser, "g8", "f6", "then 3.Bc4 Nf6")
    _wait(browser, lambda d: _texts(d, "#moves .variation") == ["(3.Bc4 Nf6)"], "no variation")
    # back to the game's line, and a second variation from the same position: 3.Nc3
    _key(browser, Keys.ARROW_LEFT)
    _key(browser, Keys.ARROW_LEFT)
    _wait(browser, lambda d: _where(d) == "After 2...d6 (ply 4 of 33)", "the left arrow did not go back")
    _try_in_analysis(browser, "b1", "c3", "then 3.Nc3")
    _wait(
        browser,
        lambda d: _texts(d, "#moves .variation") == ["(3.Bc4 Nf6)", "(3.Nc3)"],
        "the second variation was not kept beside the first",
    )
    # up and down: the moves tried in place of 3.Nc3, the game's own first
    expected = ["then 3.Bc4", "After 3.d4 (ply 5 of 33)", "then 3.Bc4", "then 3.Nc3"]
    for key, where in zip((Keys.ARROW_UP, Keys.ARROW_UP, Keys.ARROW_DOWN, Keys.ARROW_DOWN), expected, strict=True):
        _key(browser, key)
        _wait(browser, lambda d, w=where: _where(d).endswith(w) or _where(d) == w, f"not at {where}")
    # forward follows the variation; a click in the list leads into it
    _key(browser, Keys.ARROW_UP)
    _key(browser, Keys.ARROW_RIGHT)
    _wait(browser, lambda d: _where(d).endswith("then 3.Bc4 Nf6"), "the right arrow did not follow the variation")
    browser.execute_script(
        "[...document.querySelectorAll('#moves .variation .move')].find((m) => m.textContent === '3.Nc3').click()"
    )
    _wait(browser, lambda d: _where(d).endswith("then 3.Nc3"), "a click did not lead into the variation")
    assert _texts(browser, "#moves .variation .move.current") == ["3.Nc3"]
    # Save line: the game to that position with its side line, in the format chosen (PGN)
    saved = _get(_css(browser, "#analysis-save")[0].get_attribute("href"))
    assert "1. e4 e5 2. Nf3 d6 3. Nc3" in saved and "d4" not in saved


def test_a_mate_found_reads_as_moves_to_mate(server: WebServer, browser: Any) -> None:
    _open_analysis(browser, server, OPERA_GAME)
    _click_move(browser, 30)  # after 15...Nxd7: 16.Qb8+ Nxb8 17.Rd8#
    _wait(browser, lambda d: _where(d) == "After 15...Nxd7 (ply 30 of 33)", "not after 15...Nxd7")
    _wait(browser, lambda d: _texts(d, "#analysis-lines .line-move")[:1] == ["Qb8+"], "the mate was not found")
    chips = _texts(browser, "#analysis-lines li:first-child .outlook")
    assert chips[0].startswith("#2 ") and chips[1].startswith("#-2 ")  # White mates in 2, Black is mated
    assert _texts(browser, "#analysis-bars .bar-text") == ["#2"]


def _outside(browser: Any, root: str) -> list[str]:
    """The elements of ``root`` that reach outside the box of their nearest container (a
    fieldset, a dialog's column, the panel, the board's area, the header, else ``root``)."""
    return list(
        browser.execute_script(
            """
            const root = document.querySelector(arguments[0]);
            const out = [];
            for (const e of root.querySelectorAll("*")) {
              const r = e.getBoundingClientRect();
              if (r.width === 0 && r.height === 0) continue;
              const holders = "fieldset, .column, #panel, dialog form, #board-area, header";
              const holder = e.parentElement.closest(holders) || root;
              const box = holder.getBoundingClientRect();
              if (r.left < box.left - 1 || r.right > box.right + 1) {
                const where = `${r.left}-${r.right} outside ${holder.tagName}#${holder.id} ${box.left}-${box.right}`;
                out.push(`${e.tagName}#${e.id}.${e.className} ${where}`);
              }
            }
            return out;
            """,
            root,
        )
    )


def _scrolls_sideways(browser: Any) -> bool:
    return bool(
        browser.execute_script("return document.documentElement.scrollWidth > document.documentElement.clientWidth")
    )


@pytest.mark.parametrize("width, height", [(1400, 1000), (1024, 768), (420, 900)])
def test_nothing_overflows_at_three_widths(server: WebServer, browser: Any, width: int, height: int) -> None:
    browser.set_window_size(width, height)
    try:
        # the four-player New-game dialog, the longest of the forms
        browser.get("about:blank")
        browser.get(server.url)
        _wait(browser, lambda d: _css(d, "#new-game[open]"), "no new-game dialog")
        _css(browser, "input[name=variant][value=four-player]")[0].click()
        assert not _outside(browser, "#new-game form") and not _scrolls_sideways(browser)
        # a game in play, then its analysis: the graph under the board, in view with it
        _open_analysis(browser, server, OPERA_GAME)
        _wait(browser, lambda d: _css(d, "#analysis-graph svg"), "no evaluation graph")
        _wait(browser, lambda d: _css(d, "#analysis-summary")[0].get_attribute("hidden") is None, "no summary")
        _click_move(browser, 20)
        _wait(browser, lambda d: len(_css(d, "#analysis-lines li")) == 3, "no analysis lines")
        for root in ("header", "main"):
            assert not _outside(browser, root), root
        assert not _scrolls_sideways(browser)
        graph, board, window_height = browser.execute_script(  # at once: both are drawn anew as answers come
            "const box = (s) => document.querySelector(s).getBoundingClientRect();"
            "return [box('#analysis-graph svg'), box('#board svg'), window.innerHeight];"
        )
        assert graph["width"] >= board["width"] - 1  # as wide as the board
        if width > 900:  # beside the panel: the board and the whole graph in the window
            assert graph["bottom"] <= window_height and graph["height"] >= 120
    finally:
        browser.set_window_size(1400, 900)


def _three_player_record() -> str:
    from polychess import Game
    from polychess.formats.record import write_record

    game = Game("three-player")
    for _ in range(7):
        game.push(sorted(str(m) for m in game.legal_moves)[0])
    return write_record(game)


def _fen4() -> str:
    from polychess import Game
    from polychess.formats.fen4 import write_fen4

    game = Game("four-player")
    for _ in range(5):
        game.push(sorted(str(m) for m in game.legal_moves)[-1])
    return write_fen4(game.board)


RECORDS = {  # each format Load record reads: its text, the moves it holds
    "pgn": (lambda: OPERA_GAME, 33),
    "fen": (lambda: "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 0),
    "pgn4": (lambda: (Path(__file__).parents[1] / "data" / "pgn4" / "cc_teams_26780489.pgn4").read_text(), None),
    "fen4": (_fen4, 0),
    "record": (_three_player_record, 7),
}


def _shown_game_id(browser: Any) -> str | None:
    """The id of the game the page shows (None before its script has run or a game has come)."""
    return browser.execute_script("return typeof game === 'undefined' || !game ? null : game.id")


def _paste_record(browser: Any, text: str) -> dict[str, Any]:
    """Loads a record through the Load record dialog, pasted; the page's game once shown."""
    if browser.execute_script("return document.getElementById('new-game').open"):
        browser.execute_script("document.getElementById('new-game').close()")
    previous = _shown_game_id(browser)
    _css(browser, "#load-record-button")[0].click()
    browser.execute_script("document.getElementById('record-text').value = arguments[0]", text)
    browser.find_element("css selector", "#load-record-form button[type=submit]").click()
    _wait(browser, lambda d: _shown_game_id(d) not in (None, previous), "nothing loaded")
    return dict(browser.execute_script("return game"))


def _drawn(server: WebServer, game: dict[str, Any]) -> str:
    """The game's board as the server draws it from the first seat's side, without the last
    move's marks (a position loaded alone has none)."""
    import json
    import re

    seat = game["seats"][0]["colour"]
    drawn = json.loads(_get(server.url + f"api/games/{game['id']}?orientation={seat}"))["svg"]
    return re.sub(r'<polygon class="lastmove"[^>]*>\n?', "", str(drawn))


@pytest.mark.parametrize("name", list(RECORDS))
def test_each_format_loads_and_every_export_loads_back_alike(server: WebServer, browser: Any, name: str) -> None:
    from selenium.webdriver.support.ui import Select

    browser.get("about:blank")
    browser.get(server.url)
    _wait(browser, lambda d: _css(d, "#new-game[open]"), "no new-game dialog at the start")
    make_text, moves = RECORDS[name]
    game = _paste_record(browser, make_text())
    played = [m for m in game["moves"] if m["player"]]
    assert len(played) == moves if moves is not None else len(played) > 50
    assert len(_css(browser, "#moves .move[data-ply]")) == len(played)
    for option in [o.get_attribute("value") for o in _css(browser, "#save-format option")]:
        Select(_css(browser, "#save-format")[0]).select_by_value(option)
        saved = _get(_css(browser, "#save-record")[0].get_attribute("href"))
        copy = _paste_record(browser, saved)
        assert copy["variant"] == game["variant"] and copy["mode"] == game["mode"], option
        assert _drawn(server, copy) == _drawn(server, game), option  # the same position
        if option not in ("position", "fen4"):
            assert copy["moves"] == game["moves"] and copy["turn"] == game["turn"], option
        elif game["turn"] is not None:  # a position holds no end of the game: a mated side is to move there
            assert copy["turn"] == game["turn"], option
        browser.get("about:blank")  # back to the game first loaded, for the next format
        browser.get(server.url + f"#game={game['id']}")
        _wait(browser, lambda d: _shown_game_id(d) == game["id"], "the first game is gone")
