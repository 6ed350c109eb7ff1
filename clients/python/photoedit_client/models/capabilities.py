from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Capabilities")


@_attrs_define
class Capabilities:
    """
    Attributes:
        url_signing (bool): The server has signing keys: render-url and signed thumbnail URLs work.
        tokens (bool): Requests need an API token.
        max_upload_bytes (int):
        max_render_pixels (int):
    """

    url_signing: bool
    tokens: bool
    max_upload_bytes: int
    max_render_pixels: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        url_signing = self.url_signing

        tokens = self.tokens

        max_upload_bytes = self.max_upload_bytes

        max_render_pixels = self.max_render_pixels

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "urlSigning": url_signing,
                "tokens": tokens,
                "maxUploadBytes": max_upload_bytes,
                "maxRenderPixels": max_render_pixels,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        url_signing = d.pop("urlSigning")

        tokens = d.pop("tokens")

        max_upload_bytes = d.pop("maxUploadBytes")

        max_render_pixels = d.pop("maxRenderPixels")

        capabilities = cls(
            url_signing=url_signing,
            tokens=tokens,
            max_upload_bytes=max_upload_bytes,
            max_render_pixels=max_render_pixels,
        )

        capabilities.additional_properties = d
        return capabilities

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
