from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="DuplicateRequest")


@_attrs_define
class DuplicateRequest:
    """
    Attributes:
        name (None | str | Unset): The copy's name (default "Copy N").
        fresh (bool | None | Unset): Start from the original, not from the current edit.
    """

    name: None | str | Unset = UNSET
    fresh: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        fresh: bool | None | Unset
        if isinstance(self.fresh, Unset):
            fresh = UNSET
        else:
            fresh = self.fresh

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if name is not UNSET:
            field_dict["name"] = name
        if fresh is not UNSET:
            field_dict["fresh"] = fresh

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_fresh(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        fresh = _parse_fresh(d.pop("fresh", UNSET))

        duplicate_request = cls(
            name=name,
            fresh=fresh,
        )

        return duplicate_request
