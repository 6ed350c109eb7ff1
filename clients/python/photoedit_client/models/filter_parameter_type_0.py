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

T = TypeVar("T", bound="FilterParameterType0")


@_attrs_define
class FilterParameterType0:
    """
    Attributes:
        name (str):
        type_ (Literal['number']):
        default (float):
        unit (str): EV, °, px, %, mired … or empty.
        description (str):
        summary (str):
        range_ (str):
        min_ (float): The smallest value (inclusive).
        max_ (float): The largest value (inclusive).
        step (float | None): Values must be multiples of it; null: any value in min…max.
    """

    name: str
    type_: Literal["number"]
    default: float
    unit: str
    description: str
    summary: str
    range_: str
    min_: float
    max_: float
    step: float | None

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        type_ = self.type_

        default = self.default

        unit = self.unit

        description = self.description

        summary = self.summary

        range_ = self.range_

        min_ = self.min_

        max_ = self.max_

        step: float | None
        step = self.step

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
                "min": min_,
                "max": max_,
                "step": step,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        type_ = cast(Literal["number"], d.pop("type"))
        if type_ != "number":
            raise ValueError(f"type must match const 'number', got '{type_}'")

        default = d.pop("default")

        unit = d.pop("unit")

        description = d.pop("description")

        summary = d.pop("summary")

        range_ = d.pop("range")

        min_ = d.pop("min")

        max_ = d.pop("max")

        def _parse_step(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        step = _parse_step(d.pop("step"))

        filter_parameter_type_0 = cls(
            name=name,
            type_=type_,
            default=default,
            unit=unit,
            description=description,
            summary=summary,
            range_=range_,
            min_=min_,
            max_=max_,
            step=step,
        )

        return filter_parameter_type_0
