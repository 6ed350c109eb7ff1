from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.adjustment_data_in_data_encoding import AdjustmentDataInDataEncoding
from ..types import UNSET, Unset

T = TypeVar("T", bound="AdjustmentDataIn")


@_attrs_define
class AdjustmentDataIn:
    """
    Attributes:
        format_identifier (str):
        format_version (str):
        data (str):
        data_encoding (AdjustmentDataInDataEncoding | Unset):  Default: AdjustmentDataInDataEncoding.BASE64.
    """

    format_identifier: str
    format_version: str
    data: str
    data_encoding: AdjustmentDataInDataEncoding | Unset = (
        AdjustmentDataInDataEncoding.BASE64
    )

    def to_dict(self) -> dict[str, Any]:
        format_identifier = self.format_identifier

        format_version = self.format_version

        data = self.data

        data_encoding: str | Unset = UNSET
        if not isinstance(self.data_encoding, Unset):
            data_encoding = self.data_encoding.value

        field_dict: dict[str, Any] = {}

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
        data_encoding: AdjustmentDataInDataEncoding | Unset
        if isinstance(_data_encoding, Unset):
            data_encoding = UNSET
        else:
            data_encoding = AdjustmentDataInDataEncoding(_data_encoding)

        adjustment_data_in = cls(
            format_identifier=format_identifier,
            format_version=format_version,
            data=data,
            data_encoding=data_encoding,
        )

        return adjustment_data_in
