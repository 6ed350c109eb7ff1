from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.adjustment_data_data_encoding import AdjustmentDataDataEncoding
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdjustmentData")


@_attrs_define
class AdjustmentData:
    """
    Attributes:
        format_identifier (str):
        format_version (str):
        data (str): base64
        data_encoding (AdjustmentDataDataEncoding | Unset):
    """

    format_identifier: str
    format_version: str
    data: str
    data_encoding: AdjustmentDataDataEncoding | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        format_identifier = self.format_identifier

        format_version = self.format_version

        data = self.data

        data_encoding: str | Unset = UNSET
        if not isinstance(self.data_encoding, Unset):
            data_encoding = self.data_encoding.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "formatIdentifier": format_identifier,
                "formatVersion": format_version,
                "data": data,
            }
        )
        if data_encoding is not UNSET:
            field_dict["dataEncoding"] = data_encoding

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        format_identifier = d.pop("formatIdentifier")

        format_version = d.pop("formatVersion")

        data = d.pop("data")

        _data_encoding = d.pop("dataEncoding", UNSET)
        data_encoding: AdjustmentDataDataEncoding | Unset
        if isinstance(_data_encoding, Unset):
            data_encoding = UNSET
        else:
            data_encoding = AdjustmentDataDataEncoding(_data_encoding)

        adjustment_data = cls(
            format_identifier=format_identifier,
            format_version=format_version,
            data=data,
            data_encoding=data_encoding,
        )

        adjustment_data.additional_properties = d
        return adjustment_data

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
