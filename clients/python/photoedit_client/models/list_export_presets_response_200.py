from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.list_export_presets_response_200_presets_item import (
        ListExportPresetsResponse200PresetsItem,
    )


T = TypeVar("T", bound="ListExportPresetsResponse200")


@_attrs_define
class ListExportPresetsResponse200:
    """
    Attributes:
        presets (list[ListExportPresetsResponse200PresetsItem]):
    """

    presets: list[ListExportPresetsResponse200PresetsItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        presets = []
        for presets_item_data in self.presets:
            presets_item = presets_item_data.to_dict()
            presets.append(presets_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "presets": presets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_export_presets_response_200_presets_item import (
            ListExportPresetsResponse200PresetsItem,
        )

        d = dict(src_dict)
        presets = []
        _presets = d.pop("presets")
        for presets_item_data in _presets:
            presets_item = ListExportPresetsResponse200PresetsItem.from_dict(
                presets_item_data
            )

            presets.append(presets_item)

        list_export_presets_response_200 = cls(
            presets=presets,
        )

        list_export_presets_response_200.additional_properties = d
        return list_export_presets_response_200

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
