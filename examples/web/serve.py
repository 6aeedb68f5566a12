"""Serves a folder over HTTP on localhost, as a web page needs it for
WebAssembly threads: cross-origin isolated (COOP/COEP headers, so that
SharedArrayBuffer exists) and with the right types for .mjs and .wasm.
Python's standard library only.

    python3 examples/web/serve.py out/web/site [--port 8000]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import sys


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".json": "application/json",
                      ".pte": "application/octet-stream"}

    def end_headers(self) -> None:
        # Cross-origin isolation: the page may use SharedArrayBuffer (threads).
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 (the base class's name)
        if getattr(self.server, "verbose", True):
            super().log_message(format, *args)


def make_server(root: str, port: int = 0, verbose: bool = True) -> http.server.ThreadingHTTPServer:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port),
                                             functools.partial(Handler, directory=root))
    server.verbose = verbose
    return server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("root")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server = make_server(args.root, args.port)
    print(f"serving {args.root} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C to stop)",
          flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
