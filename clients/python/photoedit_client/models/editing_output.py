from __future__ import annotations

import json
from collections.abc import Mapping
from io import BytesIO
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from .. import types
from ..types import File

if TYPE_CHECKING:
    from ..models.adjustment_data_in import AdjustmentDataIn


T = TypeVar("T", bound="EditingOutput")


@_attrs_define
class EditingOutput:
    """
    Attributes:
        adjustment_data (AdjustmentDataIn):
        base (str): The editing input's base (its baseImage.name).
        render (File): The editor's render of the base with its adjustments (JPEG).
    """

    adjustment_data: AdjustmentDataIn
    base: str
    render: File
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        adjustment_data = self.adjustment_data.to_dict()

        base = self.base

        render = self.render.to_tuple()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "adjustmentData": adjustment_data,
                "base": base,
                "render": render,
            }
        )

        return field_dict

    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(
            (
                "adjustmentData",
                (
                    None,
                    json.dumps(self.adjustment_data.to_dict()).encode(),
                    "application/json",
                ),
            )
        )

        files.append(("base", (None, str(self.base).encode(), "text/plain")))

        files.append(("render", self.render.to_tuple()))

        for prop_name, prop in self.additional_properties.items():
            files.append((prop_name, (None, str(prop).encode(), "text/plain")))

        return files

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.adjustment_data_in import AdjustmentDataIn

        d = dict(src_dict)
        adjustment_data = AdjustmentDataIn.from_dict(d.pop("adjustmentData"))

        base = d.pop("base")

        render = File(payload=BytesIO(d.pop("render")))

        editing_output = cls(
            adjustment_data=adjustment_data,
            base=base,
            render=render,
        )

        editing_output.additional_properties = d
        return editing_output

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
