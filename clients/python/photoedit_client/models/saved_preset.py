from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SavedPreset")


@_attrs_define
class SavedPreset:
    """
    Attributes:
        name (str):
        summary (str):
        chain (str):
        not_exported (list[str]):
    """

    name: str
    summary: str
    chain: str
    not_exported: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        summary = self.summary

        chain = self.chain

        not_exported = self.not_exported

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "summary": summary,
                "chain": chain,
                "notExported": not_exported,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        summary = d.pop("summary")

        chain = d.pop("chain")

        not_exported = cast(list[str], d.pop("notExported"))

        saved_preset = cls(
            name=name,
            summary=summary,
            chain=chain,
            not_exported=not_exported,
        )

        saved_preset.additional_properties = d
        return saved_preset

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
