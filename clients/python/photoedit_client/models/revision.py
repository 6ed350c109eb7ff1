from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Revision")


@_attrs_define
class Revision:
    """
    Attributes:
        number (int):
        date (datetime.datetime):
        kind (str):
        chain (None | str):
        pixel_width (int):
        pixel_height (int):
        base_revision (int | None):
        is_based_on_alternate (bool):
        format_identifier (None | str): who wrote the adjustment data (null for the original)
        editor_note (None | str): where an edit not written as a photoedit recipe came from ("from Lightroom; not
            mapped: …", "darktable history: 10 steps (…)", "another editor's edit (FORMAT VERSION)"); null otherwise
        snapshots (list[str]): The names of the snapshots that name this revision, by name.
    """

    number: int
    date: datetime.datetime
    kind: str
    chain: None | str
    pixel_width: int
    pixel_height: int
    base_revision: int | None
    is_based_on_alternate: bool
    format_identifier: None | str
    editor_note: None | str
    snapshots: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        number = self.number

        date = self.date.isoformat()

        kind = self.kind

        chain: None | str
        chain = self.chain

        pixel_width = self.pixel_width

        pixel_height = self.pixel_height

        base_revision: int | None
        base_revision = self.base_revision

        is_based_on_alternate = self.is_based_on_alternate

        format_identifier: None | str
        format_identifier = self.format_identifier

        editor_note: None | str
        editor_note = self.editor_note

        snapshots = self.snapshots

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "number": number,
                "date": date,
                "kind": kind,
                "chain": chain,
                "pixelWidth": pixel_width,
                "pixelHeight": pixel_height,
                "baseRevision": base_revision,
                "isBasedOnAlternate": is_based_on_alternate,
                "formatIdentifier": format_identifier,
                "editorNote": editor_note,
                "snapshots": snapshots,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        number = d.pop("number")

        date = datetime.datetime.fromisoformat(d.pop("date"))

        kind = d.pop("kind")

        def _parse_chain(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        chain = _parse_chain(d.pop("chain"))

        pixel_width = d.pop("pixelWidth")

        pixel_height = d.pop("pixelHeight")

        def _parse_base_revision(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        base_revision = _parse_base_revision(d.pop("baseRevision"))

        is_based_on_alternate = d.pop("isBasedOnAlternate")

        def _parse_format_identifier(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        format_identifier = _parse_format_identifier(d.pop("formatIdentifier"))

        def _parse_editor_note(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        editor_note = _parse_editor_note(d.pop("editorNote"))

        snapshots = cast(list[str], d.pop("snapshots"))

        revision = cls(
            number=number,
            date=date,
            kind=kind,
            chain=chain,
            pixel_width=pixel_width,
            pixel_height=pixel_height,
            base_revision=base_revision,
            is_based_on_alternate=is_based_on_alternate,
            format_identifier=format_identifier,
            editor_note=editor_note,
            snapshots=snapshots,
        )

        revision.additional_properties = d
        return revision

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
