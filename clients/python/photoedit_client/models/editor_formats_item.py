from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="EditorFormatsItem")


@_attrs_define
class EditorFormatsItem:
    """
    Attributes:
        format_identifier (str):
        format_versions (list[str]):
    """

    format_identifier: str
    format_versions: list[str]

    def to_dict(self) -> dict[str, Any]:
        format_identifier = self.format_identifier

        format_versions = self.format_versions

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "formatIdentifier": format_identifier,
                "formatVersions": format_versions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        format_identifier = d.pop("formatIdentifier")

        format_versions = cast(list[str], d.pop("formatVersions"))

        editor_formats_item = cls(
            format_identifier=format_identifier,
            format_versions=format_versions,
        )

        return editor_formats_item
