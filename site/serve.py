"""Serve the built website (``make site-serve``): a static file server, standard library only.

    python3 site/serve.py                              # build/site on http://127.0.0.1:8000/
    python3 site/serve.py --ip 0.0.0.0 --port 8080     # to a classroom network (any machine with Python 3)

It runs from an unpacked offline bundle without any venv. What it does beyond ``python -m http.server``: only GET
and HEAD; only files under the site folder (no directory listings, no dot-files, no symlink that leads outside);
the right types for notebooks (downloaded, not shown as text), Pagefind's index files and WebAssembly; headers
that keep a page from loading anything but this site (Content-Security-Policy), from being framed, or from
sniffing types; a time limit per connection, so a slow client cannot hold a thread forever.
"""

from __future__ import annotations

import argparse
import http.server
import mimetypes
import os
import posixpath
import socketserver
import sys
import urllib.parse
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site"
TYPES = {".ipynb": "application/x-ipynb+json", ".wasm": "application/wasm", ".pagefind": "application/octet-stream",
         ".pf_meta": "application/octet-stream", ".pf_fragment": "application/octet-stream",
         ".pf_index": "application/octet-stream", ".pf_filter": "application/octet-stream",
         ".js": "text/javascript", ".mjs": "text/javascript", ".json": "application/json", ".woff": "font/woff",
         ".woff2": "font/woff2", ".svg": "image/svg+xml", ".py": "text/plain; charset=utf-8",
         ".md": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8"}
#: Everything from this site only; Pagefind compiles its WebAssembly; Sphinx's theme and MathJax use inline
#: scripts and styles, and Sphinx's doctools.js compiles a translation catalogue's plural rule with new Function()
#: (the Chinese pages: 'unsafe-eval').
CSP = ("default-src 'self'; script-src 'self' 'unsafe-inline' 'unsafe-eval' 'wasm-unsafe-eval'; "
       "style-src 'self' 'unsafe-inline'; "
       "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self' blob:; "
       "frame-ancestors 'none'; base-uri 'self'; form-action 'self'")
MAX_PATH = 2048


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    server_version = "course-site"
    sys_version = ""
    timeout = 20                      # seconds a connection may stay silent

    def __init__(self, *args, directory: str, **kwargs):
        self.site = Path(directory).resolve()
        super().__init__(*args, directory=str(self.site), **kwargs)

    def send_head(self):
        if len(self.path) > MAX_PATH:
            self.send_error(414)
            return None
        path = self._resolve()
        if path is None:
            self.send_error(404)
            return None
        if path.is_dir():
            if not self.path.split("?", 1)[0].endswith("/"):
                parts = urllib.parse.urlsplit(self.path)
                self.send_response(301)
                self.send_header("Location", urllib.parse.urlunsplit(parts._replace(path=parts.path + "/")))
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            path = path / "index.html"
            if not path.is_file():
                self.send_error(404)
                return None
        try:
            f = open(path, "rb")
        except OSError:
            self.send_error(404)
            return None
        size = os.fstat(f.fileno()).st_size
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Length", str(size))
        if path.suffix == ".ipynb":
            self.send_header("Content-Disposition", f'attachment; filename="{path.name}"')
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        return f

    def _resolve(self):
        """The file a request names, or None: anything outside the site, hidden, or not there."""
        raw = urllib.parse.urlsplit(self.path).path
        try:
            rel = urllib.parse.unquote(raw, errors="strict")
        except UnicodeDecodeError:
            return None
        if "\0" in rel or "\\" in rel:
            return None
        parts = [p for p in posixpath.normpath(rel).split("/") if p not in ("", ".")]
        if any(p == ".." or p.startswith(".") for p in parts):
            return None
        path = self.site.joinpath(*parts) if parts else self.site
        try:
            real = path.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if real != self.site and self.site not in real.parents:
            return None
        return real

    def end_headers(self):
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "DENY")
        self.send_header("Referrer-Policy", "no-referrer")
        super().end_headers()

    def guess_type(self, path):
        suffix = Path(path).suffix.lower()
        if suffix in TYPES:
            return TYPES[suffix]
        guessed = mimetypes.guess_type(path)[0] or "application/octet-stream"
        return guessed + ("; charset=utf-8" if guessed.startswith("text/") else "")

    def list_directory(self, path):     # never reached (send_head above); no listings in any case
        self.send_error(404)
        return None

    def do_POST(self):
        self.send_error(405)

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_POST

    def log_message(self, format, *args):
        if self.server.verbose:
            super().log_message(format, *args)


class SiteServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    verbose = True


def make_server(site: Path, ip: str = "127.0.0.1", port: int = 8000, verbose: bool = True) -> SiteServer:
    if not (site / "index.html").is_file():
        raise SystemExit(f"make site-serve: no site in {site} (index.html missing): run make site first")
    server = SiteServer((ip, port), partial(SiteHandler, directory=str(site)))
    server.verbose = verbose
    return server


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (default build/site)")
    parser.add_argument("--ip", default=os.environ.get("SITE_IP", "127.0.0.1"),
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 for a classroom network)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("SITE_PORT", "8000")), help="port (8000)")
    parser.add_argument("--quiet", action="store_true", help="do not log each request")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1-65535, got {args.port!r}")
    try:
        server = make_server(args.site.resolve(), args.ip, args.port, verbose=not args.quiet)
    except OSError as err:
        print(f"make site-serve: cannot listen on {args.ip}:{args.port} ({err.strerror}): choose another "
              f"SITE_PORT or stop what uses it", file=sys.stderr)
        return 1
    host = f"[{args.ip}]" if ":" in args.ip else args.ip
    print(f"Serving {args.site} on http://{host}:{args.port}/ (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
