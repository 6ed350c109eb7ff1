from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.recipe_group_name import RecipeGroupName
from ..types import UNSET, Unset

T = TypeVar("T", bound="SavePresetRequest")


@_attrs_define
class SavePresetRequest:
    """
    Attributes:
        name (str): The preset's name (letters, digits, '-', '_'; at most 64).
        from_ (str): The photo whose current edit is saved.
        groups (list[RecipeGroupName] | Unset): Default: all but geometry and local.
        amount (float | Unset): Scales every setting from its neutral value (Lightroom's Amount; 1: as it is).
    """

    name: str
    from_: str
    groups: list[RecipeGroupName] | Unset = UNSET
    amount: float | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        from_ = self.from_

        groups: list[str] | Unset = UNSET
        if not isinstance(self.groups, Unset):
            groups = []
            for groups_item_data in self.groups:
                groups_item = groups_item_data.value
                groups.append(groups_item)

        amount = self.amount

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "name": name,
                "from": from_,
            }
        )
        if groups is not UNSET:
            field_dict["groups"] = groups
        if amount is not UNSET:
            field_dict["amount"] = amount

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        name = d.pop("name")

        from_ = d.pop("from")

        _groups = d.pop("groups", UNSET)
        groups: list[RecipeGroupName] | Unset = UNSET
        if _groups is not UNSET:
            groups = []
            for groups_item_data in _groups:
                groups_item = RecipeGroupName(groups_item_data)

                groups.append(groups_item)

        amount = d.pop("amount", UNSET)

        save_preset_request = cls(
            name=name,
            from_=from_,
            groups=groups,
            amount=amount,
        )

        return save_preset_request
