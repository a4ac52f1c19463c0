"""Run a lesson's script in a fresh Python process, for what MindSpore settles once per process.

Some things cannot be shown in a running kernel: environment variables MindSpore reads once per process
(the log level that makes compiler warnings visible, at ``import mindspore``; ``ONEDNN_MAX_CPU_ISA`` and
``MS_DEV_HOST_BLOCKING_RUN``, at the first operation that uses them). A lesson keeps such code in a real
file under ``notebooks/scripts/`` (GRAPH_MODE needs the source in a file anyway), shows it, and runs it with
``run_script``: the child gets this interpreter, the course's CPU fixes and quiet logs unless the caller overrides
them, and a failure raises with the child's last output instead of passing silently.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Mapping, Optional

from course_utils import runtime

__all__ = ["ScriptFailed", "run_script"]


class ScriptFailed(RuntimeError):
    """The child process exited with an error; the message carries its output's last lines."""


def run_script(script, *args, device: str = "CPU", env: Optional[Mapping[str, Optional[str]]] = None,
               cwd=None, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess:
    """Run ``python script *args`` in a fresh process and return the ``CompletedProcess`` (text output).

    The child's environment is the one the course gives every child process (``runtime.child_env``: this
    process's without the variables MindSpore reads at load time, quiet logs, the CPU fixes for a CPU ``device``),
    plus ``env`` (a value of ``None`` removes a variable). ``cwd`` defaults to the script's folder. With ``check`` a
    non-zero exit raises ``ScriptFailed``; a run longer than ``timeout`` seconds raises ``subprocess.TimeoutExpired``
    (the child is killed).
    """
    path = Path(script).resolve()
    if not path.is_file():
        raise FileNotFoundError(f"no script at {path}")
    result = subprocess.run([sys.executable, str(path), *map(str, args)], capture_output=True, text=True,
                            env=runtime.child_env(device, cpu_fixes=True, env=env), cwd=str(cwd or path.parent),
                            timeout=timeout)
    if check and result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-15:])
        raise ScriptFailed(f"{path.name} exited with code {result.returncode}:\n{tail}")
    return result
