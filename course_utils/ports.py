"""TCP ports on this machine: the one home of "find a free port" and "is this port taken"."""

from __future__ import annotations

import socket

__all__ = ["LOOPBACK", "free_port", "port_in_use"]

LOOPBACK = "127.0.0.1"


def port_in_use(port: int, host: str = LOOPBACK) -> bool:
    """True if something on this machine already holds ``host:port`` (we cannot bind it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind((host, int(port)))
        except OSError:
            return True
    return False


def free_port(host: str = LOOPBACK) -> int:
    """A TCP port on ``host`` that nothing holds right now (the operating system picks it).

    Free when this returns, not reserved: a server started right away almost always gets it, and the
    callers that start one report a port taken in between clearly."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]
