"""Hostile records and backups: any JSON is refused cleanly, never a crash."""

from __future__ import annotations

import copy
import io
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_history_helpers import corpus_record

from scorekeeper.formats import backup

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
