"""The test site's address: the checkout's own port, the same at every run, and any free port when it is taken."""

from __future__ import annotations

import contextlib
import socket
from pathlib import Path

from harness.built_site import TEST_PREFIX, serve_test_site, stable_port


def test_the_port_is_the_checkouts_own_and_outside_the_ephemeral_range() -> None:
    assert stable_port() == stable_port()  # every run of this checkout
    assert stable_port(Path("/elsewhere/pe-docs")) != stable_port()  # another checkout, another port
    ports = {stable_port(Path(f"/clone/{n}")) for n in range(200)}
    assert min(ports) >= 20_000 and max(ports) <= 32_767 and len(ports) > 190


def test_a_taken_port_falls_back_to_a_free_one(tmp_path: Path) -> None:
    with contextlib.ExitStack() as stack:
        first = serve_test_site(stack, tmp_path)  # the checkout's port (unless another run of it holds that)
        second = serve_test_site(stack, tmp_path)  # now taken, by the first server or by the other run
        assert second.endswith(TEST_PREFIX) and second != first
        port = int(second.split(":")[2].split("/")[0])
        assert port != stable_port()
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # it answers
