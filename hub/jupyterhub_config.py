"""JupyterHub configuration of the classroom server (`make hub`; docs/classroom-server.md explains it).

Every setting an instructor may change is an environment variable (the Makefile passes its variables of the
same names):

HUB_IP (127.0.0.1)        address the class connects to; 0.0.0.0 for every interface (then put TLS in front)
HUB_PORT (8000)           its port
HUB_API_PORT (8081)       the hub's internal API on 127.0.0.1 (the proxy and the user servers reach it there)
HUB_PROXY_API_PORT (8001) the proxy's control API on 127.0.0.1
HUB_STATE (hub/state)     the hub's database, cookie secret and logs
HUB_HOMES (hub/homes)     one folder per attendee (simple spawner); each gets its own copy of notebooks/
HUB_AUTH (shared-password) "shared-password": any name + HUB_PASSWORD (JupyterHub's DummyAuthenticator);
                          "pam": the machine's own accounts (one system user per attendee)
HUB_PASSWORD              the class password (required with shared-password)
HUB_ADMINS                comma-separated admin names (the instructor)
HUB_SPAWNER (simple)      "simple": SimpleLocalProcessSpawner, every attendee's server runs as the user who
                          started the hub (no isolation between attendees beyond the web API, no limits);
                          "local": LocalProcessSpawner, one system user each (HUB_AUTH=pam, hub as root);
                          "systemd": SystemdSpawner, one system user each or dynamic users, with the CPU and
                          memory limits enforced by systemd/cgroups (hub as root on a systemd machine)
HUB_CPU_LIMIT (1)         CPUs per attendee (enforced by the systemd spawner only)
HUB_MEM_LIMIT (2G)        memory per attendee (enforced by the systemd spawner only)
HUB_IDLE_TIMEOUT (3600)   seconds without activity before jupyterhub-idle-culler stops a server
"""

import os
import pwd
import shutil
import sys
from pathlib import Path

def _env(name, default):
    """An instructor's setting: the variable if set and not empty (make exports unset ones as empty)."""
    return os.environ.get(name) or default


HUB_DIR = Path(__file__).resolve().parent
COURSE = HUB_DIR.parent
VENV = Path(_env("HUB_VENV", COURSE / ".venv"))
STATE = Path(_env("HUB_STATE", HUB_DIR / "state")).resolve()
HOMES = Path(_env("HUB_HOMES", HUB_DIR / "homes")).resolve()
AUTH = _env("HUB_AUTH", "shared-password")
SPAWNER = _env("HUB_SPAWNER", "simple")
STATE.mkdir(parents=True, exist_ok=True)

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
c.Authenticator.admin_users = {n.strip() for n in _env("HUB_ADMINS", "").split(",") if n.strip()}
if AUTH == "shared-password":
    password = _env("HUB_PASSWORD", "")
    if len(password) < 8:
        sys.exit("make hub: set HUB_PASSWORD (8 characters or more), the password the class logs in with")
    c.JupyterHub.authenticator_class = "dummy"
    c.DummyAuthenticator.password = password
    c.Authenticator.allow_all = True                  # any name with the class password
elif AUTH == "pam":
    c.JupyterHub.authenticator_class = "pam"
    c.Authenticator.allow_existing_users = True
    c.Authenticator.allow_all = _env("HUB_ALLOW_ALL", "1") == "1"   # every system account may log in
else:
    sys.exit(f"make hub: HUB_AUTH must be shared-password or pam, not {AUTH!r}")

# ---- the attendees' servers: the course's environment, its kernel, a private copy of the lessons --------
if SPAWNER == "simple":
    c.JupyterHub.spawner_class = "simple"
    c.SimpleLocalProcessSpawner.home_dir_template = str(HOMES / "{username}")
elif SPAWNER == "local":
    c.JupyterHub.spawner_class = "localprocess"
elif SPAWNER == "systemd":
    c.JupyterHub.spawner_class = "systemdspawner.SystemdSpawner"
    c.SystemdSpawner.dynamic_users = AUTH != "pam"   # no system accounts needed
    c.SystemdSpawner.isolate_tmp = True
    c.SystemdSpawner.isolate_devices = True
    c.SystemdSpawner.disable_user_sudo = True
    c.SystemdSpawner.unit_extra_properties = {"RuntimeDirectoryPreserve": "no"}
else:
    sys.exit(f"make hub: HUB_SPAWNER must be simple, local or systemd, not {SPAWNER!r}")

c.Spawner.cmd = [str(VENV / "bin" / "jupyterhub-singleuser")]
c.Spawner.notebook_dir = "~/notebooks"
c.Spawner.default_url = "/lab/tree/00_environment_setup.ipynb"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
CPU_LIMIT = float(_env("HUB_CPU_LIMIT", "1"))
c.Spawner.cpu_limit = CPU_LIMIT
c.Spawner.mem_limit = _env("HUB_MEM_LIMIT", "2G")
threads = str(max(1, int(CPU_LIMIT)))
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
}
if os.getuid() == 0 and SPAWNER == "simple":
    c.Spawner.args = ["--allow-root"]         # the servers run as the hub's user; CI runs as root


def _home(spawner) -> Path:
    if SPAWNER == "simple":
        return Path(spawner.home_dir)
    return Path(pwd.getpwnam(spawner.user.name).pw_dir)


def copy_lessons(spawner) -> None:
    """On an attendee's first start: their own copy of notebooks/ (never overwritten afterwards)."""
    home = _home(spawner)
    target = home / "notebooks"
    if target.exists():
        return
    home.mkdir(parents=True, exist_ok=True)
    tmp = home / ".notebooks.copying"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(COURSE / "notebooks", tmp,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "checkpoints", "runs", "__pycache__",
                                                  "kernel_meta", "rank_*"))
    if SPAWNER != "simple":                       # a real system user owns their copy
        entry = pwd.getpwnam(spawner.user.name)
        for path in [tmp, *tmp.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
    os.replace(tmp, target)                      # a half-finished copy never looks like a finished one
    spawner.log.info("copied the lessons to %s", target)


c.Spawner.pre_spawn_hook = copy_lessons

# ---- idle culling: stop servers nobody has used for HUB_IDLE_TIMEOUT seconds ----------------------------
IDLE = int(_env("HUB_IDLE_TIMEOUT", "3600"))
c.JupyterHub.services = [{
    "name": "idle-culler",
    "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE}",
                f"--cull-every={max(10, min(300, IDLE // 4))}"],
}]
c.JupyterHub.load_roles = [{
    "name": "idle-culler",
    "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
    "services": ["idle-culler"],
}]
# The user servers report their activity often enough for the culler to judge it.
c.Spawner.environment["JUPYTERHUB_ACTIVITY_INTERVAL"] = str(max(10, min(300, IDLE // 4)))
