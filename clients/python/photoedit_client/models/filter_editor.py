from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.filter_editor_panel import FilterEditorPanel
from ..types import UNSET, Unset

T = TypeVar("T", bound="FilterEditor")


@_attrs_define
class FilterEditor:
    """Where an editor shows the filter's controls: the panel photographers know it from (`basic`: white balance, tone and
    presence; `toneCurve`, `colour`, `detail`, `optics`, `effects`, `calibration`; `tools`: drawn on the photo, shown
    above the panels; `development`: camera RAW only; `output`), its title, its place in the order of panels, and a
    heading inside the panel when it has several parts.

        Attributes:
            panel (FilterEditorPanel):
            title (str):
            position (int):
            section (str | Unset):
    """

    panel: FilterEditorPanel
    title: str
    position: int
    section: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        panel = self.panel.value

        title = self.title

        position = self.position

        section = self.section

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "panel": panel,
                "title": title,
                "position": position,
            }
        )
        if section is not UNSET:
            field_dict["section"] = section

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        panel = FilterEditorPanel(d.pop("panel"))

        title = d.pop("title")

        position = d.pop("position")

        section = d.pop("section", UNSET)

        filter_editor = cls(
            panel=panel,
            title=title,
            position=position,
            section=section,
        )

        return filter_editor
