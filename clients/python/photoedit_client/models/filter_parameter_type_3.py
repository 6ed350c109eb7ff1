from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="FilterParameterType3")


@_attrs_define
class FilterParameterType3:
    """
    Attributes:
        name (str):
        type_ (Literal['bool']):
        default (bool):
        unit (str):
        description (str):
        summary (str):
        range_ (str):
    """

    name: str
    type_: Literal["bool"]
    default: bool
    unit: str
    description: str
    summary: str
    range_: str

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        default = self.default

        unit = self.unit

        description = self.description

        summary = self.summary

        range_ = self.range_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "type": type_,
                "default": default,
                "unit": unit,
                "description": description,
                "summary": summary,
                "range": range_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = cast(Literal["bool"], d.pop("type"))
        if type_ != "bool":
            raise ValueError(f"type must match const 'bool', got '{type_}'")

        default = d.pop("default")

        unit = d.pop("unit")

        description = d.pop("description")

        summary = d.pop("summary")

        range_ = d.pop("range")

        filter_parameter_type_3 = cls(
            name=name,
            type_=type_,
            default=default,
            unit=unit,
            description=description,
            summary=summary,
            range_=range_,
        )

        return filter_parameter_type_3
