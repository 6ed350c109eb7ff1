from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.resource import Resource


T = TypeVar("T", bound="ListResourcesResponse200")


@_attrs_define
class ListResourcesResponse200:
    """
    Attributes:
        revision (int):
        resources (list[Resource]):
    """

    revision: int
    resources: list[Resource]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        revision = self.revision

        resources = []
        for resources_item_data in self.resources:
            resources_item = resources_item_data.to_dict()
            resources.append(resources_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "revision": revision,
                "resources": resources,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.resource import Resource

        d = dict(src_dict)
        revision = d.pop("revision")

        resources = []
        _resources = d.pop("resources")
        for resources_item_data in _resources:
            resources_item = Resource.from_dict(resources_item_data)

            resources.append(resources_item)

        list_resources_response_200 = cls(
            revision=revision,
            resources=resources,
        )

        list_resources_response_200.additional_properties = d
        return list_resources_response_200

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
