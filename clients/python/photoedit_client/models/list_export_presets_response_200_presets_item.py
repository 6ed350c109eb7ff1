from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.list_export_presets_response_200_presets_item_settings import (
        ListExportPresetsResponse200PresetsItemSettings,
    )


T = TypeVar("T", bound="ListExportPresetsResponse200PresetsItem")


@_attrs_define
class ListExportPresetsResponse200PresetsItem:
    """
    Attributes:
        name (str):
        summary (str):
        built_in (bool):
        settings (ListExportPresetsResponse200PresetsItemSettings):
    """

    name: str
    summary: str
    built_in: bool
    settings: ListExportPresetsResponse200PresetsItemSettings
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        summary = self.summary

        built_in = self.built_in

        settings = self.settings.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "summary": summary,
                "builtIn": built_in,
                "settings": settings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.list_export_presets_response_200_presets_item_settings import (
            ListExportPresetsResponse200PresetsItemSettings,
        )

        d = dict(src_dict)
        name = d.pop("name")

        summary = d.pop("summary")

        built_in = d.pop("builtIn")

        settings = ListExportPresetsResponse200PresetsItemSettings.from_dict(
            d.pop("settings")
        )

        list_export_presets_response_200_presets_item = cls(
            name=name,
            summary=summary,
            built_in=built_in,
            settings=settings,
        )

        list_export_presets_response_200_presets_item.additional_properties = d
        return list_export_presets_response_200_presets_item

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
