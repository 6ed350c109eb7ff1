from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="ChainEdit")


@_attrs_define
class ChainEdit:
    """
    Attributes:
        chain (str): e.g. exposure=+0.3,crop=16:9; empty only with a non-empty remove
        reset (bool | Unset): Start from no edits instead of the current recipe.
        remove (list[str] | Unset): Filters taken out of the recipe.
        from_raw (bool | None | Unset): Develop a RAW+JPEG pair's RAW (true) or its JPEG (false).
    """

    chain: str
    reset: bool | Unset = UNSET
    remove: list[str] | Unset = UNSET
    from_raw: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chain = self.chain

        reset = self.reset

        remove: list[str] | Unset = UNSET
        if not isinstance(self.remove, Unset):
            remove = self.remove

        from_raw: bool | None | Unset
        if isinstance(self.from_raw, Unset):
            from_raw = UNSET
        else:
            from_raw = self.from_raw

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "chain": chain,
            }
        )
        if reset is not UNSET:
            field_dict["reset"] = reset
        if remove is not UNSET:
            field_dict["remove"] = remove
        if from_raw is not UNSET:
            field_dict["fromRAW"] = from_raw

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        chain = d.pop("chain")

        reset = d.pop("reset", UNSET)

        remove = cast(list[str], d.pop("remove", UNSET))

        def _parse_from_raw(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        from_raw = _parse_from_raw(d.pop("fromRAW", UNSET))

        chain_edit = cls(
            chain=chain,
            reset=reset,
            remove=remove,
            from_raw=from_raw,
        )

        return chain_edit
