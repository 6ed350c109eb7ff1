from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UprightAdjustmentPerspectiveType0")


@_attrs_define
class UprightAdjustmentPerspectiveType0:
    """the perspective filter's values it writes; null without a solution

    Attributes:
        vertical (float):
        horizontal (float):
        rotate (float):
    """

    vertical: float
    horizontal: float
    rotate: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        vertical = self.vertical

        horizontal = self.horizontal

        rotate = self.rotate

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "vertical": vertical,
                "horizontal": horizontal,
                "rotate": rotate,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        vertical = d.pop("vertical")

        horizontal = d.pop("horizontal")

        rotate = d.pop("rotate")

        upright_adjustment_perspective_type_0 = cls(
            vertical=vertical,
            horizontal=horizontal,
            rotate=rotate,
        )

        upright_adjustment_perspective_type_0.additional_properties = d
        return upright_adjustment_perspective_type_0

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
