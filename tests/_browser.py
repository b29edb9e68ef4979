"""Headless Chromium for the tests that look at pictures the way a person does: screenshots and the DOM.

Tests using :func:`chromium` skip, naming Debian's ``chromium`` package, when no browser is installed; CI
installs it (``.ci/run``) and sets ``XIANGQI_REQUIRE_BROWSER=1``, under which a missing browser or Pillow fails
the tests instead: there they must run, and a skip would hide that they did not.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import List, NoReturn, Optional, Tuple

import pytest

Pixel = Tuple[int, int, int]


def missing(message: str) -> NoReturn:
    """Skip the test for want of ``message``'s tool, or fail it where the tools are required (CI)."""
    if os.environ.get("XIANGQI_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{message} (XIANGQI_REQUIRE_BROWSER=1: this test must run, not skip)", pytrace=False)
    pytest.skip(message, allow_module_level=True)


try:
    import PIL.Image as PIL_Image
except ImportError:
    missing("Pillow (the test extra) decodes the screenshots: pip install pillow")


def chromium() -> str:
    """The browser's path, or skip the test (fail it under ``XIANGQI_REQUIRE_BROWSER=1``)."""
    path = os.environ.get("XIANGQI_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        missing("headless Chromium not found: install Debian's package `chromium` (apt-get install chromium)")
    return path


def _run(args: List[str], env: Optional[dict] = None, zoom: int = 1) -> "subprocess.CompletedProcess[str]":
    base = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            f"--force-device-scale-factor={zoom}", "--allow-file-access-from-files", "--virtual-time-budget=5000"]
    done = subprocess.run(base + args, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


def screenshot(page: Path, width: int, height: int, out: Path, *, env: Optional[dict] = None,
               zoom: int = 1) -> "PIL_Image.Image":
    """A ``width`` x ``height`` screenshot of ``page`` (a local file) as an RGB image; ``zoom`` device pixels a CSS
    pixel (the image is then ``zoom`` times as large)."""
    if out.exists():
        out.unlink()
    _run([f"--screenshot={out}", f"--window-size={width},{height}", page.resolve().as_uri()], env, zoom)
    assert out.exists(), f"Chromium wrote no screenshot of {page}"
    return PIL_Image.open(out).convert("RGB")


def dom(page: Path, fragment: str = "") -> str:
    """The page's DOM after its scripts ran, serialised as HTML (``fragment``: the URL's part after ``#``)."""
    return _run(["--dump-dom", page.resolve().as_uri() + (f"#{fragment}" if fragment else "")]).stdout


def close(p: Pixel, q: Pixel, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(p, q))


def hex_rgb(color: str) -> Pixel:
    return int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16)


def ink(p: Pixel) -> str:
    """``red``, ``black`` or ``other``: the ink a pixel shows."""
    r, g, b = p
    if r > 150 and g < 90 and b < 90:
        return "red"
    if max(p) < 70:
        return "black"
    return "other"
