"""The classroom server's configuration, read as JupyterHub reads it (fast: no hub is started, nothing installed).

Each point of the trust model is reproduced by loading hub/jupyterhub_config.py with some settings and looking
at what it configures, or at the message it refuses to start with. The hub itself is tested in test_hub.py.
"""

from __future__ import annotations

import os
import pwd
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "hub"))

from classroom import names  # noqa: E402

ADMIN_PASSWORD = "instructor-password-for-tests"
CONFIG = ROOT / "hub" / "jupyterhub_config.py"


def load(tmp_path, fake_root=False, **settings):
    """(0, what the tests read) of loading the config as JupyterHub does (``get_config``), or (1, the message it
    refused to start with). In this process: ``HUB_*`` variables replaced by ``settings``, ``os.getuid`` faked."""
    import runpy

    import traitlets.config as tc

    saved = dict(os.environ)
    real_getuid = os.getuid
    try:
        for key in [k for k in os.environ if k.startswith("HUB_")]:
            del os.environ[key]
        os.environ.update({"HUB_DATA": str(tmp_path / "data"), "HUB_ADMIN_PASSWORD": ADMIN_PASSWORD,
                           "HUB_SKIP_ACCESS_CHECK": "1", **settings})
        if fake_root:
            os.getuid = lambda: 0
        cfg = tc.Config()
        try:
            runpy.run_path(str(CONFIG), init_globals={"get_config": lambda: cfg})
        except SystemExit as exit_:
            return 1, str(exit_.code)
    finally:
        os.getuid = real_getuid
        os.environ.clear()
        os.environ.update(saved)
    s, j, a = cfg.Spawner, cfg.JupyterHub, cfg.Authenticator
    simple, local = cfg.SimpleLocalProcessSpawner, cfg.LocalClassroomAuthenticator
    return 0, {"cmd": s.cmd, "cpu": s.cpu_limit, "mem": s.mem_limit, "env": s.environment,
               "args": s.args if "args" in s else None, "ip": j.ip, "spawner": j.spawner_class,
               "auth": j.authenticator_class, "admins": sorted(a.admin_users),
               "allow_all": a.allow_all if "allow_all" in a else None,
               "allowed": sorted(a.allowed_users) if "allowed_users" in a else None,
               "services": j.services, "roles": j.load_roles, "scopes": s.server_token_scopes,
               "custom_scopes": j.custom_scopes, "db": j.db_url,
               "homes": simple.home_dir_template if "home_dir_template" in simple else None,
               "add_user_cmd": local.add_user_cmd if "add_user_cmd" in local else None}


def refused(tmp_path, fake_root=False, **settings) -> str:
    code, out = load(tmp_path, fake_root, **settings)
    assert code != 0, f"the config started with {settings}"
    return out


def test_the_default_is_first_use_logins_and_a_private_state_outside_the_course(tmp_path):
    if os.getuid() == 0:
        pytest.skip("as root the default spawner is an isolating one (tested below)")
    code, cfg = load(tmp_path)
    assert code == 0, cfg
    assert cfg["auth"] == "classroom.auth.ClassroomAuthenticator" and cfg["spawner"] == "simple"
    assert cfg["admins"] == ["instructor"] and cfg["allow_all"] is True
    state = tmp_path / "data" / "state"
    assert cfg["db"] == f"sqlite:///{state / 'jupyterhub.sqlite'}"
    assert oct(state.stat().st_mode & 0o777) == "0o700"
    assert cfg["homes"] == str(tmp_path / "data" / "homes" / "{username}")
    assert cfg["args"] is None                    # never --allow-root


def test_without_hub_data_the_state_and_homes_are_outside_the_course(tmp_path):
    sys.path.insert(0, str(ROOT / "hub"))
    from classroom import paths

    saved = {k: os.environ.pop(k) for k in ("HUB_DATA", "HUB_STATE", "HUB_HOMES") if k in os.environ}
    try:
        for folder in (paths.state_dir(), paths.homes_dir("simple"), paths.homes_dir("local")):
            assert not folder.is_relative_to(ROOT), folder     # `git clean -xdf` cannot delete them
    finally:
        os.environ.update(saved)


def test_the_kernel_the_copy_the_limits_and_the_services(tmp_path):
    code, cfg = load(tmp_path, HUB_CPU_LIMIT="2", HUB_MEM_LIMIT="3G", HUB_SERVICE_PORT="8123",
                     **({"HUB_SPAWNER": "local"} if os.getuid() == 0 else {}))
    assert code == 0, cfg
    assert cfg["cmd"] == [str(ROOT / ".venv" / "bin" / "python"), str(ROOT / "hub" / "classroom" / "start.py")]
    assert cfg["cpu"] == 2.0 and cfg["mem"] == "3G" and cfg["env"]["OMP_NUM_THREADS"] == "2"
    assert cfg["env"]["JUPYTER_PATH"] == str(ROOT / ".venv" / "share" / "jupyter")
    assert cfg["env"]["COURSE_LESSONS"] == str(ROOT / "notebooks")
    assert cfg["env"]["COURSE_PROGRESS_URL"] == "http://127.0.0.1:8123/services/classroom/api/records"
    assert cfg["ip"] == "127.0.0.1"
    services = {s["name"]: s for s in cfg["services"]}
    assert "jupyterhub_idle_culler" in services["idle-culler"]["command"]
    assert services["classroom"]["url"] == "http://127.0.0.1:8123"
    assert services["classroom"]["oauth_client_allowed_scopes"] == ["custom:classroom:view"]


def test_only_the_instructor_role_holds_the_view_and_servers_may_only_post(tmp_path):
    code, cfg = load(tmp_path, HUB_ADMINS="ada,grace", **({"HUB_SPAWNER": "local"} if os.getuid() == 0 else {}))
    assert code == 0, cfg
    roles = {r["name"]: r for r in cfg["roles"]}
    holders = [name for name, role in roles.items() if "custom:classroom:view" in role["scopes"]]
    assert holders == ["instructor"] and roles["instructor"]["users"] == ["ada", "grace"]
    assert roles["user"]["scopes"] == ["self", "access:services!service=classroom"]
    assert not any(s.startswith(("read:users", "list:users", "admin", "access:servers")) and "!" not in s
                   for s in roles["classroom"]["scopes"] if s not in ("list:users", "read:users:name",
                                                                         "read:users:activity"))
    assert cfg["scopes"] == ["users:activity!user", "access:servers!server", "access:services!service=classroom"]
    assert "custom:classroom:view" in cfg["custom_scopes"]


def test_the_instructors_password_is_required_and_strong(tmp_path):
    for value in ("", "short-pass"):
        message = refused(tmp_path, HUB_ADMIN_PASSWORD=value)
        assert "set HUB_ADMIN_PASSWORD (12 characters or more)" in message and "secrets.token_urlsafe" in message


@pytest.mark.parametrize("settings, expected", [
    ({"HUB_PASSWORD": "the-old-class-password"}, "HUB_PASSWORD (one class password, any name) is gone"),
    ({"HUB_AUTH": "shared-password"}, "shared-password let anyone log in as anyone"),
    ({"HUB_AUTH": "dummy"}, "HUB_AUTH must be firstuse, roster or pam, not 'dummy'"),
    ({"HUB_SPAWNER": "docker"}, "HUB_SPAWNER must be auto, simple, local or systemd, not 'docker'"),
    ({"HUB_AUTH": "roster"}, "no roster in"),
    ({"HUB_ADMINS": "daemon"}, "'daemon' is the name of a system account"),
    ({"HUB_ADMINS": ".."}, "'..' is not a course user name"),
])
def test_settings_that_would_leave_the_class_open_are_refused_with_the_fix(tmp_path, settings, expected):
    if os.getuid() == 0:
        settings = {"HUB_SPAWNER": "local", **settings}
    assert expected in refused(tmp_path, **settings)


def test_the_simple_spawner_as_root_is_refused_naming_the_fix(tmp_path):
    """JupyterHub would quietly add --allow-root: every attendee's kernel would be root."""
    message = refused(tmp_path, fake_root=True, HUB_SPAWNER="simple")
    assert "would run every attendee's kernel as root" in message
    assert "as an ordinary user" in message and "HUB_SPAWNER=local" in message


def test_as_root_the_default_spawner_isolates_attendees(tmp_path):
    code, cfg = load(tmp_path, fake_root=True)
    assert code == 0, cfg
    expected = "systemdspawner.SystemdSpawner" if Path("/run/systemd/system").is_dir() else "localprocess"
    assert cfg["spawner"] == expected
    if expected == "localprocess":
        assert cfg["auth"] == "classroom.auth.LocalClassroomAuthenticator"


def test_pam_needs_an_explicit_list_of_accounts(tmp_path):
    message = refused(tmp_path, fake_root=True, HUB_AUTH="pam", HUB_SPAWNER="local")
    assert "HUB_AUTH=pam needs HUB_ALLOWED_USERS=" in message
    assert "HUB_SPAWNER=local or systemd" in refused(tmp_path, HUB_AUTH="pam", HUB_SPAWNER="simple",
                                                     HUB_ALLOWED_USERS="ana")


def test_pam_with_a_list_allows_only_that_list(tmp_path):
    code, cfg = load(tmp_path, fake_root=True, HUB_AUTH="pam", HUB_SPAWNER="local", HUB_ALLOWED_USERS="ana,ben",
                     HUB_ADMINS="teacher")
    assert code == 0, cfg
    assert cfg["auth"] == "pam" and cfg["allowed"] == ["ana", "ben"] and cfg["allow_all"] is False


def test_the_isolating_spawners_need_root_and_systemd_needs_systemd(tmp_path):
    if os.getuid() != 0:
        assert "start the hub as root" in refused(tmp_path, HUB_SPAWNER="local")
    if not Path("/run/systemd/system").is_dir():
        assert "needs a machine booted with systemd" in refused(tmp_path, fake_root=True, HUB_SPAWNER="systemd")


def test_a_course_folder_other_users_cannot_enter_is_refused_for_isolated_servers(tmp_path):
    """Tried as an unprivileged user before the class does (as root; otherwise the try itself fails: refused too)."""
    closed = tmp_path / "closed"
    (closed / ".venv").mkdir(parents=True)
    os.chmod(closed, 0o700)
    message = refused(tmp_path, fake_root=True, HUB_SPAWNER="local", HUB_VENV=str(closed / ".venv"),
                      HUB_SKIP_ACCESS_CHECK="")
    assert "the attendees' accounts cannot run" in message and "/opt/mindspore-course" in message
    assert str(closed) in message and "setfacl -m g:course-attendees:x" in message


@pytest.mark.parametrize("name", ["..", ".", "a/b", "Alice", "", "-x", "x" * 33, "a b", "é"])
def test_names_that_are_not_plain_are_refused(name):
    assert "is not a course user name" in names.refusal(name, "simple")


def test_system_accounts_and_reserved_words_are_refused_with_every_spawner():
    for spawner in ("simple", "local", "systemd"):
        for name in ("root", "daemon", "bin", "nobody"):
            assert names.refusal(name, spawner), (name, spawner)
        assert "reserved" in names.refusal("hub", spawner)
    assert names.refusal("instructor", "simple", admins=("instructor",)) is None
    assert names.refusal("alice-2", "simple") is None or pwd.getpwnam("alice-2")


def test_with_dynamic_users_no_existing_account_is_an_attendee(monkeypatch):
    """systemd runs a dynamic user whose name exists as that account: refuse them all. local accepts an existing
    account only if the hub created it (an attendee's earlier login), PAM's listed accounts, and the instructor's."""
    theirs = pwd.struct_passwd(("ann", "x", 1001, 1001, names.ATTENDEE_COMMENT, "/home/ann", "/bin/bash"))
    machines = pwd.struct_passwd(("ubuntu", "x", 1000, 1000, "Ubuntu", "/home/ubuntu", "/bin/bash"))
    monkeypatch.setattr(names, "_account", {"ann": theirs, "ubuntu": machines}.get)
    assert "would run as it" in names.refusal("ann", "systemd")
    assert names.refusal("ann", "local") is None
    assert names.refusal("ann", "simple") is None
    # the machine's own login: claiming it would run a server as that account
    assert "did not create" in names.refusal("ubuntu", "local")
    assert names.refusal("ubuntu", "local", existing_accounts=True) is None      # HUB_AUTH=pam lists it
    assert names.refusal("ubuntu", "local", admins=("ubuntu",)) is None          # the instructor's own login
    assert names.refusal("ubuntu", "simple") is None                            # simple: no account is used
