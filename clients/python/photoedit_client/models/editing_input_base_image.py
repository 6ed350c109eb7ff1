from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.resource_type import ResourceType
from ..types import UNSET, Unset

T = TypeVar("T", bound="EditingInputBaseImage")


@_attrs_define
class EditingInputBaseImage:
    """
    Attributes:
        url (str):
        resource_type (ResourceType):
        orientation (int):
        uniform_type_identifier (str):
        media_type (str):
        signed_url (str | Unset):
        signed_url_expires (datetime.datetime | Unset):
    """

    url: str
    resource_type: ResourceType
    orientation: int
    uniform_type_identifier: str
    media_type: str
    signed_url: str | Unset = UNSET
    signed_url_expires: datetime.datetime | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url = self.url

        resource_type = self.resource_type.value

        orientation = self.orientation

        uniform_type_identifier = self.uniform_type_identifier

        media_type = self.media_type

        signed_url = self.signed_url

        signed_url_expires: str | Unset = UNSET
        if not isinstance(self.signed_url_expires, Unset):
            signed_url_expires = self.signed_url_expires.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "url": url,
                "resourceType": resource_type,
                "orientation": orientation,
                "uniformTypeIdentifier": uniform_type_identifier,
                "mediaType": media_type,
            }
        )
        if signed_url is not UNSET:
            field_dict["signedURL"] = signed_url
        if signed_url_expires is not UNSET:
            field_dict["signedURLExpires"] = signed_url_expires

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url = d.pop("url")

        resource_type = ResourceType(d.pop("resourceType"))

        orientation = d.pop("orientation")

        uniform_type_identifier = d.pop("uniformTypeIdentifier")

        media_type = d.pop("mediaType")

        signed_url = d.pop("signedURL", UNSET)

        _signed_url_expires = d.pop("signedURLExpires", UNSET)
        signed_url_expires: datetime.datetime | Unset
        if isinstance(_signed_url_expires, Unset):
            signed_url_expires = UNSET
        else:
            signed_url_expires = datetime.datetime.fromisoformat(_signed_url_expires)

        editing_input_base_image = cls(
            url=url,
            resource_type=resource_type,
            orientation=orientation,
            uniform_type_identifier=uniform_type_identifier,
            media_type=media_type,
            signed_url=signed_url,
            signed_url_expires=signed_url_expires,
        )

        editing_input_base_image.additional_properties = d
        return editing_input_base_image

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
