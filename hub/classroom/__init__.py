"""The classroom server's own code, beside its JupyterHub configuration (``hub/jupyterhub_config.py``).

* ``names``: which attendee names the hub accepts (never ``..``, never a system account's);
* ``auth``: the login: a name belongs to whoever claimed it first; the instructor's names only with their password;
* ``roster``: ``make hub-roster``, one name and a random password per seat;
* ``lessons``: each attendee's own copy of ``notebooks/``, made and updated by their own server, as their own user;
* ``start``: the command a spawner runs (update the copy, then ``jupyterhub-singleuser``);
* ``serverext``: the update link (``/hub/user-redirect/course/update``) inside each attendee's server;
* ``service``: the instructor's live view, a JupyterHub service (``/services/classroom/``);
* ``bench``: the capacity benchmark (``make hub-bench``).

The hub imports these modules from this folder; they run in the course's ``.venv`` (JupyterHub is installed there
by ``make hub-setup``). Docs: docs/classroom-server.md.
"""
