from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_request_settings import ExportRequestSettings


T = TypeVar("T", bound="ExportRequest")


@_attrs_define
class ExportRequest:
    """Photos by `ids` or by a `where` query (not both; at most 1000), exported with a `preset` and/or `settings` (the
    export settings by name: format, quality, long-edge, sharpen, metadata, watermark, name…; the same as the render's
    parameters).

        Attributes:
            ids (list[str] | Unset):
            where (str | Unset):
            preset (str | Unset):
            settings (ExportRequestSettings | Unset):
    """

    ids: list[str] | Unset = UNSET
    where: str | Unset = UNSET
    preset: str | Unset = UNSET
    settings: ExportRequestSettings | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        ids: list[str] | Unset = UNSET
        if not isinstance(self.ids, Unset):
            ids = self.ids

        where = self.where

        preset = self.preset

        settings: dict[str, Any] | Unset = UNSET
        if not isinstance(self.settings, Unset):
            settings = self.settings.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if ids is not UNSET:
            field_dict["ids"] = ids
        if where is not UNSET:
            field_dict["where"] = where
        if preset is not UNSET:
            field_dict["preset"] = preset
        if settings is not UNSET:
            field_dict["settings"] = settings

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.export_request_settings import ExportRequestSettings

        d = dict(src_dict)
        ids = cast(list[str], d.pop("ids", UNSET))

        where = d.pop("where", UNSET)

        preset = d.pop("preset", UNSET)

        _settings = d.pop("settings", UNSET)
        settings: ExportRequestSettings | Unset
        if isinstance(_settings, Unset):
            settings = UNSET
        else:
            settings = ExportRequestSettings.from_dict(_settings)

        export_request = cls(
            ids=ids,
            where=where,
            preset=preset,
            settings=settings,
        )

        return export_request
