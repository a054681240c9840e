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
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1400,900"):
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


def _click_cell(driver: Any, cell: str) -> None:
    """Clicks the middle of a cell, as a person would (whatever lies on top of it)."""
    from selenium.webdriver.common.action_chains import ActionChains

    (element,) = _css(driver, f'#board [data-cell="{cell}"].cell')
    ActionChains(driver).move_to_element(element).click().perform()


def _move_count(driver: Any) -> int:
    return len(_css(driver, "#moves .move"))


def _start_three_player_game(driver: Any, url: str) -> None:
    driver.get(url)
    _wait(driver, lambda d: d.execute_script("return document.getElementById('new-game').open"),
          "the new-game form did not open")
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
            colour = pixels[row + 4 * x: row + 4 * x + 3]
            counts[colour] = counts.get(colour, 0) + 1
    return counts


def _decode_png(data: bytes) -> tuple[int, int, bytes]:
    """Width, height and RGBA bytes of an 8-bit RGB or RGBA PNG without interlacing (what
    Chromium writes); enough to look at a screenshot without an imaging library."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
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
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        _unfilter(filter_type, line, previous, channels)
        if channels == 3:
            for x in range(width):
                out += line[3 * x:3 * x + 3] + b"\xff"
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
