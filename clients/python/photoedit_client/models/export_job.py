from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.export_job_state import ExportJobState

if TYPE_CHECKING:
    from ..models.export_job_failures_item import ExportJobFailuresItem
    from ..models.export_job_files_item import ExportJobFilesItem
    from ..models.export_job_settings import ExportJobSettings


T = TypeVar("T", bound="ExportJob")


@_attrs_define
class ExportJob:
    """
    Attributes:
        id (str):
        state (ExportJobState):
        total (int):
        completed (int):
        created (datetime.datetime):
        finished (datetime.datetime | None):
        settings (ExportJobSettings):
        files (list[ExportJobFilesItem]):
        failures (list[ExportJobFailuresItem]):
        zip_ (str):
    """

    id: str
    state: ExportJobState
    total: int
    completed: int
    created: datetime.datetime
    finished: datetime.datetime | None
    settings: ExportJobSettings
    files: list[ExportJobFilesItem]
    failures: list[ExportJobFailuresItem]
    zip_: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        state = self.state.value

        total = self.total

        completed = self.completed

        created = self.created.isoformat()

        finished: None | str
        if isinstance(self.finished, datetime.datetime):
            finished = self.finished.isoformat()
        else:
            finished = self.finished

        settings = self.settings.to_dict()

        files = []
        for files_item_data in self.files:
            files_item = files_item_data.to_dict()
            files.append(files_item)

        failures = []
        for failures_item_data in self.failures:
            failures_item = failures_item_data.to_dict()
            failures.append(failures_item)

        zip_ = self.zip_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "state": state,
                "total": total,
                "completed": completed,
                "created": created,
                "finished": finished,
                "settings": settings,
                "files": files,
                "failures": failures,
                "zip": zip_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.export_job_failures_item import ExportJobFailuresItem
        from ..models.export_job_files_item import ExportJobFilesItem
        from ..models.export_job_settings import ExportJobSettings

        d = dict(src_dict)
        id = d.pop("id")

        state = ExportJobState(d.pop("state"))

        total = d.pop("total")

        completed = d.pop("completed")

        created = datetime.datetime.fromisoformat(d.pop("created"))

        def _parse_finished(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_type_0 = datetime.datetime.fromisoformat(data)

                return finished_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished = _parse_finished(d.pop("finished"))

        settings = ExportJobSettings.from_dict(d.pop("settings"))

        files = []
        _files = d.pop("files")
        for files_item_data in _files:
            files_item = ExportJobFilesItem.from_dict(files_item_data)

            files.append(files_item)

        failures = []
        _failures = d.pop("failures")
        for failures_item_data in _failures:
            failures_item = ExportJobFailuresItem.from_dict(failures_item_data)

            failures.append(failures_item)

        zip_ = d.pop("zip")

        export_job = cls(
            id=id,
            state=state,
            total=total,
            completed=completed,
            created=created,
            finished=finished,
            settings=settings,
            files=files,
            failures=failures,
            zip_=zip_,
        )

        export_job.additional_properties = d
        return export_job

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
