"""New session ids, drawn from the OS's generator several at a time, stay unique: a forked
process never hands out the ids its parent drew."""

from __future__ import annotations

import os

from runtime import new_session_id


def test_a_forked_child_never_hands_out_its_parents_next_id() -> None:
    new_session_id()  # the parent holds ids drawn ahead now
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # the child: its first id, then out at once
        os.write(write, new_session_id().encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    childs = os.read(read, 64).decode()
    os.close(read)
    assert len(childs) == 16
    assert childs not in {new_session_id() for _ in range(64)}


def test_ids_drawn_ahead_are_sixteen_hex_digits_and_never_repeat() -> None:
    ids = [new_session_id() for _ in range(500)]  # several draws of the generator
    assert len(set(ids)) == len(ids)
    assert all(len(i) == 16 and int(i, 16) >= 0 for i in ids)
