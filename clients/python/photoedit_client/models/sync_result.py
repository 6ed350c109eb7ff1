from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.sync_result_synced_item import SyncResultSyncedItem


T = TypeVar("T", bound="SyncResult")


@_attrs_define
class SyncResult:
    """
    Attributes:
        groups (list[str]):
        synced (list[SyncResultSyncedItem]):
    """

    groups: list[str]
    synced: list[SyncResultSyncedItem]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        groups = self.groups

        synced = []
        for synced_item_data in self.synced:
            synced_item = synced_item_data.to_dict()
            synced.append(synced_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "groups": groups,
                "synced": synced,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.sync_result_synced_item import SyncResultSyncedItem

        d = dict(src_dict)
        groups = cast(list[str], d.pop("groups"))

        synced = []
        _synced = d.pop("synced")
        for synced_item_data in _synced:
            synced_item = SyncResultSyncedItem.from_dict(synced_item_data)

            synced.append(synced_item)

        sync_result = cls(
            groups=groups,
            synced=synced,
        )

        sync_result.additional_properties = d
        return sync_result

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
