"""A table photo's trains put into the referee form: whose train is whose, and each one's end.

The photo shows the trains round the hub in seat order (companion.photos.TableReading), so
once a player names the owner of any one train, the others follow: each train the player has not set
takes the next seat round the table, skipping the seats set on other trains, and the trains
left over once every seat has one are the Mexican Trains.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from ..photos import TableReading
from .dispute import TrainRow

NOT_A_TRAIN = "x"
"""The owner of a chain that is no train (tiles the reader strung together by mistake)."""


def owner_choices(rows: Sequence[TrainRow]) -> list[tuple[str, str]]:
    """Who a train read can belong to: (form value, words), seats first."""
    choices = [(row.key, row.name if row.owner is not None else _mexican(row)) for row in rows]
    choices.append((NOT_A_TRAIN, "Not a train"))
    return choices


def _mexican(row: TrainRow) -> str:
    return "Mexican Train" if row.key == "m1" else "second Mexican Train"


def assign_owners(count: int, chosen: Mapping[int, str], rows: Sequence[TrainRow]) -> list[str]:
    """The owner (a row's key, or NOT_A_TRAIN) of each of ``count`` trains in seat order.

    ``chosen`` holds the owners the player set, by train index; every other train follows the
    nearest train before it round the table: the next seat nobody else has, then the Mexican
    Trains, then none."""
    seats = [row.key for row in rows if row.owner is not None]
    mexicans = [row.key for row in rows if row.owner is None]
    taken = set(chosen.values())
    owners = [""] * count
    # Start the walk at the first train set to a seat (else at the first train, with seat 0).
    start = next((i for i in sorted(chosen) if chosen[i] in seats), 0)
    next_seat = 0
    given: set[str] = set()
    for step in range(count):
        index = (start + step) % count
        if index in chosen:
            owner = chosen[index]
            if owner in seats:
                next_seat = seats.index(owner) + 1
        else:
            owner = NOT_A_TRAIN
            for offset in range(len(seats)):
                seat = seats[(next_seat + offset) % len(seats)]
                if seat not in taken and seat not in given:
                    owner = seat
                    next_seat = seats.index(seat) + 1
                    break
            else:
                spare = [key for key in mexicans if key not in taken and key not in given]
                if spare:
                    owner = spare[0]
        given.add(owner)
        owners[index] = owner
    return owners


def clashes(owners: Sequence[str], rows: Sequence[TrainRow]) -> list[str]:
    """What to say when two trains were given one owner (only the last of them is used)."""
    words = dict(owner_choices(rows))
    counts = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight")
    said = []
    for key in dict.fromkeys(owners):
        count = owners.count(key)
        if key == NOT_A_TRAIN or count < 2:
            continue
        whose = f"{words[key]}'s" if key.isdigit() else f"the {words[key]}"
        many = counts[count - 2] if count - 2 < len(counts) else str(count)
        said.append(
            f"{many} trains are set as {whose}: only the last of them is used. Set whose the "
            "others are."
        )
    return said


def apply_reading(
    values: dict[str, str],
    rows: Sequence[TrainRow],
    set_max: int,
    reading: TableReading,
    owners: Sequence[str],
) -> None:
    """Fill the form's ``values`` from the photo: the engine, and each train's end, open
    double and marker by its owner; a seat or Mexican Train no chain was read for is not
    started. A marker the photo could not tell stays as the player set it. ``owners-was``
    records the owners used, so the next request knows whether the player changed one."""
    if reading.engine is not None and reading.engine <= set_max:
        values["engine"] = str(reading.engine)
    by_owner = {
        owner: train
        for owner, train in zip(owners, reading.trains, strict=True)
        if owner != NOT_A_TRAIN
    }
    for row in rows:
        train = by_owner.get(row.key)
        if train is None or train.end > set_max:
            values[f"end-{row.key}"] = "none"
            values.pop(f"open-{row.key}", None)
        else:
            values[f"end-{row.key}"] = str(train.end)
            if train.open_double:
                values[f"open-{row.key}"] = "on"
            else:
                values.pop(f"open-{row.key}", None)
        if row.owner is not None and train is not None and train.marker is not None:
            if train.marker:
                values[f"marker-{row.key}"] = "on"
            else:
                values.pop(f"marker-{row.key}", None)
    values["owners-was"] = " ".join(owners)
    for index, owner in enumerate(owners):
        values[f"owner-{index}"] = owner


def marker_note(reading: TableReading, owners: Sequence[str], rows: Sequence[TrainRow]) -> str:
    """What the photo said of the seats' markers, in a sentence or two ("" if nothing)."""
    names = {row.key: row.name for row in rows if row.owner is not None}
    seen, unknown = [], []
    for owner, train in zip(owners, reading.trains, strict=True):
        if owner not in names:
            continue
        if train.marker:
            seen.append(f"{names[owner]}'s")
        elif train.marker is None:
            unknown.append(f"{names[owner]}'s")
    said = []
    if seen:
        said.append(f"A marker was seen on {_listed(seen)} train{'s' if len(seen) > 1 else ''}.")
    if unknown:
        said.append(
            f"Tick the marker of {_listed(unknown)} train{'s' if len(unknown) > 1 else ''}"
            " yourself if there is one: the photo could not tell."
        )
    return " ".join(said)


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def chosen_owners(
    values: Mapping[str, object], count: int, rows: Sequence[TrainRow]
) -> dict[int, str]:
    """The owners the player set: those listed in ``owners-set`` and any select changed from
    what the page showed (``owners-was``), so the form works without the page script too."""
    valid = {key for key, _ in owner_choices(rows)}
    listed = {int(n) for n in _text(values, "owners-set").split() if n.isdigit()}
    shown = _text(values, "owners-was").split()
    chosen: dict[int, str] = {}
    for index in range(count):
        value = _text(values, f"owner-{index}")
        if value not in valid:
            continue
        changed = index < len(shown) and shown[index] != value
        if index in listed or changed:
            chosen[index] = value
    return chosen


def reading_from(values: Mapping[str, object]) -> TableReading | None:
    """The table reading the page sent back, or None (none, or not a reading)."""
    text = _text(values, "table-read")
    if not text:
        return None
    try:
        return TableReading.from_json(json.loads(text))
    except ValueError:  # json.JSONDecodeError is one
        return None


def _text(values: Mapping[str, object], key: str) -> str:
    value = values.get(key, "")
    return value.strip() if isinstance(value, str) else ""
