from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.editor_formats_item import EditorFormatsItem


T = TypeVar("T", bound="EditingInputOptions")


@_attrs_define
class EditingInputOptions:
    """
    Attributes:
        formats (list[EditorFormatsItem] | Unset):
        start_from_original (bool | Unset): Edit from the original, dropping the stored adjustments.
        from_raw (bool | None | Unset): A RAW+JPEG pair: develop the RAW (true) or edit the JPEG (false).
    """

    formats: list[EditorFormatsItem] | Unset = UNSET
    start_from_original: bool | Unset = UNSET
    from_raw: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        formats: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.formats, Unset):
            formats = []
            for componentsschemas_editor_formats_item_data in self.formats:
                componentsschemas_editor_formats_item = (
                    componentsschemas_editor_formats_item_data.to_dict()
                )
                formats.append(componentsschemas_editor_formats_item)

        start_from_original = self.start_from_original

        from_raw: bool | None | Unset
        if isinstance(self.from_raw, Unset):
            from_raw = UNSET
        else:
            from_raw = self.from_raw

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if formats is not UNSET:
            field_dict["formats"] = formats
        if start_from_original is not UNSET:
            field_dict["startFromOriginal"] = start_from_original
        if from_raw is not UNSET:
            field_dict["fromRAW"] = from_raw

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.editor_formats_item import EditorFormatsItem

        d = dict(src_dict)
        _formats = d.pop("formats", UNSET)
        formats: list[EditorFormatsItem] | Unset = UNSET
        if _formats is not UNSET:
            formats = []
            for componentsschemas_editor_formats_item_data in _formats:
                componentsschemas_editor_formats_item = EditorFormatsItem.from_dict(
                    componentsschemas_editor_formats_item_data
                )

                formats.append(componentsschemas_editor_formats_item)

        start_from_original = d.pop("startFromOriginal", UNSET)

        def _parse_from_raw(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        from_raw = _parse_from_raw(d.pop("fromRAW", UNSET))

        editing_input_options = cls(
            formats=formats,
            start_from_original=start_from_original,
            from_raw=from_raw,
        )

        return editing_input_options
