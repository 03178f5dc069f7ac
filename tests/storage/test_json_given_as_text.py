"""A value given as its JSON text (`storage.sql.JsonText`, a snapshot's state as its model
writes it) is written into a batch's rows as that JSON, not as a string or an object of its
own: on either encoder `dumps` uses."""

from __future__ import annotations

import json

from storage.sql import JsonText, dumps


def test_dumps_writes_json_text_as_the_value_it_holds() -> None:
    text = '{"hand":[3,14],"name":"二人"}'
    assert json.loads(dumps([["s1", 4, JsonText(text)]])) == [["s1", 4, json.loads(text)]]


def test_dumps_writes_json_text_beside_an_integer_past_64_bits() -> None:
    text = '{"draw":[1,2]}'
    value = [[2**64 + 1, JsonText(text)]]
    assert json.loads(dumps(value)) == [[2**64 + 1, {"draw": [1, 2]}]]
