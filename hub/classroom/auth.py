"""The classroom's login: a name belongs to whoever claimed it first; the instructor's names only with their password.

``ClassroomAuthenticator`` is The Littlest JupyterHub's default login (``jupyterhub-firstuseauthenticator``: the
password given at a name's first login is stored, bcrypt-hashed, and required from then on) with three changes:

* the instructor's names (``HUB_ADMINS``) are never claimed by first use: they log in only with the instructor's
  own password (``HUB_ADMIN_PASSWORD``, 12 characters or more, kept in memory only, compared in constant time),
  whatever the password file says;
* a name is checked *before* anything is stored (``names.refusal``: no ``..``, no system account's name), so a
  refused name never claims anything;
* with a roster (``make hub-roster``) only the roster's names log in, with the passwords it printed.

``LocalClassroomAuthenticator`` adds JupyterHub's ``LocalAuthenticator`` for the ``local`` spawner: a name's first
login creates its system account (``useradd``, a private home), so each attendee's server runs as their own user.
"""

from __future__ import annotations

import hmac

from firstuseauthenticator import FirstUseAuthenticator
from jupyterhub.auth import LocalAuthenticator
from traitlets import Integer, Unicode, default

from classroom import names

__all__ = ["ClassroomAuthenticator", "LocalClassroomAuthenticator"]


class ClassroomAuthenticator(FirstUseAuthenticator):
    admin_password = Unicode("", help="The instructor's password (HUB_ADMIN_PASSWORD); never stored.").tag(config=True)
    spawner_kind = Unicode("simple", help="simple, local or systemd: which names are refused (names.py)").tag(
        config=True)
    min_password_length = Integer(8, config=True, help="A claimed name's password: at least this long.")

    @default("allow_all")
    def _allow_all_default(self):
        return not self.allowed_users

    def refusal(self, name: str):
        return names.refusal(name, self.spawner_kind, self.admin_users)

    def validate_username(self, name):
        return self.refusal(name) is None and super().validate_username(name)

    def _say(self, handler, message: str) -> None:
        self.log.warning("login refused: %s", message)
        if hasattr(handler, "custom_login_error"):
            handler.custom_login_error = message

    async def authenticate(self, handler, data):
        name = self.normalize_username(str(data.get("username", "")))
        password = str(data.get("password", ""))
        if name in self.admin_users:
            expected = self.admin_password.encode("utf-8")
            if expected and hmac.compare_digest(password.encode("utf-8"), expected):
                return name
            self.log.warning("login refused: wrong password for the instructor's name %r", name)
            return None
        why = self.refusal(name)
        if why:
            self._say(handler, f"Login refused: {why}.")
            return None
        if self.allowed_users and name not in self.allowed_users:
            self.log.warning("login refused: %r is not on the roster", name)
            return None
        return await super().authenticate(handler, {**data, "username": name})

    def reset_password(self, username, new_password):
        if username in self.admin_users:
            return "The instructor's password is HUB_ADMIN_PASSWORD: change it where the hub is started."
        return super().reset_password(username, new_password)


class LocalClassroomAuthenticator(ClassroomAuthenticator, LocalAuthenticator):
    @default("create_system_users")
    def _create_system_users_default(self):
        return True

    @default("add_user_cmd")
    def _add_user_cmd_default(self):
        # A private home (0700): another attendee's process cannot read it. No password: only the hub logs in.
        return ["useradd", "--create-home", "--key", "HOME_MODE=0700", "--shell", "/bin/bash",
                "--comment", names.ATTENDEE_COMMENT]

    def check_allowed(self, username, authentication=None):
        return ClassroomAuthenticator.check_allowed(self, username, authentication)
