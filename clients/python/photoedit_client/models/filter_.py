from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.filter_forms_item import FilterFormsItem
    from ..models.filter_parameter_type_0 import FilterParameterType0
    from ..models.filter_parameter_type_1 import FilterParameterType1
    from ..models.filter_parameter_type_2 import FilterParameterType2
    from ..models.filter_parameter_type_3 import FilterParameterType3


T = TypeVar("T", bound="Filter")


@_attrs_define
class Filter:
    """
    Attributes:
        id (str):
        version (int):
        stage (str):
        summary (str):
        colour_space (str):
        forms (list[FilterFormsItem]):
        parameters (list[FilterParameterType0 | FilterParameterType1 | FilterParameterType2 | FilterParameterType3]):
    """

    id: str
    version: int
    stage: str
    summary: str
    colour_space: str
    forms: list[FilterFormsItem]
    parameters: list[
        FilterParameterType0
        | FilterParameterType1
        | FilterParameterType2
        | FilterParameterType3
    ]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2

        id = self.id

        version = self.version

        stage = self.stage

        summary = self.summary

        colour_space = self.colour_space

        forms = []
        for forms_item_data in self.forms:
            forms_item = forms_item_data.to_dict()
            forms.append(forms_item)

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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "version": version,
                "stage": stage,
                "summary": summary,
                "colourSpace": colour_space,
                "forms": forms,
                "parameters": parameters,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.filter_forms_item import FilterFormsItem
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2
        from ..models.filter_parameter_type_3 import FilterParameterType3

        d = dict(src_dict)
        id = d.pop("id")

        version = d.pop("version")

        stage = d.pop("stage")

        summary = d.pop("summary")

        colour_space = d.pop("colourSpace")

        forms = []
        _forms = d.pop("forms")
        for forms_item_data in _forms:
            forms_item = FilterFormsItem.from_dict(forms_item_data)

            forms.append(forms_item)

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

        filter_ = cls(
            id=id,
            version=version,
            stage=stage,
            summary=summary,
            colour_space=colour_space,
            forms=forms,
            parameters=parameters,
        )

        filter_.additional_properties = d
        return filter_

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
