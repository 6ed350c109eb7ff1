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
    from ..models.corrections_structure_limits import CorrectionsStructureLimits
    from ..models.corrections_structure_shapes_item import (
        CorrectionsStructureShapesItem,
    )
    from ..models.filter_parameter_type_0 import FilterParameterType0
    from ..models.filter_parameter_type_1 import FilterParameterType1
    from ..models.filter_parameter_type_2 import FilterParameterType2
    from ..models.filter_parameter_type_3 import FilterParameterType3


T = TypeVar("T", bound="CorrectionsStructure")


@_attrs_define
class CorrectionsStructure:
    """
    Attributes:
        kind (Literal['corrections']):
        amounts (list[FilterParameterType0 | FilterParameterType1 | FilterParameterType2 | FilterParameterType3]): The
            amounts a correction can set, in the order they apply (0 or left out does nothing).
        shapes (list[CorrectionsStructureShapesItem]): Each shape's values: positions are fractions of the upright,
            uncropped photo; `luminance` and `colour` are ranges of the photo's lightness (CIE L* / 100) and hue (CIE LCh),
            usually combined with a shape.
        modes (list[str]): How a shape after the first combines with the ones before it.
        limits (CorrectionsStructureLimits):
    """

    kind: Literal["corrections"]
    amounts: list[
        FilterParameterType0
        | FilterParameterType1
        | FilterParameterType2
        | FilterParameterType3
    ]
    shapes: list[CorrectionsStructureShapesItem]
    modes: list[str]
    limits: CorrectionsStructureLimits

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2

        kind = self.kind

        amounts = []
        for amounts_item_data in self.amounts:
            amounts_item: dict[str, Any]
            if (
                isinstance(amounts_item_data, FilterParameterType0)
                or isinstance(amounts_item_data, FilterParameterType1)
                or isinstance(amounts_item_data, FilterParameterType2)
            ):
                amounts_item = amounts_item_data.to_dict()
            else:
                amounts_item = amounts_item_data.to_dict()

            amounts.append(amounts_item)

        shapes = []
        for shapes_item_data in self.shapes:
            shapes_item = shapes_item_data.to_dict()
            shapes.append(shapes_item)

        modes = self.modes

        limits = self.limits.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "kind": kind,
                "amounts": amounts,
                "shapes": shapes,
                "modes": modes,
                "limits": limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.corrections_structure_limits import CorrectionsStructureLimits
        from ..models.corrections_structure_shapes_item import (
            CorrectionsStructureShapesItem,
        )
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2
        from ..models.filter_parameter_type_3 import FilterParameterType3

        d = dict(src_dict)
        kind = cast(Literal["corrections"], d.pop("kind"))
        if kind != "corrections":
            raise ValueError(f"kind must match const 'corrections', got '{kind}'")

        amounts = []
        _amounts = d.pop("amounts")
        for amounts_item_data in _amounts:

            def _parse_amounts_item(
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

            amounts_item = _parse_amounts_item(amounts_item_data)

            amounts.append(amounts_item)

        shapes = []
        _shapes = d.pop("shapes")
        for shapes_item_data in _shapes:
            shapes_item = CorrectionsStructureShapesItem.from_dict(shapes_item_data)

            shapes.append(shapes_item)

        modes = cast(list[str], d.pop("modes"))

        limits = CorrectionsStructureLimits.from_dict(d.pop("limits"))

        corrections_structure = cls(
            kind=kind,
            amounts=amounts,
            shapes=shapes,
            modes=modes,
            limits=limits,
        )

        return corrections_structure
