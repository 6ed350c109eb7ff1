from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.adjustment_data import AdjustmentData
    from ..models.editing_input_base_image import EditingInputBaseImage
    from ..models.location import Location


T = TypeVar("T", bound="EditingInput")


@_attrs_define
class EditingInput:
    """
    Attributes:
        asset_id (str):
        revision (int):
        etag (str): The revision form: the If-Match of the output (an edit conflicts with edits, not with metadata
            changes).
        adjustment_data (AdjustmentData | None):
        can_handle_adjustment_data (bool):
        base (str):
        base_image (EditingInputBaseImage):
        full_size_image_orientation (int):
        uniform_type_identifier (str):
        media_type (str):
        creation_date (None | str):
        location (Location | None):
    """

    asset_id: str
    revision: int
    etag: str
    adjustment_data: AdjustmentData | None
    can_handle_adjustment_data: bool
    base: str
    base_image: EditingInputBaseImage
    full_size_image_orientation: int
    uniform_type_identifier: str
    media_type: str
    creation_date: None | str
    location: Location | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.adjustment_data import AdjustmentData
        from ..models.location import Location

        asset_id = self.asset_id

        revision = self.revision

        etag = self.etag

        adjustment_data: dict[str, Any] | None
        if isinstance(self.adjustment_data, AdjustmentData):
            adjustment_data = self.adjustment_data.to_dict()
        else:
            adjustment_data = self.adjustment_data

        can_handle_adjustment_data = self.can_handle_adjustment_data

        base = self.base

        base_image = self.base_image.to_dict()

        full_size_image_orientation = self.full_size_image_orientation

        uniform_type_identifier = self.uniform_type_identifier

        media_type = self.media_type

        creation_date: None | str
        creation_date = self.creation_date

        location: dict[str, Any] | None
        if isinstance(self.location, Location):
            location = self.location.to_dict()
        else:
            location = self.location

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "assetId": asset_id,
                "revision": revision,
                "etag": etag,
                "adjustmentData": adjustment_data,
                "canHandleAdjustmentData": can_handle_adjustment_data,
                "base": base,
                "baseImage": base_image,
                "fullSizeImageOrientation": full_size_image_orientation,
                "uniformTypeIdentifier": uniform_type_identifier,
                "mediaType": media_type,
                "creationDate": creation_date,
                "location": location,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.adjustment_data import AdjustmentData
        from ..models.editing_input_base_image import EditingInputBaseImage
        from ..models.location import Location

        d = dict(src_dict)
        asset_id = d.pop("assetId")

        revision = d.pop("revision")

        etag = d.pop("etag")

        def _parse_adjustment_data(data: object) -> AdjustmentData | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                adjustment_data_type_1 = AdjustmentData.from_dict(data)

                return adjustment_data_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AdjustmentData | None, data)

        adjustment_data = _parse_adjustment_data(d.pop("adjustmentData"))

        can_handle_adjustment_data = d.pop("canHandleAdjustmentData")

        base = d.pop("base")

        base_image = EditingInputBaseImage.from_dict(d.pop("baseImage"))

        full_size_image_orientation = d.pop("fullSizeImageOrientation")

        uniform_type_identifier = d.pop("uniformTypeIdentifier")

        media_type = d.pop("mediaType")

        def _parse_creation_date(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        creation_date = _parse_creation_date(d.pop("creationDate"))

        def _parse_location(data: object) -> Location | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                location_type_1 = Location.from_dict(data)

                return location_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Location | None, data)

        location = _parse_location(d.pop("location"))

        editing_input = cls(
            asset_id=asset_id,
            revision=revision,
            etag=etag,
            adjustment_data=adjustment_data,
            can_handle_adjustment_data=can_handle_adjustment_data,
            base=base,
            base_image=base_image,
            full_size_image_orientation=full_size_image_orientation,
            uniform_type_identifier=uniform_type_identifier,
            media_type=media_type,
            creation_date=creation_date,
            location=location,
        )

        editing_input.additional_properties = d
        return editing_input

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
