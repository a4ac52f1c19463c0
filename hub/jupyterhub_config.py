"""JupyterHub configuration of the classroom server (`make hub`; docs/classroom-server.md explains every choice).

Every setting an instructor may change is an environment variable (the Makefile passes its variables of the
same names). A setting that would leave the class open refuses to start, saying what to set instead.

HUB_IP (127.0.0.1)         address the class connects to; 0.0.0.0 for every interface (then put TLS in front)
HUB_PORT (8000)            its port
HUB_API_PORT (8081)        the hub's internal API on 127.0.0.1 (the proxy and the user servers reach it there)
HUB_PROXY_API_PORT (8001)  the proxy's control API on 127.0.0.1
HUB_SERVICE_PORT (8002)    the instructor's live view (a hub service) on 127.0.0.1; the class reaches it through
                           the hub at /services/classroom/
HUB_AUTH (firstuse)        "firstuse": a name belongs to whoever logs in with it first, with the password they chose
                           then (The Littlest JupyterHub's default); "roster": only the names `make hub-roster`
                           printed, with its passwords; "pam": the machine's accounts listed in HUB_ALLOWED_USERS
HUB_ADMINS (instructor)    comma-separated names of the instructor(s): the hub's admins, the only ones who see the
                           live view. With firstuse/roster nobody can claim them: they log in with HUB_ADMIN_PASSWORD
HUB_ADMIN_PASSWORD         the instructor's password (12+ characters; never stored; required with firstuse/roster)
HUB_ALLOWED_USERS          comma-separated attendee names (required with pam; optional with firstuse)
HUB_SPAWNER (auto)         "simple": every server as the hub's own user (a one-machine trial; refused as root);
                           "local": one system account per attendee, made at their first login (hub as root);
                           "systemd": a systemd unit per attendee, a dynamic user, enforced CPU/memory limits (hub as
                           root on a systemd machine); "auto": simple for an ordinary user, else systemd when systemd
                           runs, else local
HUB_DATA (see below)       where the hub keeps its state and (simple) the attendees' homes, outside the course
                           folder (`git clean` never touches them): /var/lib/mindspore-course-hub as root, else
                           ~/.local/share/mindspore-course-hub
HUB_STATE, HUB_HOMES       override the two: the database, passwords, cookie secret, live-view records; the homes
                           (simple: one folder per attendee; local: the accounts' base folder, default /home)
HUB_LESSONS (notebooks/)   the lessons each attendee's copy is made from and updated from (make hub-update)
HUB_GROUP                  (local) a group every attendee's account joins, e.g. to open the course's folders to
                           the class alone (setfacl -m g:GROUP:x ...)
HUB_CPU_LIMIT (1)          CPUs per attendee (enforced by the systemd spawner; thread pools sized to it everywhere)
HUB_MEM_LIMIT (2G)         memory per attendee (enforced by the systemd spawner only)
HUB_IDLE_TIMEOUT (3600)    seconds without activity before jupyterhub-idle-culler stops a server
HUB_SKIP_ACCESS_CHECK      1: skip trying the course's Python as an unprivileged user at start (the config's tests)
"""

import grp
import os
import subprocess
import sys
from pathlib import Path


def _env(name, default):
    """An instructor's setting: the variable if set and not empty (make exports unset ones as empty)."""
    return os.environ.get(name) or default


def _names(value):
    return sorted({n.strip() for n in value.split(",") if n.strip()})


def _refuse(message):
    sys.exit(f"make hub: {message}")


HUB_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(HUB_DIR))
from classroom import names, paths  # noqa: E402 (this folder is put on the path first)

COURSE = HUB_DIR.parent
VENV = Path(_env("HUB_VENV", COURSE / ".venv"))
ROOT = os.getuid() == 0
STATE = paths.state_dir()
AUTH = _env("HUB_AUTH", "firstuse")
SPAWNER = _env("HUB_SPAWNER", "auto")
if SPAWNER == "auto":
    SPAWNER = "simple" if not ROOT else "systemd" if Path("/run/systemd/system").is_dir() else "local"
HOMES = paths.homes_dir(SPAWNER)
ADMINS = _names(_env("HUB_ADMINS", "instructor"))
ALLOWED = _names(_env("HUB_ALLOWED_USERS", ""))
SERVICE_PORT = int(_env("HUB_SERVICE_PORT", "8002"))

# ---- refuse what would leave the class open --------------------------------------------------------------
if os.environ.get("HUB_PASSWORD"):
    _refuse("HUB_PASSWORD (one class password, any name) is gone: with it anyone could log in as anyone, also as "
            "the instructor. Unset it; attendees now claim their own name at first login (HUB_AUTH=firstuse), or "
            "get a seat from `make hub-roster` (HUB_AUTH=roster); see docs/classroom-server.md")
if AUTH not in ("firstuse", "roster", "pam"):
    _refuse(f"HUB_AUTH must be firstuse, roster or pam, not {AUTH!r}" + (
        " (shared-password let anyone log in as anyone and is gone)" if AUTH == "shared-password" else ""))
if SPAWNER not in ("simple", "local", "systemd"):
    _refuse(f"HUB_SPAWNER must be auto, simple, local or systemd, not {SPAWNER!r}")
if AUTH == "pam" and SPAWNER == "simple":
    _refuse("HUB_AUTH=pam logs attendees in as the machine's accounts: their servers must run as those accounts "
            "(HUB_SPAWNER=local or systemd, hub as root)")
if SPAWNER == "simple" and ROOT:
    _refuse("HUB_SPAWNER=simple as root would run every attendee's kernel as root (JupyterHub adds --allow-root). "
            "Start the hub as an ordinary user for a one-machine trial, or give each attendee their own user: "
            "HUB_SPAWNER=local (or systemd on a systemd machine), as root")
if SPAWNER in ("local", "systemd") and not ROOT:
    _refuse(f"HUB_SPAWNER={SPAWNER} starts each attendee's server as their own user: start the hub as root "
            "(sudo make hub ...), or use HUB_SPAWNER=simple for a trial as yourself")
if SPAWNER == "systemd" and not Path("/run/systemd/system").is_dir():
    _refuse("HUB_SPAWNER=systemd needs a machine booted with systemd (/run/systemd/system is missing); "
            "use HUB_SPAWNER=local")
if AUTH == "pam" and not ALLOWED:
    _refuse("HUB_AUTH=pam needs HUB_ALLOWED_USERS=name1,name2,... (the accounts that may log in): without it every "
            "account of the machine could")
ADMIN_PASSWORD = os.environ.get("HUB_ADMIN_PASSWORD", "")
if AUTH != "pam" and len(ADMIN_PASSWORD) < 12:
    _refuse(f"set HUB_ADMIN_PASSWORD (12 characters or more), the password of the instructor's name(s) "
            f"{', '.join(ADMINS)} (HUB_ADMINS). For example: "
            "HUB_ADMIN_PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(12))')")
for name in ADMINS + ALLOWED:
    why = names.refusal(name, SPAWNER, admins=ADMINS, existing_accounts=AUTH == "pam")
    if why:
        _refuse(f"HUB_ADMINS/HUB_ALLOWED_USERS: {why}")
GROUP = _env("HUB_GROUP", "")
if GROUP:
    try:
        GROUP_ID = grp.getgrnam(GROUP).gr_gid
    except KeyError:
        _refuse(f"HUB_GROUP={GROUP}: no such group (create it: groupadd {GROUP})")
if SPAWNER in ("local", "systemd") and os.environ.get("HUB_SKIP_ACCESS_CHECK") != "1":
    # The attendees' own users run the course's Python (and its interpreter, which a venv links to), the kernel,
    # the lessons and the data: try it as an unprivileged user (nobody, in HUB_GROUP if set) before the class does.
    probe = [str(VENV / "bin" / "python"), "-c", "import course_utils, jupyterhub, mindspore.version"]
    try:
        ok = subprocess.run(probe, user=65534, group=GROUP_ID if GROUP else 65534,
                            extra_groups=[GROUP_ID] if GROUP else [], cwd="/", capture_output=True, timeout=120,
                            env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}).returncode == 0
    except OSError:
        ok = False
    if not ok:
        python = (VENV / "bin" / "python").resolve()
        closed = [str(p) for p in [*python.parents, *VENV.parents] if p.exists() and not os.stat(p).st_mode & 0o001]
        _refuse(f"the attendees' accounts cannot run {VENV / 'bin' / 'python'} (it is {python}): every folder up to "
                f"the course, its .venv and its Python must be open to them"
                + (f" (closed to others: {', '.join(sorted(set(closed)))})" if closed else "")
                + ". Keep the course and its Python outside /root (e.g. /opt/mindspore-course), or open those "
                "folders to the attendees' group only: HUB_GROUP=course-attendees and "
                "setfacl -m g:course-attendees:x <folder>")

STATE.mkdir(parents=True, exist_ok=True, mode=0o700)
os.chmod(STATE, 0o700)    # the database, password hashes, cookie secret and records: the hub's alone

c = get_config()  # noqa: F821 (provided by JupyterHub when it loads this file)

# ---- network: the public face on HUB_IP, everything internal on loopback --------------------------------
c.JupyterHub.ip = _env("HUB_IP", "127.0.0.1")
c.JupyterHub.port = int(_env("HUB_PORT", "8000"))
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = int(_env("HUB_API_PORT", "8081"))
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{int(_env('HUB_PROXY_API_PORT', '8001'))}"
c.ConfigurableHTTPProxy.command = [str(HUB_DIR / "node_modules" / ".bin" / "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = str(STATE / "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")

# ---- who may log in ------------------------------------------------------------------------------------
c.Authenticator.admin_users = set(ADMINS)
if AUTH in ("firstuse", "roster"):
    c.JupyterHub.authenticator_class = ("classroom.auth.LocalClassroomAuthenticator" if SPAWNER == "local"
                                        else "classroom.auth.ClassroomAuthenticator")
    c.ClassroomAuthenticator.admin_password = ADMIN_PASSWORD
    c.ClassroomAuthenticator.spawner_kind = SPAWNER
    c.FirstUseAuthenticator.dbm_path = str(STATE / "passwords.dbm")
    if AUTH == "roster":
        from classroom.roster import roster_names

        ALLOWED = roster_names(STATE)
        if not ALLOWED:
            _refuse(f"HUB_AUTH=roster: no roster in {STATE}; make one first: make hub-roster SEATS=20")
    if ALLOWED:
        c.Authenticator.allowed_users = set(ALLOWED)
    c.Authenticator.allow_all = not ALLOWED
    if SPAWNER == "local":
        c.LocalClassroomAuthenticator.add_user_cmd = (
            ["useradd", "--create-home", "--key", "HOME_MODE=0700", "--shell", "/bin/bash", "--comment",
             names.ATTENDEE_COMMENT] + (["--base-dir", str(HOMES)] if os.environ.get("HUB_HOMES") else [])
            + (["--groups", GROUP] if GROUP else []))
else:
    c.JupyterHub.authenticator_class = "pam"
    c.Authenticator.allowed_users = set(ALLOWED)
    c.Authenticator.allow_all = False
    c.Authenticator.allow_existing_users = False

# ---- the attendees' servers: the course's environment, its kernel, a private copy of the lessons --------
if SPAWNER == "simple":
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
    HOMES.mkdir(parents=True, exist_ok=True, mode=0o700)
elif SPAWNER == "local":
    c.JupyterHub.spawner_class = "localprocess"
else:
    c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    c.SystemdSpawner.dynamic_users = AUTH != "pam"   # no system accounts needed; HOME is /var/lib/<name>
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
    c.SystemdSpawner.disable_user_sudo = True
    c.SystemdSpawner.readonly_paths = [str(COURSE)]
    c.SystemdSpawner.unit_extra_properties = {"RuntimeDirectoryPreserve": "no",
                                              "InaccessiblePaths": str(STATE)}

# start.py: as the attendee, bring their copy of the lessons up to date, then exec jupyterhub-singleuser
c.Spawner.cmd = [str(VENV / "bin" / "python"), str(HUB_DIR / "classroom" / "start.py")]
c.Spawner.notebook_dir = "~/notebooks"
c.Spawner.default_url = "/lab/tree/00_environment_setup.ipynb"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
CPU_LIMIT = float(_env("HUB_CPU_LIMIT", "1"))
c.Spawner.cpu_limit = CPU_LIMIT
c.Spawner.mem_limit = _env("HUB_MEM_LIMIT", "2G")
threads = str(max(1, int(CPU_LIMIT)))
IDLE = int(_env("HUB_IDLE_TIMEOUT", "3600"))
c.Spawner.environment = {
    # The course kernel (python3 -> .venv's Python) comes first, as in `make lab`.
    "JUPYTER_PATH": str(VENV / "share" / "jupyter"),
    "PATH": f"{VENV / 'bin'}:/usr/local/bin:/usr/bin:/bin",
    # One attendee's training must not take every core of the server: thread pools sized to the CPU share.
    "OMP_NUM_THREADS": threads,
    "OPENBLAS_NUM_THREADS": threads,
    "MKL_NUM_THREADS": threads,
    # The shared, verified MNIST (read-only use): attendees never download it again.
    "COURSE_MNIST_DIR": str(COURSE / "data" / "mnist"),
    "COURSE_MNIST_MIRRORS": "none",
    "COURSE_MNIST_PYPI": "0",
    # The lessons each attendee's copy is made from and updated from (classroom/lessons.py).
    "COURSE_LESSONS": str(Path(_env("HUB_LESSONS", COURSE / "notebooks")).resolve()),
    # Each exercise check is also posted to the live view, with the server's own token (course_utils.progress).
    "COURSE_PROGRESS_URL": f"http://127.0.0.1:{SERVICE_PORT}/services/classroom/api/records",
    # The user servers report their activity often enough for the culler to judge it.
    "JUPYTERHUB_ACTIVITY_INTERVAL": str(max(10, min(300, IDLE // 4))),
}
# The server's token ($JUPYTERHUB_API_TOKEN, also in its kernels) may post to the live view, and nothing more.
c.Spawner.server_token_scopes = ["users:activity!user", "access:servers!server", "access:services!service=classroom"]

# ---- services: the live view, the idle culler -----------------------------------------------------------
c.JupyterHub.custom_scopes = {
    "custom:classroom:view": {"description": "See the classroom's live view: every attendee's exercise outcomes"},
}
c.JupyterHub.services = [
    {
        "name": "classroom",
        "display": True,
        "url": f"http://127.0.0.1:{SERVICE_PORT}",
        "command": [str(VENV / "bin" / "python"), str(HUB_DIR / "classroom" / "service.py")],
        "environment": {"CLASSROOM_RECORDS": str(STATE / "classroom-records.jsonl"), "PYTHONPATH": str(HUB_DIR)},
        "oauth_no_confirm": True,
        "oauth_client_allowed_scopes": ["custom:classroom:view"],
    },
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE}",
                    f"--cull-every={max(10, min(300, IDLE // 4))}"],
    },
]
c.JupyterHub.load_roles = [
    # Attendees: their own server, and posting their own outcomes to the live view.
    {"name": "user", "scopes": ["self", "access:services!service=classroom"]},
    # The instructor: the live view (besides the admin role that HUB_ADMINS gives).
    {"name": "instructor", "description": "sees the classroom's live view",
     "scopes": ["custom:classroom:view", "access:services!service=classroom"], "users": ADMINS},
    # The live view lists who is in the class and when they were last active: names and times only.
    {"name": "classroom", "scopes": ["list:users", "read:users:name", "read:users:activity", "read:roles:users"],
     "services": ["classroom"]},
    {"name": "idle-culler", "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
     "services": ["idle-culler"]},
]
