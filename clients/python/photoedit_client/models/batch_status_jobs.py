from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BatchStatusJobs")


@_attrs_define
class BatchStatusJobs:
    """
    Attributes:
        total (int):
        queued (int):
        running (int):
        done (int):
        failed (int):
        cancelled (int):
    """

    total: int
    queued: int
    running: int
    done: int
    failed: int
    cancelled: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        queued = self.queued

        running = self.running

        done = self.done

        failed = self.failed

        cancelled = self.cancelled

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "total": total,
                "queued": queued,
                "running": running,
                "done": done,
                "failed": failed,
                "cancelled": cancelled,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        total = d.pop("total")

        queued = d.pop("queued")

        running = d.pop("running")

        done = d.pop("done")

        failed = d.pop("failed")

        cancelled = d.pop("cancelled")

        batch_status_jobs = cls(
            total=total,
            queued=queued,
            running=running,
            done=done,
            failed=failed,
            cancelled=cancelled,
        )

        batch_status_jobs.additional_properties = d
        return batch_status_jobs

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
