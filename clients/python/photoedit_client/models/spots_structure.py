from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.filter_parameter_type_0 import FilterParameterType0
    from ..models.filter_parameter_type_1 import FilterParameterType1
    from ..models.filter_parameter_type_2 import FilterParameterType2
    from ..models.filter_parameter_type_3 import FilterParameterType3
    from ..models.spots_structure_limits import SpotsStructureLimits


T = TypeVar("T", bound="SpotsStructure")


@_attrs_define
class SpotsStructure:
    """
    Attributes:
        kind (Literal['spots']):
        modes (list[str]):
        parameters (list[FilterParameterType0 | FilterParameterType1 | FilterParameterType2 | FilterParameterType3]): A
            spot's values, in the order of `heal(X Y RX RY DX DY …)`.
        limits (SpotsStructureLimits):
    """

    kind: Literal["spots"]
    modes: list[str]
    parameters: list[
        FilterParameterType0
        | FilterParameterType1
        | FilterParameterType2
        | FilterParameterType3
    ]
    limits: SpotsStructureLimits

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2

        kind = self.kind

        modes = self.modes

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

        limits = self.limits.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "modes": modes,
                "parameters": parameters,
                "limits": limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2
        from ..models.filter_parameter_type_3 import FilterParameterType3
        from ..models.spots_structure_limits import SpotsStructureLimits

        d = dict(src_dict)
        kind = cast(Literal["spots"], d.pop("kind"))
        if kind != "spots":
            raise ValueError(f"kind must match const 'spots', got '{kind}'")

        modes = cast(list[str], d.pop("modes"))

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

        limits = SpotsStructureLimits.from_dict(d.pop("limits"))

        spots_structure = cls(
            kind=kind,
            modes=modes,
            parameters=parameters,
            limits=limits,
        )

        return spots_structure
