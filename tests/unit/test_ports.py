"""course_utils.ports: free_port and port_in_use."""

import socket

from course_utils.ports import LOOPBACK, free_port, port_in_use


def test_free_port_is_free_and_a_held_port_is_in_use():
    port = free_port()
    assert 0 < port < 65536 and not port_in_use(port)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((LOOPBACK, port))
        sock.listen()
        assert port_in_use(port)
    assert not port_in_use(port)
