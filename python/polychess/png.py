"""SVG pictures (:mod:`polychess.svg`) converted to PNG files, by rsvg-convert where it is
installed, else by the Python package cairosvg: for ``polychess show -o x.png``, the review's
graph and the learning environments' ``rgb_array`` frames."""

from __future__ import annotations

import importlib
import shutil
import subprocess

__all__ = ["CONVERTER_HELP", "ConverterMissing", "svg_to_png"]

CONVERTER_HELP = (
    "PNG output needs a converter, and none was found: install rsvg-convert "
    "(Debian/Ubuntu: apt install librsvg2-bin; macOS: brew install librsvg) or the Python "
    "package cairosvg (pip install cairosvg), or write SVG instead (-o FILE.svg)"
)


class ConverterMissing(RuntimeError):
    """Neither rsvg-convert nor cairosvg is available."""


def svg_to_png(picture: str, path: str) -> None:
    """Converts SVG text to a PNG file with rsvg-convert or cairosvg.

    Raises :class:`ConverterMissing` when neither is available."""
    tool = shutil.which("rsvg-convert")
    if tool is not None:
        done = subprocess.run(
            [tool, "--format", "png", "--output", path], input=picture.encode("utf-8"), capture_output=True, check=False
        )
        if done.returncode != 0:
            raise OSError(f"rsvg-convert failed: {done.stderr.decode(errors='replace').strip()}")
        return
    try:
        cairosvg = importlib.import_module("cairosvg")
    except (ImportError, OSError):  # the package is missing, or the cairo library it loads is
        raise ConverterMissing(CONVERTER_HELP) from None
    cairosvg.svg2png(bytestring=picture.encode("utf-8"), write_to=path)
