from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.change_kind import ChangeKind
from ..models.change_type import ChangeType

T = TypeVar("T", bound="Change")


@_attrs_define
class Change:
    """
    Attributes:
        seq (int):
        time (datetime.datetime):
        kind (ChangeKind):
        type_ (ChangeType):
        id (str):
        changes (list[str]):
    """

    seq: int
    time: datetime.datetime
    kind: ChangeKind
    type_: ChangeType
    id: str
    changes: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seq = self.seq

        time = self.time.isoformat()

        kind = self.kind.value

        type_ = self.type_.value

        id = self.id

        changes = self.changes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seq": seq,
                "time": time,
                "kind": kind,
                "type": type_,
                "id": id,
                "changes": changes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        seq = d.pop("seq")

        time = datetime.datetime.fromisoformat(d.pop("time"))

        kind = ChangeKind(d.pop("kind"))

        type_ = ChangeType(d.pop("type"))

        id = d.pop("id")

        changes = cast(list[str], d.pop("changes"))

        change = cls(
            seq=seq,
            time=time,
            kind=kind,
            type_=type_,
            id=id,
            changes=changes,
        )

        change.additional_properties = d
        return change

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
