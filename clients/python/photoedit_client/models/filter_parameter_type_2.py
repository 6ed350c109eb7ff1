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

T = TypeVar("T", bound="FilterParameterType2")


@_attrs_define
class FilterParameterType2:
    """
    Attributes:
        name (str):
        type_ (Literal['text']):
        default (str):
        unit (str):
        description (str):
        summary (str):
        range_ (str):
        max_length (int): The longest value, in characters.
    """

    name: str
    type_: Literal["text"]
    default: str
    unit: str
    description: str
    summary: str
    range_: str
    max_length: int

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        default = self.default

        unit = self.unit

        description = self.description

        summary = self.summary

        range_ = self.range_

        max_length = self.max_length

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
                "maxLength": max_length,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = cast(Literal["text"], d.pop("type"))
        if type_ != "text":
            raise ValueError(f"type must match const 'text', got '{type_}'")

        default = d.pop("default")

        unit = d.pop("unit")

        description = d.pop("description")

        summary = d.pop("summary")

        range_ = d.pop("range")

        max_length = d.pop("maxLength")

        filter_parameter_type_2 = cls(
            name=name,
            type_=type_,
            default=default,
            unit=unit,
            description=description,
            summary=summary,
            range_=range_,
            max_length=max_length,
        )

        return filter_parameter_type_2
