from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.resource_type import ResourceType

T = TypeVar("T", bound="Resource")


@_attrs_define
class Resource:
    """
    Attributes:
        type_ (ResourceType):
        original_filename (str):
        uniform_type_identifier (str):
        media_type (str):
        file_size (int):
        etag (str):
        url (str):
    """

    type_: ResourceType
    original_filename: str
    uniform_type_identifier: str
    media_type: str
    file_size: int
    etag: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        original_filename = self.original_filename

        uniform_type_identifier = self.uniform_type_identifier

        media_type = self.media_type

        file_size = self.file_size

        etag = self.etag

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "originalFilename": original_filename,
                "uniformTypeIdentifier": uniform_type_identifier,
                "mediaType": media_type,
                "fileSize": file_size,
                "etag": etag,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = ResourceType(d.pop("type"))

        original_filename = d.pop("originalFilename")

        uniform_type_identifier = d.pop("uniformTypeIdentifier")

        media_type = d.pop("mediaType")

        file_size = d.pop("fileSize")

        etag = d.pop("etag")

        url = d.pop("url")

        resource = cls(
            type_=type_,
            original_filename=original_filename,
            uniform_type_identifier=uniform_type_identifier,
            media_type=media_type,
            file_size=file_size,
            etag=etag,
            url=url,
        )

        resource.additional_properties = d
        return resource

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
