from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Album")


@_attrs_define
class Album:
    """
    Attributes:
        id (str):
        title (str):
        created_at (datetime.datetime):
        assets (list[str]):
    """

    id: str
    title: str
    created_at: datetime.datetime
    assets: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        title = self.title

        created_at = self.created_at.isoformat()

        assets = self.assets

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "title": title,
                "createdAt": created_at,
                "assets": assets,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        title = d.pop("title")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        assets = cast(list[str], d.pop("assets"))

        album = cls(
            id=id,
            title=title,
            created_at=created_at,
            assets=assets,
        )

        album.additional_properties = d
        return album

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
