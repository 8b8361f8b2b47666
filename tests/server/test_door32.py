"""DOOR32.SYS parsing and loading tests."""
from __future__ import annotations

import os
import time

import pytest

from server.net.door32 import (
    COMM_LOCAL,
    COMM_TELNET,
    EMU_ANSI,
    DropFile,
    DropFileError,
    load_door32,
    parse_door32,
    peek_comm,
)

GOOD = ["2", "7", "38400", "Synchronet 3.20a", "42", "Rick Greer", "DarkRider",
        "110", "58", "1", "3"]


def text(lines=GOOD, nl="\r\n") -> str:
    return nl.join(lines) + nl


def with_line(n: int, value: str) -> list[str]:
    lines = list(GOOD)
    lines[n - 1] = value
    return lines


def test_good_file():
    drop = parse_door32(text())
    assert drop == DropFile(comm_type=COMM_TELNET, comm_handle=7, baud=38400,
                            bbs_name="Synchronet 3.20a", user_record=42, real_name="Rick Greer",
                            handle="DarkRider", security=110, minutes_left=58,
                            emulation=EMU_ANSI, node=3)
    assert drop.caller_name == "DarkRider"


def test_lf_endings_whitespace_and_extra_lines():
    lines = [f" {ln} " for ln in GOOD] + ["extra", "lines"]
    drop = parse_door32(text(lines, nl="\n"))
    assert drop.handle == "DarkRider" and drop.node == 3


def test_synchronet_stdio_local_handle_minus_one():
    drop = parse_door32(text(["0", "-1", *GOOD[2:]]))
    assert drop.comm_type == COMM_LOCAL and drop.comm_handle == -1


def test_blank_handle_falls_back_to_real_name():
    assert parse_door32(text(with_line(7, ""))).caller_name == "Rick Greer"


def test_cp437_names():
    drop = parse_door32(text(with_line(7, "Jörg")))
    assert drop.handle == "Jörg"


@pytest.mark.parametrize("count", [0, 1, 7, 10])
def test_missing_lines(count):
    with pytest.raises(DropFileError) as err:
        parse_door32(text(GOOD[:count]) if count else "")
    msg = str(err.value)
    assert msg.startswith(f"DOOR32.SYS: expected 11 lines, found {count}")
    assert f"line {count + 1}" in msg


@pytest.mark.parametrize("n, value, message", [
    (1, "x", "DOOR32.SYS line 1: comm type must be a number, got 'x'"),
    (1, "3", "DOOR32.SYS line 1: comm type must be 0..2, got 3"),
    (2, "abc", "DOOR32.SYS line 2: comm handle must be a number, got 'abc'"),
    (2, "-1", "DOOR32.SYS line 2: comm handle must be a socket number for comm type 2, got -1"),
    (3, "fast", "DOOR32.SYS line 3: baud rate must be a number, got 'fast'"),
    (5, "", "DOOR32.SYS line 5: user record must be a number, got ''"),
    (8, "high", "DOOR32.SYS line 8: security level must be a number, got 'high'"),
    (9, "1.5", "DOOR32.SYS line 9: minutes left must be a number, got '1.5'"),
    (10, "5", "DOOR32.SYS line 10: emulation must be 0..4, got 5"),
    (11, "one", "DOOR32.SYS line 11: node number must be a number, got 'one'"),
])
def test_wrong_types(n, value, message):
    with pytest.raises(DropFileError) as err:
        parse_door32(text(with_line(n, value)))
    assert str(err.value) == message


def test_no_name_at_all():
    lines = with_line(6, "")
    lines[6] = ""
    with pytest.raises(DropFileError, match="line 7: handle is empty"):
        parse_door32(text(lines))


def test_source_name_in_messages():
    with pytest.raises(DropFileError, match=r"^node1/door32\.sys line 2"):
        parse_door32(text(with_line(2, "?")), source="node1/door32.sys")


def test_peek_comm():
    assert peek_comm(text(with_line(5, "junk"))) == (2, 7)
    assert peek_comm("2\nabc\n") is None
    assert peek_comm("") is None


def test_load_good(tmp_path):
    path = tmp_path / "door32.sys"
    path.write_bytes(text(with_line(7, "Jörg")).encode("cp437"))
    drop = load_door32(path, max_age_minutes=2)
    assert drop.handle == "Jörg"


def test_load_error_names_file(tmp_path):
    path = tmp_path / "door32.sys"
    path.write_text(text(with_line(2, "abc")))
    with pytest.raises(DropFileError) as err:
        load_door32(path)
    assert str(err.value) == "door32.sys line 2: comm handle must be a number, got 'abc'"


def test_load_missing_file(tmp_path):
    path = tmp_path / "node9" / "DOOR32.SYS"
    with pytest.raises(DropFileError, match="drop file not found: .*node9/DOOR32.SYS") as err:
        load_door32(path)
    assert "node9" not in err.value.caller_text and "drop file" in err.value.caller_text


def test_load_directory(tmp_path):
    with pytest.raises(DropFileError, match="is a directory"):
        load_door32(tmp_path)


def test_load_a_named_pipe_says_so_and_never_waits(tmp_path):
    """A FIFO opened for reading waits for a writer: the door would hang
    with nothing said. It is refused at once."""
    fifo = tmp_path / "DOOR32.SYS"
    os.mkfifo(fifo)
    with pytest.raises(DropFileError, match="drop file is not a regular file"):
        load_door32(fifo)


def test_load_stale(tmp_path):
    """A per-node file left by the previous caller (the BBS did not write a
    new one) is refused: it must be written within the window before the door starts."""
    path = tmp_path / "DOOR32.SYS"
    path.write_text(text())
    start = time.time()
    old = start - 3 * 60
    os.utime(path, (old, old))
    with pytest.raises(DropFileError, match=r"DOOR32.SYS is stale: written 3.0 minutes ago "
                                            r"\(a drop file must be written within 2 minutes") as err:
        load_door32(path, max_age_minutes=2, now=start)
    assert "old" in err.value.caller_text and str(tmp_path) not in err.value.caller_text
    assert load_door32(path).node == 3            # no limit: accepted
    assert load_door32(path, max_age_minutes=4, now=start).node == 3
    fresh = start - 90
    os.utime(path, (fresh, fresh))
    assert load_door32(path, max_age_minutes=2, now=start).node == 3


def test_load_from_the_future_is_refused(tmp_path):
    path = tmp_path / "DOOR32.SYS"
    path.write_text(text())
    start = time.time()
    os.utime(path, (start + 600, start + 600))
    with pytest.raises(DropFileError, match="10.0 minutes in the future"):
        load_door32(path, max_age_minutes=2, now=start)


def test_load_huge_file(tmp_path):
    path = tmp_path / "DOOR32.SYS"
    path.write_bytes(b"2\r\n" * 40_000)
    with pytest.raises(DropFileError, match="larger than 64 KiB"):
        load_door32(path)


def test_enigma_file_is_accepted_for_stdio():
    """ENiGMA½ writes comm type 2 with handle -1 and runs the door over
    stdio: with --stdio the handle is not needed, so the file is fine."""
    enigma = ["2", "-1", "115200", "Proof BBS", "1", "Proof Caller", "proofcaller",
              "30", "546", "1", "1"]
    with pytest.raises(DropFileError, match="comm handle must be a socket number"):
        parse_door32(text(enigma))
    drop = parse_door32(text(enigma), stdio=True)
    assert (drop.comm_type, drop.comm_handle, drop.handle) == (COMM_TELNET, -1, "proofcaller")
