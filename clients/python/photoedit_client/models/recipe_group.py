from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RecipeGroup")


@_attrs_define
class RecipeGroup:
    """
    Attributes:
        name (str):
        title (str):
        synced_by_default (bool): Synced (and saved in a preset) when no group is named: all but geometry and local.
        filters (list[str]):
    """

    name: str
    title: str
    synced_by_default: bool
    filters: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        title = self.title

        synced_by_default = self.synced_by_default

        filters = self.filters

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "title": title,
                "syncedByDefault": synced_by_default,
                "filters": filters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        title = d.pop("title")

        synced_by_default = d.pop("syncedByDefault")

        filters = cast(list[str], d.pop("filters"))

        recipe_group = cls(
            name=name,
            title=title,
            synced_by_default=synced_by_default,
            filters=filters,
        )

        recipe_group.additional_properties = d
        return recipe_group

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
