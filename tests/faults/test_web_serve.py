"""Serving the page: a bad --host or --port is one clear line saying what to do, never Werkzeug's bare exit."""

from __future__ import annotations

import socket

import pytest

from companion.cli import main
from companion.errors import SetupError
from companion.web import create_app, serve
from tests.companion.fakes import FakeLive


@pytest.fixture
def app():
    return create_app({"LIVE": FakeLive()})


@pytest.mark.parametrize(
    ("host", "port", "words"),
    [
        ("no.such.host.invalid", 0, "the host 'no.such.host.invalid' could not be resolved"),
        ("a..b", 0, "the host 'a..b' could not be resolved"),
        ("192.0.2.1", 0, "give --host an address of this machine"),
        ("127.0.0.1", 70000, "70000 is not a port: give --port from 0 to 65535"),
        ("127.0.0.1", -1, "-1 is not a port"),
    ],
)
def test_a_bad_address_is_a_setup_error_saying_what_to_do(app, host, port, words):
    with pytest.raises(SetupError) as refused:
        serve(app, host, port)
    assert words in str(refused.value)
    assert "--host" in str(refused.value) or "--port" in str(refused.value)


def test_a_port_in_use_is_named(app):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = taken.getsockname()[1]
        with pytest.raises(SetupError, match=f"port {port} on 127.0.0.1 is in use by another program"):
            serve(app, "127.0.0.1", port)


def test_the_page_is_served_on_the_socket_bound_beforehand(app):
    server = serve(app, "localhost", 0)
    try:
        assert server.port > 0
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as connection:
            connection.sendall(b"GET /api/state HTTP/1.0\r\nHost: x\r\n\r\n")
            assert connection.recv(64).startswith(b"HTTP/1.")
    finally:
        server.stop()


def test_an_unknown_host_stops_the_demo_in_one_line(capsys):
    status = main(["demo", "--host", "no.such.host.invalid", "--port", "0", "--duration", "1", "--no-camera"])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert len(err.splitlines()) == 1
    assert "the host 'no.such.host.invalid' could not be resolved" in err and "127.0.0.1" in err
