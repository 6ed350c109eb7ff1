from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.corrections_structure import CorrectionsStructure
    from ..models.filter_editor import FilterEditor
    from ..models.filter_forms_item import FilterFormsItem
    from ..models.filter_parameter_type_0 import FilterParameterType0
    from ..models.filter_parameter_type_1 import FilterParameterType1
    from ..models.filter_parameter_type_2 import FilterParameterType2
    from ..models.filter_parameter_type_3 import FilterParameterType3
    from ..models.spots_structure import SpotsStructure


T = TypeVar("T", bound="Filter")


@_attrs_define
class Filter:
    """
    Attributes:
        id (str):
        version (int):
        stage (str): The pipeline stage it runs in (stages run in a fixed order).
        editor (FilterEditor): Where an editor shows the filter's controls: the panel photographers know it from
            (`basic`: white balance, tone and presence; `toneCurve`, `colour`, `detail`, `optics`, `effects`, `calibration`;
            `tools`: drawn on the photo, shown above the panels; `development`: camera RAW only; `output`), its title, its
            place in the order of panels, and a heading inside the panel when it has several parts.
        recorded (list[str]): Parameters the engine records, never the user (the LUT's SHA-256): a chain cannot set
            them; an editor shows no control for them.
        summary (str):
        colour_space (str):
        forms (list[FilterFormsItem]):
        parameters (list[FilterParameterType0 | FilterParameterType1 | FilterParameterType2 | FilterParameterType3]):
        structure (CorrectionsStructure | SpotsStructure | Unset): Only for the filters that hold lists instead of
            parameters (`local`: corrections through masks, `retouch`: spots; their `parameters` are empty): what an editor
            builds them from. Chain values use the grammar of docs/chain-grammar.md (`local=radial(0.5 0.5 0.2 0.3)
            exposure=+0.5`, `retouch=heal(X Y RX RY DX DY)`).
    """

    id: str
    version: int
    stage: str
    editor: FilterEditor
    recorded: list[str]
    summary: str
    colour_space: str
    forms: list[FilterFormsItem]
    parameters: list[
        FilterParameterType0
        | FilterParameterType1
        | FilterParameterType2
        | FilterParameterType3
    ]
    structure: CorrectionsStructure | SpotsStructure | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.corrections_structure import CorrectionsStructure
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2

        id = self.id

        version = self.version

        stage = self.stage

        editor = self.editor.to_dict()

        recorded = self.recorded

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

        structure: dict[str, Any] | Unset
        if isinstance(self.structure, Unset):
            structure = UNSET
        elif isinstance(self.structure, CorrectionsStructure):
            structure = self.structure.to_dict()
        else:
            structure = self.structure.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "version": version,
                "stage": stage,
                "editor": editor,
                "recorded": recorded,
                "summary": summary,
                "colourSpace": colour_space,
                "forms": forms,
                "parameters": parameters,
            }
        )
        if structure is not UNSET:
            field_dict["structure"] = structure

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.corrections_structure import CorrectionsStructure
        from ..models.filter_editor import FilterEditor
        from ..models.filter_forms_item import FilterFormsItem
        from ..models.filter_parameter_type_0 import FilterParameterType0
        from ..models.filter_parameter_type_1 import FilterParameterType1
        from ..models.filter_parameter_type_2 import FilterParameterType2
        from ..models.filter_parameter_type_3 import FilterParameterType3
        from ..models.spots_structure import SpotsStructure

        d = dict(src_dict)
        id = d.pop("id")

        version = d.pop("version")

        stage = d.pop("stage")

        editor = FilterEditor.from_dict(d.pop("editor"))

        recorded = cast(list[str], d.pop("recorded"))

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

        def _parse_structure(
            data: object,
        ) -> CorrectionsStructure | SpotsStructure | Unset:
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                structure_type_0 = CorrectionsStructure.from_dict(data)

                return structure_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            structure_type_1 = SpotsStructure.from_dict(data)

            return structure_type_1

        structure = _parse_structure(d.pop("structure", UNSET))

        filter_ = cls(
            id=id,
            version=version,
            stage=stage,
            editor=editor,
            recorded=recorded,
            summary=summary,
            colour_space=colour_space,
            forms=forms,
            parameters=parameters,
            structure=structure,
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
