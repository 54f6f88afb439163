"""A real browser for the tests: Debian's headless Chromium driven through
the DevTools protocol over a pipe (--remote-debugging-pipe: no port, no
websocket library). It loads a page, records every console message,
exception, CSP violation and network request, measures the load, and takes
screenshots and PDFs, for tests/test_report_browser.py and bench/report."""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--headless",
    "--no-sandbox",  # root in CI, where the sandbox cannot start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--hide-scrollbars",
    "--remote-debugging-pipe",
)
TIMEOUT_S = 60.0


def require_chromium() -> None:
    """Skips the test without Debian's chromium; in CI (CI=true) fails it: a missing browser is never a green run."""
    import pytest

    if os.access(CHROMIUM, os.X_OK):
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing; scripts/install-system-packages installs it")
    pytest.skip(f"{CHROMIUM} is missing (scripts/install-system-packages installs it)")


@dataclass
class Load:
    """What one page load did."""

    seconds: float  # from the navigation's start to its load event, by the page's own clock
    console: list[str] = field(default_factory=list)  # console messages, exceptions, log entries (CSP violations)
    requests: list[str] = field(default_factory=list)  # every URL requested


class Browser:
    def __init__(self, program: str = CHROMIUM) -> None:
        self.profile = tempfile.mkdtemp(prefix="portkit-chromium-")
        to_browser_r, self._to_browser = os.pipe()
        self._from_browser, from_browser_w = os.pipe()
        # The browser reads commands on fd 3 and writes on fd 4. The child's
        # ends are moved above them first, so that `3<&N 4>&M` never reads a 3
        # or a 4 it has just replaced.
        ends = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_browser_r, from_browser_w)]
        for fd in (to_browser_r, from_browser_w):
            os.close(fd)
        script = f'exec "$0" "$@" 3<&{ends[0]} 4>&{ends[1]} {ends[0]}<&- {ends[1]}>&-'
        self.process = subprocess.Popen(
            ["bash", "-c", script, program, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
            pass_fds=tuple(ends),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for fd in ends:
            os.close(fd)
        self._buffer = b""
        self._next = 0
        self._events: list[dict] = []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Network", "Log"):
            self.call(f"{domain}.enable", session=True)

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError, TimeoutError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------ protocol

    def call(self, method: str, session: bool = False, **params: Any) -> dict:
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._receive()
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events.append(reply)

    def _receive(self) -> dict:
        deadline = time.monotonic() + TIMEOUT_S
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("chromium did not answer")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the pipe")
            self._buffer += chunk
        message, _, self._buffer = self._buffer.partition(b"\0")
        return json.loads(message)

    def _wait_for(self, method: str) -> dict:
        for index, event in enumerate(self._events):
            if event.get("method") == method:
                return self._events.pop(index)
        while True:
            event = self._receive()
            if event.get("method") == method:
                return event
            self._events.append(event)

    # ------------------------------------------------------------ pages

    def load(self, page: Path, width: int = 1280, height: int = 900, mobile: bool = False) -> Load:
        """Opens a file at a window size and waits for its load event."""
        self.call(
            "Emulation.setDeviceMetricsOverride",
            session=True,
            width=width,
            height=height,
            deviceScaleFactor=1,
            mobile=mobile,
        )
        self._events.clear()
        self.call("Page.navigate", session=True, url=page.resolve().as_uri())
        self._wait_for("Page.loadEventFired")
        timing = self.call(
            "Runtime.evaluate",
            session=True,
            expression="JSON.stringify(performance.getEntriesByType('navigation')[0])",
            returnByValue=True,
        )
        entry = json.loads(timing["result"]["value"])
        load = Load(entry["loadEventEnd"] / 1000)
        self.call("Runtime.evaluate", session=True, expression="1", returnByValue=True)  # drains late events
        for event in self._events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.consoleAPICalled":
                load.console.append(" ".join(str(a.get("value", a.get("description"))) for a in params.get("args", [])))
            elif method == "Runtime.exceptionThrown":
                load.console.append(str(params.get("exceptionDetails", {}).get("text")))
            elif method == "Log.entryAdded":
                entry = params.get("entry", {})
                load.console.append(f"{entry.get('level')}: {entry.get('text')}")
            elif method == "Network.requestWillBeSent":
                load.requests.append(params.get("request", {}).get("url", ""))
        return load

    def evaluate(self, expression: str) -> Any:
        """A value from the page (the DevTools protocol's own evaluation: the page's CSP forbids scripts of its own)."""
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        return result["result"].get("value")

    def screenshot(self, path: Path, full_page: bool = False, selector: str | None = None) -> None:
        """The viewport, the whole page, or the element a CSS selector finds."""
        params: dict[str, Any] = {"format": "png"}
        if full_page:
            size = self.call("Page.getLayoutMetrics", session=True)["cssContentSize"]
            params.update(
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": size["width"], "height": size["height"], "scale": 1},
            )
        if selector is not None:
            box = self.evaluate(
                "(r => [r.x + scrollX, r.y + scrollY, r.width, r.height])"
                f"(document.querySelector({json.dumps(selector)}).getBoundingClientRect())"
            )
            clip = dict(zip(("x", "y", "width", "height"), box, strict=True))
            params.update(captureBeyondViewport=True, clip={**clip, "scale": 1})
        data = self.call("Page.captureScreenshot", session=True, **params)["data"]
        path.write_bytes(base64.b64decode(data))

    def pdf(self, path: Path) -> None:
        data = self.call("Page.printToPDF", session=True, printBackground=True, preferCSSPageSize=True)["data"]
        path.write_bytes(base64.b64decode(data))
