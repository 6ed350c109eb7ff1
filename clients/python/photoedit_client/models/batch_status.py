from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.batch_status_state import BatchStatusState

if TYPE_CHECKING:
    from ..models.batch_status_jobs import BatchStatusJobs
    from ..models.batch_status_photos import BatchStatusPhotos


T = TypeVar("T", bound="BatchStatus")


@_attrs_define
class BatchStatus:
    """
    Attributes:
        batch (str):
        state (BatchStatusState):
        jobs (BatchStatusJobs):
        photos (BatchStatusPhotos):
    """

    batch: str
    state: BatchStatusState
    jobs: BatchStatusJobs
    photos: BatchStatusPhotos
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        batch = self.batch

        state = self.state.value

        jobs = self.jobs.to_dict()

        photos = self.photos.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "batch": batch,
                "state": state,
                "jobs": jobs,
                "photos": photos,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.batch_status_jobs import BatchStatusJobs
        from ..models.batch_status_photos import BatchStatusPhotos

        d = dict(src_dict)
        batch = d.pop("batch")

        state = BatchStatusState(d.pop("state"))

        jobs = BatchStatusJobs.from_dict(d.pop("jobs"))

        photos = BatchStatusPhotos.from_dict(d.pop("photos"))

        batch_status = cls(
            batch=batch,
            state=state,
            jobs=jobs,
            photos=photos,
        )

        batch_status.additional_properties = d
        return batch_status

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
