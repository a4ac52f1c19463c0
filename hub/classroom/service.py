"""The instructor's live view: a JupyterHub service at ``/services/classroom/`` showing where each attendee is.

How a record gets here: an attendee runs ``nbNN.qK.check()``; ``course_utils.progress`` appends one line to their
own record file and posts the same record (exercise, outcome, time: never code, answers or messages) to
``api/records`` with their server's own hub token (``$JUPYTERHUB_API_TOKEN``, which the hub gives the scope
``access:services!service=classroom``). The service asks the hub whose token it is and files the record under
that name, so an attendee can only ever report about themselves, and the records reach the view through the hub
with every spawner (also Kubernetes, where the service cannot see anyone's volume). It never reads a home folder.

Who sees it: the page and ``api/grid`` need the custom scope ``custom:classroom:view``, which the config gives only
the ``instructor`` role (the admin names). Everyone else who is logged in gets 403; nobody else gets in at all
(the hub's OAuth login). The page is static (HTML, CSS, JS from ``static/``, a strict Content-Security-Policy);
its script fetches ``api/grid`` every few seconds and builds the grid with DOM text nodes only.

State: every accepted record is appended to ``$CLASSROOM_RECORDS`` (JSON lines, under the hub's state folder)
and read back when the service starts, so a restarted hub keeps the room's picture. One module: the store, the
handlers and the app are one small service.
"""

from __future__ import annotations

import html
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Dict, List, Optional

from jupyterhub.services.auth import HubOAuth, HubOAuthCallbackHandler, HubOAuthenticated
from jupyterhub.utils import url_path_join
from tornado import httpclient, ioloop, web

from course_utils import progress
from course_utils.i18n import catalogue

VIEW_SCOPE = "custom:classroom:view"
STATIC = Path(__file__).resolve().parent / "static"
NUMBER = re.compile(r"\d{2}\.\d{1,2}")
MAX_BODY = 64 * 1024
MAX_RECORDS = 200
#: How long the list of the hub's users is reused (seconds).
USERS_TTL = 10.0


class Store:
    """The room's picture: user -> exercise -> last outcome; appended to a JSON-lines file, reloaded at start."""

    def __init__(self, path: Optional[Path]):
        self.path = path
        self.by_user: Dict[str, Dict[str, dict]] = {}
        self.last: Dict[str, str] = {}
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            for entry in _read(path):
                self._apply(entry["user"], entry)

    def _apply(self, user: str, entry: dict) -> None:
        seen = self.by_user.setdefault(user, {}).setdefault(entry["exercise"], {"checks": 0})
        seen.update(outcome=entry["outcome"], time=entry["time"])
        seen["checks"] += 1
        self.last[user] = max(self.last.get(user, ""), entry["time"])

    def add(self, user: str, entries: List[dict]) -> int:
        lines = []
        for entry in entries:
            clean = {"user": user, "exercise": entry["exercise"], "module": entry.get("module", ""),
                     "outcome": entry["outcome"], "time": entry["time"]}
            self._apply(user, clean)
            lines.append(json.dumps(clean, separators=(",", ":")) + "\n")
        if self.path is not None and lines:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            try:
                os.write(fd, "".join(lines).encode("utf-8"))
            finally:
                os.close(fd)
        return len(lines)


def _read(path: Path) -> List[dict]:
    """The stored records (a damaged line, e.g. the last one after a crash, is skipped)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return []
    found = []
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if acceptable(entry) and isinstance(entry.get("user"), str):
            found.append(entry)
    return found


def acceptable(entry) -> bool:
    """A record as the progress module writes it, with an exercise label like "01.1"."""
    return progress.valid(entry) and bool(NUMBER.fullmatch(entry["exercise"]))


class _Base(HubOAuthenticated, web.RequestHandler):
    def initialize(self, app: "Classroom"):
        self.app = app

    def set_default_headers(self):
        self.set_header("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; form-action 'none'")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("Cache-Control", "no-store")


class _Viewer(_Base):
    @property
    def hub_scopes(self):
        return {VIEW_SCOPE}


class PageHandler(_Viewer):
    @web.authenticated
    def get(self):
        # JupyterHub accepts a cookie on a script's request only with the XSRF token (grid.js sends it back)
        token = self.xsrf_token
        token = token.decode("ascii") if isinstance(token, bytes) else token
        page = (STATIC / "index.html").read_text(encoding="utf-8").replace("XSRF_TOKEN", html.escape(token))
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)


class GridHandler(_Viewer):
    @web.authenticated
    async def get(self):
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(await self.app.grid()))


class RecordsHandler(_Base):
    """POST ``{"records": [...]}`` with ``Authorization: token <the server's token>``."""

    def check_xsrf_cookie(self):
        return None   # token-only (a cookie never authenticates a post here): nothing for a forged form to ride on

    def get_current_user(self):
        if not self.request.headers.get("Authorization", "").lower().startswith(("token ", "bearer ")):
            return None
        return super().get_current_user()

    def write_error(self, status_code, **kwargs):
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"error": self._reason}))

    def post(self):
        user = self.current_user
        if not user:
            raise web.HTTPError(403, "a server's hub token is needed (Authorization: token ...)")
        if user.get("kind", "user") != "user":
            raise web.HTTPError(403, "only users have progress")
        if len(self.request.body) > MAX_BODY:
            raise web.HTTPError(413, f"at most {MAX_BODY} bytes")
        try:
            records = json.loads(self.request.body)["records"]
        except (ValueError, KeyError, TypeError):
            raise web.HTTPError(400, 'the body is {"records": [...]}') from None
        if not isinstance(records, list) or len(records) > MAX_RECORDS:
            raise web.HTTPError(400, f"records is a list of at most {MAX_RECORDS}")
        good = [r for r in records if acceptable(r)]
        self.finish({"accepted": self.app.store.add(user["name"], good), "refused": len(records) - len(good)})


class Classroom:
    def __init__(self, records: Optional[Path], hub_api: str, token: str, prefix: str):
        self.store = Store(records)
        self.hub_api, self.token, self.prefix = hub_api, token, prefix
        self._users: List[dict] = []
        self._users_at = 0.0

    async def hub_users(self) -> List[dict]:
        """The hub's users (name, admin, last activity), reused for ``USERS_TTL`` seconds."""
        if time.monotonic() - self._users_at > USERS_TTL:
            client = httpclient.AsyncHTTPClient()
            try:
                response = await client.fetch(url_path_join(self.hub_api, "users"), headers={
                    "Authorization": f"token {self.token}", "Accept": "application/jupyterhub-pagination+json"},
                    request_timeout=10)
                body = json.loads(response.body)
                self._users = body["items"] if isinstance(body, dict) else body
                self._users_at = time.monotonic()
            except Exception as err:   # the grid still shows what it has
                print(f"classroom: could not list the hub's users: {err}", file=sys.stderr)
        return self._users

    async def grid(self) -> dict:
        users = await self.hub_users()
        # the instructors are not attendees (their model shows roles with read:roles:users, admin with read:users)
        admins = {u["name"] for u in users if u.get("admin") or {"admin", "instructor"} & set(u.get("roles") or ())}
        activity = {u["name"]: u.get("last_activity") for u in users}
        names = sorted((set(activity) | set(self.store.by_user)) - admins)
        chinese = catalogue("zh")
        exercises = [{"number": e.number, "lesson": e.lesson.number,
                      "title": {"en": e.title, "zh": chinese.get(e.title, e.title)},
                      "lesson_title": dict(e.lesson.title)} for e in progress.catalogue()]
        summary = {}
        for e in exercises:
            counts = {"correct": 0, "incorrect": 0}
            for name in names:
                outcome = self.store.by_user.get(name, {}).get(e["number"], {}).get("outcome")
                if outcome in counts:
                    counts[outcome] += 1
            counts["not_attempted"] = len(names) - counts["correct"] - counts["incorrect"]
            summary[e["number"]] = counts
        attendees = [{"name": name, "last_activity": max(filter(None, (activity.get(name) or "",
                                                                       self.store.last.get(name, ""))), default=None),
                      "outcomes": self.store.by_user.get(name, {})} for name in names]
        return {"exercises": exercises, "attendees": attendees, "summary": summary,
                "generated": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def make_app(classroom: Classroom) -> web.Application:
    prefix = classroom.prefix
    hub_auth = HubOAuth.instance()
    routes = [
        (prefix, PageHandler), (url_path_join(prefix, "api/grid"), GridHandler),
        (url_path_join(prefix, "api/records"), RecordsHandler),
    ]
    handlers = [(path, cls, {"app": classroom}) for path, cls in routes]
    handlers += [(url_path_join(prefix, "oauth_callback"), HubOAuthCallbackHandler),
                 (url_path_join(prefix, "static/(.*)"), web.StaticFileHandler, {"path": str(STATIC)})]
    return web.Application(handlers, cookie_secret=os.urandom(32), hub_auth=hub_auth, xsrf_cookies=False)


def main() -> None:
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "/services/classroom/")
    url = os.environ.get("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:10101")
    records = os.environ.get("CLASSROOM_RECORDS")
    classroom = Classroom(Path(records) if records else None, os.environ["JUPYTERHUB_API_URL"],
                          os.environ["JUPYTERHUB_API_TOKEN"], prefix)
    app = make_app(classroom)
    from urllib.parse import urlparse

    parsed = urlparse(url)
    app.listen(parsed.port or 80, parsed.hostname or "127.0.0.1", max_body_size=MAX_BODY * 2)
    print(f"classroom: the live view is at {prefix} ({url})", file=sys.stderr, flush=True)
    ioloop.IOLoop.current().start()


if __name__ == "__main__":
    main()
