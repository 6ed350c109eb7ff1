from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateAlbumBody")


@_attrs_define
class UpdateAlbumBody:
    """
    Attributes:
        title (str | Unset):
        add (list[str] | Unset):
        remove (list[str] | Unset):
    """

    title: str | Unset = UNSET
    add: list[str] | Unset = UNSET
    remove: list[str] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        add: list[str] | Unset = UNSET
        if not isinstance(self.add, Unset):
            add = self.add

        remove: list[str] | Unset = UNSET
        if not isinstance(self.remove, Unset):
            remove = self.remove

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if title is not UNSET:
            field_dict["title"] = title
        if add is not UNSET:
            field_dict["add"] = add
        if remove is not UNSET:
            field_dict["remove"] = remove

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title", UNSET)

        add = cast(list[str], d.pop("add", UNSET))

        remove = cast(list[str], d.pop("remove", UNSET))

        update_album_body = cls(
            title=title,
            add=add,
            remove=remove,
        )

        return update_album_body
