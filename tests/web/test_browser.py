"""The EfficientNet-Lite0 web page in a real browser: headless Chromium opens
examples/web (served locally with the cross-origin isolation headers), the
page classifies every photograph with the float and the int8 program in a
Web Worker, and this checks what it shows against the native runtime given
the very same input tensor (the page's own canvas preprocessing, read back
from the page): the same top-5 labels, probabilities within a small
tolerance. It saves a screenshot and the results as artifacts.

    .venv/bin/python tests/web/test_browser.py --js build/wasm/js --out out/web \
        --artifacts build/web-test

Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-
pipe: file descriptors 3 and 4), so nothing but Python's standard library
and the venv's ember and torch are needed.
"""

from __future__ import annotations

import argparse
import base64
import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples" / "web"))


def _above(fd: int, low: int) -> int:
    """fd duplicated onto the lowest free descriptor >= low; the original closed."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, low)
    os.close(fd)
    return moved


class Chromium:
    """A headless Chromium and one page, over the DevTools protocol on a pipe."""

    def __init__(self, binary: str, profile: str) -> None:
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        # The browser's ends moved to 10 and up: the shell below puts them on
        # 3 and 4 and closes the originals, which must not be 3 or 4 themselves.
        to_chrome_r, from_chrome_w = (_above(to_chrome_r, 10), _above(from_chrome_w, 10))
        args = ["--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                f"--user-data-dir={profile}", "--window-size=1100,900", "about:blank"]
        # The browser reads commands on fd 3 and writes replies on fd 4.
        shell = (f'exec 3<&{to_chrome_r} 4>&{from_chrome_w} {to_chrome_r}<&- {from_chrome_w}>&-; '
                 'exec "$0" "$@"')
        self.proc = subprocess.Popen(["bash", "-c", shell, binary, *args],
                                     pass_fds=(to_chrome_r, from_chrome_w),
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next = 0
        self._buffer = b""
        self.console: list[str] = []
        self.session = None

    def _send(self, method: str, params: dict | None = None, session: bool = True) -> int:
        self._next += 1
        message = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session:
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        return self._next

    def _read(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self._from_chrome, 1 << 20)
            if not chunk:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise RuntimeError(f"Chromium closed the pipe: {err[-2000:]}")
            self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method: str, params: dict | None = None, session: bool = True,
             timeout: float = 60) -> dict:
        wanted = self._send(method, params, session)
        while True:
            message = self._read(timeout)
            if message.get("id") == wanted:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self._event(message)

    def _event(self, message: dict) -> None:
        method = message.get("method", "")
        params = message.get("params", {})
        if method == "Runtime.consoleAPICalled":
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in params.get("args", []))
            self.console.append(f"console.{params.get('type')}: {text}")
        elif method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            self.console.append(f"exception: {details.get('exception', {}).get('description', details)}")

    def open(self, url: str) -> None:
        target = self.call("Target.createTarget", {"url": "about:blank"}, session=False)
        attached = self.call("Target.attachToTarget",
                             {"targetId": target["targetId"], "flatten": True}, session=False)
        self.session = attached["sessionId"]
        self.call("Runtime.enable")
        self.call("Page.enable")
        self.call("Page.navigate", {"url": url})

    def evaluate(self, expression: str, timeout: float = 60):
        result = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                 "awaitPromise": True}, timeout=timeout)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression[:80]}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", {"format": "png"})["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close", session=False, timeout=10)
        except Exception:  # noqa: BLE001 (closing: whatever state it is in)
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# The page's input tensors, read back as base64 in chunks (one string per photograph).
READ_INPUTS = """
(() => window.emberResults.filter(r => r.model === 'float').map(r => {
  const bytes = new Uint8Array(r.input.buffer);
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return [r.photo, btoa(s)];
}))()
"""
SUMMARY = """
(() => window.emberResults.map(r => ({photo: r.photo, model: r.model, timing: r.timing,
  top5: r.top5.map(t => [t.index, t.label, t.p])})))()
"""


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--js", required=True, help="the JavaScript package folder")
    parser.add_argument("--out", default="out/web", help="prepare.py's folder (programs cached)")
    parser.add_argument("--artifacts", default="build/web-test")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        print("no Chromium found (apt-get install chromium)", file=sys.stderr)
        return 2
    import numpy as np
    import torch

    import ember
    import prepare
    import serve
    from examples import efficientnet_lite

    artifacts = Path(args.artifacts)
    artifacts.mkdir(parents=True, exist_ok=True)
    print("== browser test [1/4] the site (programs, photographs, the package)", flush=True)
    site = prepare.build_site(Path(args.js), Path(args.out))
    server = serve.make_server(str(site), 0, verbose=False)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html?auto=1"

    print(f"== browser test [2/4] {chromium} --headless opens {url}", flush=True)
    failures: list[str] = []
    with tempfile.TemporaryDirectory() as profile:
        browser = Chromium(chromium, profile)
        try:
            browser.open(url)
            start = time.monotonic()
            state = None
            while time.monotonic() - start < args.timeout:
                state = browser.evaluate(
                    "window.emberError ? 'error: ' + window.emberError : "
                    "(window.emberResults ? 'done' : document.getElementById('status')?.textContent)")
                if state == "done" or (state or "").startswith("error"):
                    break
                time.sleep(1)
            print(f"   page: {state} after {time.monotonic() - start:.0f} s", flush=True)
            runtime_line = browser.evaluate("document.getElementById('runtime').textContent")
            isolated = browser.evaluate("window.crossOriginIsolated")
            print(f"   {runtime_line} (crossOriginIsolated: {isolated})")
            browser.screenshot(artifacts / "efficientnet_web.png")
            print(f"   screenshot: {artifacts / 'efficientnet_web.png'}")
            if state != "done":
                failures.append(f"the page did not finish: {state}")
                raise StopIteration
            results = browser.evaluate(SUMMARY)
            inputs = {name: np.frombuffer(base64.b64decode(b64), dtype=np.float32).reshape(1, 3, 224, 224)
                      for name, b64 in browser.evaluate(READ_INPUTS, timeout=120)}
        except StopIteration:
            results, inputs = [], {}
        finally:
            browser.close()
            server.shutdown()
            for line in browser.console:
                if "error" in line.lower() or "exception" in line:
                    print(f"   {line}")

    print("== browser test [3/4] the native runtime on the page's own input tensors", flush=True)
    labels = efficientnet_lite.imagenet_classes()
    native = {model: ember.runtime.load(str(site / "models" / f"efficientnet_lite0_{model}.pte"),
                                        threads=2) for model in ("float", "int8")}
    eager_model = efficientnet_lite.efficientnet_lite0()
    eager_top1 = {}
    for name, x in efficientnet_lite.photo_batch():
        with torch.no_grad():
            eager_top1[name] = int(eager_model(x).argmax())
    tolerance = {"float": 1e-4, "int8": 2e-2}
    rows = []
    for r in results:
        x = torch.from_numpy(inputs[r["photo"]].copy())
        probs = native[r["model"]].forward(x).softmax(-1)[0]
        want = torch.topk(probs, 5)
        got_idx = [t[0] for t in r["top5"]]
        got_p = [t[2] for t in r["top5"]]
        want_idx = want.indices.tolist()
        worst = max(abs(g - float(probs[i])) for g, i in zip(got_p, got_idx))
        # Labels whose probabilities are within the tolerance may swap places.
        same = got_idx == want_idx or (sorted(got_idx) == sorted(want_idx) and worst <= tolerance[r["model"]])
        ok = same and worst <= tolerance[r["model"]]
        if not ok:
            failures.append(f"{r['photo']} {r['model']}: page {got_idx} vs native {want_idx} "
                            f"(largest probability difference {worst:.2e})")
        rows.append((r["photo"], r["model"], labels[got_idx[0]], got_p[0], worst, r["timing"]["median"],
                     labels[eager_top1[r["photo"]]], ok))
    print(f"   {'photo':<16} {'model':<6} {'page top-1':<28} {'p':>6} {'|dp| vs native':>15} "
          f"{'ms':>7}  PyTorch eager top-1 (its own resize)")
    for photo, model, label, p, worst, ms, eager, ok in rows:
        print(f"   {photo:<16} {model:<6} {label[:27]:<28} {p:6.1%} {worst:15.1e} {ms:7.1f}  "
              f"{eager[:27]}{'' if ok else '   MISMATCH'}")
    if results and len(results) != 2 * len(efficientnet_lite.PHOTOS):
        failures.append(f"{len(results)} results for {len(efficientnet_lite.PHOTOS)} photographs x 2")

    print("== browser test [4/4] artifacts", flush=True)
    (artifacts / "efficientnet_web.json").write_text(json.dumps(
        {"runtime": runtime_line if results else None, "results": results}, indent=1))
    print(f"   {artifacts / 'efficientnet_web.json'}")
    for f in failures:
        print(f"FAIL: {f}")
    print(f"browser test: {'passed' if not failures else 'FAILED'}")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
