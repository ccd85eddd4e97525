#!/usr/bin/python3
"""Checks a liesim viewer page (framework/share/viewer/view.html filled in) in headless Chromium.

    browser_check.py VIEW.html... [--keep DIR] [--min-frames N] [--timeout S] [--chromium PATH]

1. Statically: the page is self-contained (no http://, https:// or //host address in a src or href
   attribute or a CSS url() outside the inline scripts) and no template marker is left.
2. It plays: opened as is, the page's #liesim-status comes to read "liesim-view ok frame=K/N
   steps=M ..." with M >= --min-frames (default 10) frames advanced.
3. It draws the bodies: a screenshot of "#frame=K" (paused at K, the middle frame) differs from
   one of "#frame=K&empty" (bodies and paths hidden, everything else the same) in more than 0.03 %
   of its pixels. With two runs or more, "#frame=K&side" (runs side by side) differs from both.
4. On every page: no uncaught exception, console.error or browser error (a failed load), nothing
   shown in the page's #liesim-errors, and no request for anything but file:, data:, blob: or
   about: addresses.

Exit 0 when all holds; otherwise each failed check is printed and the exit status is 1 (2 when
the page is missing; 1 when Chromium is: the page is not checked). --keep DIR keeps the screenshots (play.png, frame.png,
empty.png, side.png), each page's console (NAME.console.txt) and Chromium's stderr there.

One Chromium, with a fresh temporary profile, opens the pages one after the other, driven through
the DevTools protocol on a pipe (--remote-debugging-pipe: stdlib only, no port, no websocket); the
whole session is killed (its process group) after --timeout seconds per page (default 60). With
several pages, --keep DIR keeps each page's files in DIR/K-NAME. Each Chromium
start and each page's first WebGL context cost seconds on a CPU-only machine, hence one browser
for all pages rather than one --screenshot / --dump-dom launch per page. The flags, and why each
is there, are in CHROMIUM_FLAGS. Run with Debian's /usr/bin/python3 (stdlib and PIL).
"""
import argparse
import base64
import fcntl
import html.parser
import json
import os
import pathlib
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageChops

MARKERS = ("/*@THREE_JS@*/", "/*@ORBIT_CONTROLS_JS@*/", "/*@VIEW_DATA@*/")
WIDTH, HEIGHT = 1100, 700
MIN_DIFFERENT = 0.0003    # share of the pixels that must differ between two pictures (0.03 %: about 230 pixels of
                          # 1100 x 700, a thin mechanism far from the camera draws about 700)
PIXEL_THRESHOLD = 24      # a pixel differs when its grey level differs by more than this (0..255)
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")

CHROMIUM_FLAGS = [
    # Chromium's own headless mode (the only one in the chromium binary since 132): no display.
    "--headless=new",
    # As root (containers, CI) Chromium refuses to start with its sandbox, and without user
    # namespaces the sandbox cannot start at all. The page is our own file.
    "--no-sandbox",
    # WebGL on the CPU: ANGLE on SwiftShader, the same picture with or without a GPU. Since
    # Chromium 137 SwiftShader WebGL needs --enable-unsafe-swiftshader (else no WebGL context where
    # no GPU is usable).
    "--use-angle=swiftshader",
    "--enable-unsafe-swiftshader",
    # Containers often have a small /dev/shm, on which Chromium crashes; use /tmp instead.
    "--disable-dev-shm-usage",
    # A quiet, quick start: no first-run UI, extensions, background network, sync or sound.
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--mute-audio",
    # Pages opened in the background still run their timers and animation frames at full rate.
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    # Screenshots of the page alone, of a fixed size (also set per page through the protocol).
    "--hide-scrollbars",
    f"--window-size={WIDTH},{HEIGHT}",
    # The DevTools protocol on file descriptors 3 (commands in) and 4 (replies and events out).
    "--remote-debugging-pipe",
]

STATUS_JS = "(function () { var s = document.getElementById('liesim-status'); return s ? s.textContent : null; })()"
ERRORS_JS = "(function () { var e = document.getElementById('liesim-errors'); return e && !e.hidden ? e.textContent : ''; })()"
# Resolves after two animation frames (the page has drawn), or after a second if frames stall.
SETTLE_JS = """new Promise(function (done) {
  var t = setTimeout(done, 1000);
  requestAnimationFrame(function () { requestAnimationFrame(function () { clearTimeout(t); setTimeout(done, 50); }); });
})"""


class Failure(Exception):
    pass


# ---------------------------------------------------------------------------------------- static

class _Attributes(html.parser.HTMLParser):
    """The page's src/href attributes and its CSS. Script bodies are raw text to the parser, so
    three.js's strings are never taken for elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.styles, self._in_style = [], [], False

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href", "action", "poster", "srcset", "data", "background") and value:
                self.links.append((tag, name, value))
            if name == "style" and value:
                self.styles.append(value)
        self._in_style = tag == "style"

    def handle_endtag(self, tag):
        self._in_style = False

    def handle_data(self, data):
        if self._in_style:
            self.styles.append(data)


def static_problems(text):
    problems = [f"template marker {m} was not substituted" for m in MARKERS if m in text]
    parser = _Attributes()
    parser.feed(text)
    for tag, name, value in parser.links:
        if re.match(r"\s*(https?:|//)", value, re.I):
            problems.append(f"not self-contained: <{tag} {name}=\"{value}\">")
    for css in parser.styles:
        for url in re.findall(r"(?:url\(|@import)\s*['\"]?\s*((?:https?:)?//[^)'\"\s]*)", css, re.I):
            problems.append(f"not self-contained: CSS refers to {url}")
    return problems


# ---------------------------------------------------------------------------------------- chromium

class Browser:
    """Headless Chromium driven through the DevTools protocol on a pipe (messages end with NUL)."""

    def __init__(self, path, timeout, keep):
        self.deadline = time.monotonic() + timeout
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="liesim-chromium-")
        self.stderr_path = os.path.join(keep or self.profile, "chromium.stderr.txt")
        self.events = []
        self.buffer = b""
        self.next_id = 0
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def child():  # fds 3 and 4 in chromium; via fds >= 10 so that neither clobbers the other
            a = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.close(a)
            os.close(b)

        with open(self.stderr_path, "w") as err:
            try:
                self.proc = subprocess.Popen([path, *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                             preexec_fn=child, close_fds=False, start_new_session=True)
            except OSError as e:
                shutil.rmtree(self.profile, ignore_errors=True)
                raise Failure(f"cannot run {path}: {e}")
            finally:
                os.close(to_chrome_r)
                os.close(from_chrome_w)

    def stderr_tail(self):
        try:
            with open(self.stderr_path, errors="replace") as fh:
                lines = [l for l in fh.read().splitlines() if "dbus" not in l and "unexpected operator" not in l]
            return "\n    ".join(lines[-12:])
        except OSError:
            return ""

    def _read_message(self, method):
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"chromium did not answer {method} within the {self.timeout:g} s time limit; killed it")
            ready, _, _ = select.select([self.from_chrome], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                self.proc.wait(timeout=5)
                raise Failure(f"chromium exited (status {self.proc.returncode}):\n    {self.stderr_tail()}")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        data = json.dumps(message).encode() + b"\0"
        try:
            while data:
                data = data[os.write(self.to_chrome, data):]
        except BrokenPipeError:
            self.proc.wait(timeout=5)
            raise Failure(f"chromium exited (status {self.proc.returncode}):\n    {self.stderr_tail()}")
        while True:
            reply = self._read_message(method)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise Failure(f"chromium: {method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            if "method" in reply:
                self.events.append(reply)

    def close(self):
        try:
            if self.proc.poll() is None and time.monotonic() < self.deadline:
                self.deadline = min(self.deadline, time.monotonic() + 10)
                self.call("Browser.close")
                self.proc.wait(timeout=max(self.deadline - time.monotonic(), 0.1))
        except (Failure, subprocess.TimeoutExpired, OSError):
            pass
        finally:
            if self.proc.poll() is None:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)  # the wrapper script, chromium, its children
                except ProcessLookupError:
                    pass
                self.proc.wait()
            for fd in (self.to_chrome, self.from_chrome):
                try:
                    os.close(fd)
                except OSError:
                    pass
            shutil.rmtree(self.profile, ignore_errors=True)


class Page:
    def __init__(self, browser, name, url):
        self.browser, self.name, self.url = browser, name, url
        self.target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = browser.call("Target.attachToTarget", {"targetId": self.target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False})
        self.call("Page.bringToFront")
        self.call("Page.navigate", {"url": url})

    def call(self, method, params=None):
        return self.browser.call(method, params, self.session)

    def evaluate(self, expression, await_promise=False):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": await_promise})
        return result.get("result", {}).get("value")

    def wait_status(self, done, what):
        """Polls #liesim-status until done(status); a page error, an uncaught exception or "nothing to
        show" ends it early."""
        status = None
        while time.monotonic() < self.browser.deadline - 3:
            status = self.evaluate(STATUS_JS)
            if status and (done(status) or status.startswith(("liesim-view error", "liesim-view nothing"))):
                return status
            if any(e.get("sessionId") == self.session and e["method"] == "Runtime.exceptionThrown"
                   for e in self.browser.events):
                return status or "(no status)"
            time.sleep(0.2)
        raise Failure(f"{self.name}: the page did not {what} within the {self.browser.timeout:g} s time limit "
                      f"(its last status: {status!r})")

    def screenshot(self, path):
        self.evaluate(SETTLE_JS, await_promise=True)
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(self.call("Page.captureScreenshot", {"format": "png"})["data"]))

    def problems(self, keep):
        """What went wrong on this page, by its events and its own error box."""
        problems, lines = [], []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, p = event["method"], event.get("params", {})
            if method == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                text = d.get("exception", {}).get("description") or d.get("text", "")
                lines.append(f"exception: {text}")
                problems.append(f"{self.name}: uncaught exception: {text.splitlines()[0] if text else '?'}"
                                f" (line {d.get('lineNumber', 0) + 1})")
            elif method == "Runtime.consoleAPICalled":
                text = " ".join(str(a.get("value", a.get("description", ""))) for a in p.get("args", []))
                lines.append(f"console.{p.get('type')}: {text}")
                if p.get("type") in ("error", "assert"):
                    problems.append(f"{self.name}: console.{p.get('type')}: {text}")
            elif method == "Log.entryAdded":
                entry = p.get("entry", {})
                lines.append(f"browser {entry.get('level')}: {entry.get('text')} {entry.get('url', '')}")
                if entry.get("level") == "error":
                    problems.append(f"{self.name}: browser error: {entry.get('text')} {entry.get('url', '')}".rstrip())
            elif method == "Network.requestWillBeSent":
                url = p.get("request", {}).get("url", "")
                if not url.startswith(LOCAL_SCHEMES):
                    lines.append(f"request: {url}")
                    problems.append(f"{self.name}: not self-contained: the page requested {url[:200]}")
        shown = self.evaluate(ERRORS_JS)
        if shown:
            problems.append(f"{self.name}: the page shows errors:\n    " + shown.strip().replace("\n", "\n    "))
        if keep:
            with open(os.path.join(keep, f"{self.name}.console.txt"), "w") as fh:
                fh.write("".join(line + "\n" for line in lines))
        return problems

    def close(self):
        self.browser.call("Target.closeTarget", {"targetId": self.target})


def different_share(a, b):
    with Image.open(a) as ia, Image.open(b) as ib:
        ia, ib = ia.convert("RGB"), ib.convert("RGB")
        if ia.size != ib.size:
            raise Failure(f"screenshots {a} and {b} differ in size: {ia.size} and {ib.size}")
        diff = ImageChops.difference(ia, ib).convert("L").point(lambda v: 255 if v > PIXEL_THRESHOLD else 0)
        return diff.histogram()[255] / (ia.size[0] * ia.size[1])


# ---------------------------------------------------------------------------------------- main

def check(args, path, browser, shots, log):
    """The problems of one page (an empty list: it passed), in a tab of the running `browser`."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        problems = static_problems(fh.read())
    if problems:
        return problems
    url = pathlib.Path(os.path.abspath(path)).as_uri()
    shot = lambda name: os.path.join(shots, f"{name}.png")
    if True:

        # Playing.
        page = Page(browser, "play", url)
        status = page.wait_status(lambda s: int((re.search(r"steps=(\d+)", s) or [0, 0])[1]) >= args.min_frames,
                                  f"advance {args.min_frames} frames")
        log(f"play: {status}")
        page.screenshot(shot("play"))  # whatever the status: for the human reading --keep
        problems += page.problems(shots if args.keep else None)
        page.close()
        m = re.search(r"frame=(\d+)/(\d+) steps=(\d+)", status)
        if not status.startswith("liesim-view ok") or not m:
            return problems + [f"play: the page reports \"{status}\""]
        if "bodies=0" in status:
            problems.append("play: the view data has no bodies: nothing to see on the screenshots")
        if problems:
            return problems
        frames = int(m.group(2))
        runs = int((re.search(r"runs=(\d+)", status) or [0, 1])[1])

        # Drawing: one paused frame with and without the bodies, and side by side.
        k = max(1, (frames + 1) // 2)
        pictures = [("frame", f"#frame={k}"), ("empty", f"#frame={k}&empty")]
        if runs > 1:
            pictures.append(("side", f"#frame={k}&side"))
        for name, fragment in pictures:
            page = Page(browser, name, url + fragment)
            status = page.wait_status(lambda s: s.startswith("liesim-view ok"), "start")
            log(f"{name}: {status}")
            if not status.startswith("liesim-view ok"):
                problems.append(f"{name}: the page reports \"{status}\"")
            elif f"frame={k}/" not in status:
                problems.append(f"{name}: asked for frame {k}, the page reports \"{status}\"")
            else:
                page.screenshot(shot(name))
            problems += page.problems(shots if args.keep else None)
            page.close()
        if problems:
            return problems

    pairs = [("frame", "empty", "the bodies are not drawn")]
    if runs > 1:
        pairs += [("side", "empty", "the bodies are not drawn side by side"),
                  ("side", "frame", "side by side looks the same as overlaid")]
    for a, b, meaning in pairs:
        share = different_share(shot(a), shot(b))
        log(f"{a}.png and {b}.png differ in {100 * share:.2f} % of the pixels")
        if share <= MIN_DIFFERENT:
            problems.append(f"{meaning}: {a}.png and {b}.png differ in only {100 * share:.3f} % of the pixels "
                            f"(need more than {100 * MIN_DIFFERENT:g} %)")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pages", nargs="+", metavar="page", help="viewer pages (HTML), checked in one Chromium")
    ap.add_argument("--keep", metavar="DIR", help="keep the screenshots and console logs in DIR")
    ap.add_argument("--min-frames", type=int, default=10, metavar="N",
                    help="frames the page must advance while playing (default 10)")
    ap.add_argument("--timeout", type=float, default=60, metavar="S",
                    help="kill chromium after S seconds per page (default 60)")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"), metavar="PATH")
    args = ap.parse_args()

    def log(text):
        print(f"browser_check: {text}", flush=True)

    for page in args.pages:
        if not os.path.isfile(page):
            print(f"browser_check: FAIL: no such file: {page}", file=sys.stderr)
            return 2
    if not shutil.which(args.chromium):
        print(f"browser_check: FAIL: cannot find chromium ({args.chromium}): install Debian's chromium "
              "(scripts/install-deps.sh does)", file=sys.stderr)
        return 1
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    root = args.keep or tempfile.mkdtemp(prefix="liesim-view-check-")
    failed = 0
    browser = None
    try:
        # One Chromium for every page (its start and software WebGL take most of the time); a tab per picture.
        browser = Browser(args.chromium, args.timeout * len(args.pages), args.keep)
        log(f"chromium {browser.call('Browser.getVersion').get('product', '?')}")
        for index, page in enumerate(args.pages):
            shots = os.path.join(root, f"{index + 1}-{os.path.basename(page)}") if len(args.pages) > 1 else root
            os.makedirs(shots, exist_ok=True)
            start = time.monotonic()
            try:
                problems = check(args, page, browser, shots, log)
            except Failure as e:
                problems = [str(e)]
            elapsed = time.monotonic() - start
            if problems:
                failed += 1
                print(f"browser_check: FAIL ({page}, {elapsed:.1f} s):", file=sys.stderr)
                for p in problems:
                    print(f"  - {p}", file=sys.stderr)
                if args.keep:
                    print(f"  screenshots and console logs: {shots}", file=sys.stderr)
            else:
                log(f"ok ({page}, {elapsed:.1f} s)")
    except Failure as e:
        print(f"browser_check: FAIL: {e}", file=sys.stderr)
        failed += 1
    finally:
        if browser is not None:
            browser.close()
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
