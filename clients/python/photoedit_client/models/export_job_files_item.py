from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ExportJobFilesItem")


@_attrs_define
class ExportJobFilesItem:
    """
    Attributes:
        name (str):
        asset (str):
        bytes_ (int):
        width (int):
        height (int):
        url (str):
    """

    name: str
    asset: str
    bytes_: int
    width: int
    height: int
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        asset = self.asset

        bytes_ = self.bytes_

        width = self.width

        height = self.height

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "asset": asset,
                "bytes": bytes_,
                "width": width,
                "height": height,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        asset = d.pop("asset")

        bytes_ = d.pop("bytes")

        width = d.pop("width")

        height = d.pop("height")

        url = d.pop("url")

        export_job_files_item = cls(
            name=name,
            asset=asset,
            bytes_=bytes_,
            width=width,
            height=height,
            url=url,
        )

        export_job_files_item.additional_properties = d
        return export_job_files_item

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
