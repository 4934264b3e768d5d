"""Hostile records and backups: any JSON is refused cleanly, never a crash."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_history_helpers import corpus_record

from scorekeeper.formats import backup
from scorekeeper.formats import outline as outline_scan

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)

RECORD = corpus_record("stalled-n3-c2-h2-20048.json")
KEYS = ["format", "variant", "players", "moves", "final"]
MOVE_KEYS = ["player", "type", "tiles", "count", "score"]


def refused_or_valid(document: Any) -> None:
    try:
        backup.check_record(document)
    except backup.BackupError as exc:
        assert str(exc)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_value_is_refused_cleanly(value: Any) -> None:
    refused_or_valid(value)
    data = io.BytesIO(json.dumps(value).encode())
    try:
        list(backup.read_backup(data, limit=10**6))
    except backup.BackupError as exc:
        assert str(exc)


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    key=st.sampled_from(KEYS),
    value=json_values,
)
def test_a_record_with_one_top_level_field_replaced_is_refused_cleanly(
    key: str, value: Any
) -> None:
    document = copy.deepcopy(RECORD)
    document[key] = value
    refused_or_valid(document)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(RECORD["moves"]) - 1),
    key=st.sampled_from(MOVE_KEYS),
    value=json_values,
    delete=st.booleans(),
)
def test_a_record_with_one_move_field_changed_is_refused_cleanly(
    index: int, key: str, value: Any, delete: bool
) -> None:
    document = copy.deepcopy(RECORD)
    if delete:
        document["moves"][index].pop(key, None)
    else:
        document["moves"][index][key] = value
    refused_or_valid(document)


@settings(max_examples=100)
@given(st.binary(max_size=64))
def test_any_bytes_are_refused_cleanly(data: bytes) -> None:
    try:
        document = backup.loads(data, limit=1000)
    except backup.BackupError:
        return
    refused_or_valid(document)


def test_the_unchanged_record_is_valid() -> None:
    checked = backup.check_record(json.loads(json.dumps(RECORD)))
    assert checked.names == RECORD["players"]


def read(data: bytes, limit: int = 10**7) -> list[backup.RestoredGame]:
    return list(backup.read_backup(io.BytesIO(data), limit=limit))


class OneWay(io.RawIOBase):
    """A request body: read once, front to back, no seeking."""

    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self.data.read(len(buffer))
        buffer[: len(chunk)] = chunk
        return len(chunk)


@settings(max_examples=100)
@given(st.binary(max_size=64))
def test_any_bytes_given_to_the_streaming_reader_are_refused_cleanly(
    data: bytes,
) -> None:
    try:
        read(data)
    except backup.BackupError as exc:
        assert str(exc)


def backup_bytes(*games: Any, **more: Any) -> bytes:
    return json.dumps({"format": "qwirkle-backup/1", "games": list(games), **more}
                      ).encode()


@pytest.mark.parametrize(("label", "data", "needle"), [
    # 100,000 nested lists would take ijson gigabytes of paths: refused first.
    ("nested", b'{"format":"qwirkle-backup/1","games":[' + b"[" * 100_000
     + b"]" * 100_000 + b"]}", "nested too deeply"),
    ("huge integer", b'{"format":"qwirkle-backup/1","games":[{"n":' + b"9" * 5000
     + b"}]}", "number too large"),
    ("trailing", backup_bytes() + b" {}", "not JSON"),
    ("cut short", backup_bytes(RECORD)[:-300], "ends too early"),
    ("two lists", b'{"format":"qwirkle-backup/1","games":[],"games":[]}', "one list"),
    ("games an object", b'{"format":"qwirkle-backup/1","games":{"item":{}}}', "list"),
    ("no games", b'{"format":"qwirkle-backup/1"}', "list of games"),
    ("no format", b'{"games":[]}', "qwirkle-backup/1"),
    ("format last, wrong", b'{"games":[],"format":"qwirkle-game/1"}',
     "qwirkle-backup/1"),
])
def test_a_broken_backup_is_refused_before_any_game_is_checked(
    label: str, data: bytes, needle: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[int] = []
    monkeypatch.setattr(backup, "check_record", lambda g, n: checked.append(n))
    with pytest.raises(backup.BackupError) as refused:
        read(data)
    assert needle in str(refused.value), label
    assert checked == []


def test_the_reader_takes_a_bom_any_key_order_extra_keys_and_a_one_way_stream(
) -> None:
    body = json.dumps({"note": {"any": [1, 2]}, "games": [RECORD, RECORD],
                       "format": "qwirkle-backup/1", "exported_at": None})
    data = b"\xef\xbb\xbf" + body.encode()
    assert [g.names for g in read(data)] == [RECORD["players"]] * 2
    stream = OneWay(data)
    games = list(backup.read_backup(stream, limit=len(data)))  # type: ignore[arg-type]
    assert len(games) == 2
    with pytest.raises(backup.BackupError) as refused:
        list(backup.read_backup(OneWay(data), limit=len(data) - 1))  # type: ignore[arg-type]
    assert refused.value.code == "too_large"


def test_the_c_backend_of_ijson_reads_backups() -> None:
    import ijson  # type: ignore[import-untyped]

    assert ijson.backend == "yajl2_c"


def flattened(value: Any) -> Any:
    """A top-level value as the outline keeps it: containers emptied."""
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return value


@settings(max_examples=200)
@given(value=json_values, key=st.text(max_size=6), size=st.integers(1, 40),
       ascii_only=st.booleans())
def test_the_outline_scan_keeps_the_top_level_whatever_the_strings_hold(
    value: Any, key: str, size: int, ascii_only: bool
) -> None:
    # Quotes, backslashes and brackets inside strings, cut anywhere between two
    # pieces of the file, never count as structure.
    document = {"format": "qwirkle-backup/1", key: value, "games": []}
    data = json.dumps(document, ensure_ascii=ascii_only).encode()
    outline = outline_scan.Outline(
        max_depth=backup.MAX_DEPTH, max_size=backup.MAX_OUTLINE)
    for start in range(0, len(data), size):
        outline.feed(data[start: start + size])
    assert (outline.depth, outline.in_string) == (0, False)
    assert json.loads(b"".join(outline.kept)) == {
        k: flattened(v) for k, v in document.items()}


def test_a_name_full_of_brackets_and_quotes_restores() -> None:
    record = copy.deepcopy(RECORD)
    record["players"] = ['A]}"\\', '"[{\\\\'][: len(record["players"])] + [
        f"P{i}" for i in range(len(record["players"]) - 2)]
    games = read(backup_bytes(record))
    assert games[0].names == record["players"]
