from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.corrections_structure_shapes_item_type import (
    CorrectionsStructureShapesItemType,
)

if TYPE_CHECKING:
    from ..models.filter_parameter_type_0 import FilterParameterType0
    from ..models.filter_parameter_type_1 import FilterParameterType1
    from ..models.filter_parameter_type_2 import FilterParameterType2
    from ..models.filter_parameter_type_3 import FilterParameterType3


T = TypeVar("T", bound="CorrectionsStructureShapesItem")


@_attrs_define
class CorrectionsStructureShapesItem:
    """
    Attributes:
        type_ (CorrectionsStructureShapesItemType):
        summary (str):
        parameters (list[FilterParameterType0 | FilterParameterType1 | FilterParameterType2 | FilterParameterType3]):
    """

    type_: CorrectionsStructureShapesItemType
    summary: str
    parameters: list[
        FilterParameterType0
        | FilterParameterType1
        | FilterParameterType2
        | FilterParameterType3
    ]

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2

        type_ = self.type_.value

        summary = self.summary

        parameters = []
        for parameters_item_data in self.parameters:
            parameters_item: dict[str, Any]
            if (
                isinstance(parameters_item_data, FilterParameterType0)
                or isinstance(parameters_item_data, FilterParameterType1)
                or isinstance(parameters_item_data, FilterParameterType2)
            ):
                parameters_item = parameters_item_data.to_dict()
            else:
                parameters_item = parameters_item_data.to_dict()

            parameters.append(parameters_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "summary": summary,
                "parameters": parameters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2
        from ..models.filter_parameter_type_3 import FilterParameterType3

        d = dict(src_dict)
        type_ = CorrectionsStructureShapesItemType(d.pop("type"))

        summary = d.pop("summary")

        parameters = []
        _parameters = d.pop("parameters")
        for parameters_item_data in _parameters:

            def _parse_parameters_item(
                data: object,
            ) -> (
                FilterParameterType0
                | FilterParameterType1
                | FilterParameterType2
                | FilterParameterType3
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_filter_parameter_type_0 = (
                        FilterParameterType0.from_dict(data)
                    )

                    return componentsschemas_filter_parameter_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_filter_parameter_type_1 = (
                        FilterParameterType1.from_dict(data)
                    )

                    return componentsschemas_filter_parameter_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_filter_parameter_type_2 = (
                        FilterParameterType2.from_dict(data)
                    )

                    return componentsschemas_filter_parameter_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_filter_parameter_type_3 = (
                    FilterParameterType3.from_dict(data)
                )

                return componentsschemas_filter_parameter_type_3

            parameters_item = _parse_parameters_item(parameters_item_data)

            parameters.append(parameters_item)

        corrections_structure_shapes_item = cls(
            type_=type_,
            summary=summary,
            parameters=parameters,
        )

        return corrections_structure_shapes_item
