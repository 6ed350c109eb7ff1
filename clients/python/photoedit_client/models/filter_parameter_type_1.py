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

T = TypeVar("T", bound="FilterParameterType1")


@_attrs_define
class FilterParameterType1:
    """
    Attributes:
        name (str):
        type_ (Literal['choice']):
        default (str):
        unit (str):
        description (str):
        summary (str):
        range_ (str):
        choices (list[str]):
    """

    name: str
    type_: Literal["choice"]
    default: str
    unit: str
    description: str
    summary: str
    range_: str
    choices: list[str]

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        default = self.default

        unit = self.unit

        description = self.description

        summary = self.summary

        range_ = self.range_

        choices = self.choices

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
                "choices": choices,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = cast(Literal["choice"], d.pop("type"))
        if type_ != "choice":
            raise ValueError(f"type must match const 'choice', got '{type_}'")

        default = d.pop("default")

        unit = d.pop("unit")

        description = d.pop("description")

        summary = d.pop("summary")

        range_ = d.pop("range")

        choices = cast(list[str], d.pop("choices"))

        filter_parameter_type_1 = cls(
            name=name,
            type_=type_,
            default=default,
            unit=unit,
            description=description,
            summary=summary,
            range_=range_,
            choices=choices,
        )

        return filter_parameter_type_1
