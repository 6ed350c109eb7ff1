from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.color_label import ColorLabel
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.adjustment_data import AdjustmentData
    from ..models.location import Location


T = TypeVar("T", bound="ListAssetsResponse200AssetsItem")


@_attrs_define
class ListAssetsResponse200AssetsItem:
    """
    Attributes:
        id (str):
        original_filename (str):
        sha256 (str):
        file_size (int):
        format_ (str):
        uniform_type_identifier (str):
        media_type (str):
        pixel_width (int):
        pixel_height (int):
        original_pixel_width (int):
        original_pixel_height (int):
        orientation (int):
        import_date (datetime.datetime):
        revision (int):
        is_favorite (bool):
        is_hidden (bool):
        albums (list[str]):
        rating (int): 1-5 stars, 0 unrated, -1 rejected.
        keywords (list[str]): Sorted ignoring case.
        chain (None | str): The current recipe as a chain (null when unadjusted or a foreign format).
        etag (str): The photo's ETag: revision and metadata.
        copy_count (int): How many virtual copies (not deleted) a master has; 0 for a copy or a photo without copies.
            Listings only, outside the ETag.
        creation_date (str | Unset):
        location (Location | Unset):
        adjustment_data (AdjustmentData | Unset):
        deleted_date (datetime.datetime | Unset):
        color_label (ColorLabel | Unset):
        title (str | Unset):
        caption (str | Unset):
        master_identifier (str | Unset): A virtual copy's master (the photo whose original it shares); absent for a
            master.
        copy_name (str | Unset): A virtual copy's name ("Copy 1", "B&W"); absent for a master.
        thumbnail_url (str | Unset): With thumbnail=SIZE: the thumbnail's URL (signed: no token needed).
        thumbnail_url_expires (datetime.datetime | None | Unset): When the signed URL expires; null when it is not
            signed.
    """

    id: str
    original_filename: str
    sha256: str
    file_size: int
    format_: str
    uniform_type_identifier: str
    media_type: str
    pixel_width: int
    pixel_height: int
    original_pixel_width: int
    original_pixel_height: int
    orientation: int
    import_date: datetime.datetime
    revision: int
    is_favorite: bool
    is_hidden: bool
    albums: list[str]
    rating: int
    keywords: list[str]
    chain: None | str
    etag: str
    copy_count: int
    creation_date: str | Unset = UNSET
    location: Location | Unset = UNSET
    adjustment_data: AdjustmentData | Unset = UNSET
    deleted_date: datetime.datetime | Unset = UNSET
    color_label: ColorLabel | Unset = UNSET
    title: str | Unset = UNSET
    caption: str | Unset = UNSET
    master_identifier: str | Unset = UNSET
    copy_name: str | Unset = UNSET
    thumbnail_url: str | Unset = UNSET
    thumbnail_url_expires: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        original_filename = self.original_filename

        sha256 = self.sha256

        file_size = self.file_size

        format_ = self.format_

        uniform_type_identifier = self.uniform_type_identifier

        media_type = self.media_type

        pixel_width = self.pixel_width

        pixel_height = self.pixel_height

        original_pixel_width = self.original_pixel_width

        original_pixel_height = self.original_pixel_height

        orientation = self.orientation

        import_date = self.import_date.isoformat()

        revision = self.revision

        is_favorite = self.is_favorite

        is_hidden = self.is_hidden

        albums = self.albums

        rating = self.rating

        keywords = self.keywords

        chain: None | str
        chain = self.chain

        etag = self.etag

        copy_count = self.copy_count

        creation_date = self.creation_date

        location: dict[str, Any] | Unset = UNSET
        if not isinstance(self.location, Unset):
            location = self.location.to_dict()

        adjustment_data: dict[str, Any] | Unset = UNSET
        if not isinstance(self.adjustment_data, Unset):
            adjustment_data = self.adjustment_data.to_dict()

        deleted_date: str | Unset = UNSET
        if not isinstance(self.deleted_date, Unset):
            deleted_date = self.deleted_date.isoformat()

        color_label: str | Unset = UNSET
        if not isinstance(self.color_label, Unset):
            color_label = self.color_label.value

        title = self.title

        caption = self.caption

        master_identifier = self.master_identifier

        copy_name = self.copy_name

        thumbnail_url = self.thumbnail_url

        thumbnail_url_expires: None | str | Unset
        if isinstance(self.thumbnail_url_expires, Unset):
            thumbnail_url_expires = UNSET
        elif isinstance(self.thumbnail_url_expires, datetime.datetime):
            thumbnail_url_expires = self.thumbnail_url_expires.isoformat()
        else:
            thumbnail_url_expires = self.thumbnail_url_expires

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "originalFilename": original_filename,
                "sha256": sha256,
                "fileSize": file_size,
                "format": format_,
                "uniformTypeIdentifier": uniform_type_identifier,
                "mediaType": media_type,
                "pixelWidth": pixel_width,
                "pixelHeight": pixel_height,
                "originalPixelWidth": original_pixel_width,
                "originalPixelHeight": original_pixel_height,
                "orientation": orientation,
                "importDate": import_date,
                "revision": revision,
                "isFavorite": is_favorite,
                "isHidden": is_hidden,
                "albums": albums,
                "rating": rating,
                "keywords": keywords,
                "chain": chain,
                "etag": etag,
                "copyCount": copy_count,
            }
        )
        if creation_date is not UNSET:
            field_dict["creationDate"] = creation_date
        if location is not UNSET:
            field_dict["location"] = location
        if adjustment_data is not UNSET:
            field_dict["adjustmentData"] = adjustment_data
        if deleted_date is not UNSET:
            field_dict["deletedDate"] = deleted_date
        if color_label is not UNSET:
            field_dict["colorLabel"] = color_label
        if title is not UNSET:
            field_dict["title"] = title
        if caption is not UNSET:
            field_dict["caption"] = caption
        if master_identifier is not UNSET:
            field_dict["masterIdentifier"] = master_identifier
        if copy_name is not UNSET:
            field_dict["copyName"] = copy_name
        if thumbnail_url is not UNSET:
            field_dict["thumbnailURL"] = thumbnail_url
        if thumbnail_url_expires is not UNSET:
            field_dict["thumbnailURLExpires"] = thumbnail_url_expires

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.adjustment_data import AdjustmentData
        from ..models.location import Location

        d = dict(src_dict)
        id = d.pop("id")

        original_filename = d.pop("originalFilename")

        sha256 = d.pop("sha256")

        file_size = d.pop("fileSize")

        format_ = d.pop("format")

        uniform_type_identifier = d.pop("uniformTypeIdentifier")

        media_type = d.pop("mediaType")

        pixel_width = d.pop("pixelWidth")

        pixel_height = d.pop("pixelHeight")

        original_pixel_width = d.pop("originalPixelWidth")

        original_pixel_height = d.pop("originalPixelHeight")

        orientation = d.pop("orientation")

        import_date = datetime.datetime.fromisoformat(d.pop("importDate"))

        revision = d.pop("revision")

        is_favorite = d.pop("isFavorite")

        is_hidden = d.pop("isHidden")

        albums = cast(list[str], d.pop("albums"))

        rating = d.pop("rating")

        keywords = cast(list[str], d.pop("keywords"))

        def _parse_chain(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        chain = _parse_chain(d.pop("chain"))

        etag = d.pop("etag")

        copy_count = d.pop("copyCount")

        creation_date = d.pop("creationDate", UNSET)

        _location = d.pop("location", UNSET)
        location: Location | Unset
        if isinstance(_location, Unset):
            location = UNSET
        else:
            location = Location.from_dict(_location)

        _adjustment_data = d.pop("adjustmentData", UNSET)
        adjustment_data: AdjustmentData | Unset
        if isinstance(_adjustment_data, Unset):
            adjustment_data = UNSET
        else:
            adjustment_data = AdjustmentData.from_dict(_adjustment_data)

        _deleted_date = d.pop("deletedDate", UNSET)
        deleted_date: datetime.datetime | Unset
        if isinstance(_deleted_date, Unset):
            deleted_date = UNSET
        else:
            deleted_date = datetime.datetime.fromisoformat(_deleted_date)

        _color_label = d.pop("colorLabel", UNSET)
        color_label: ColorLabel | Unset
        if isinstance(_color_label, Unset):
            color_label = UNSET
        else:
            color_label = ColorLabel(_color_label)

        title = d.pop("title", UNSET)

        caption = d.pop("caption", UNSET)

        master_identifier = d.pop("masterIdentifier", UNSET)

        copy_name = d.pop("copyName", UNSET)

        thumbnail_url = d.pop("thumbnailURL", UNSET)

        def _parse_thumbnail_url_expires(
            data: object,
        ) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                thumbnail_url_expires_type_0 = datetime.datetime.fromisoformat(data)

                return thumbnail_url_expires_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        thumbnail_url_expires = _parse_thumbnail_url_expires(
            d.pop("thumbnailURLExpires", UNSET)
        )

        list_assets_response_200_assets_item = cls(
            id=id,
            original_filename=original_filename,
            sha256=sha256,
            file_size=file_size,
            format_=format_,
            uniform_type_identifier=uniform_type_identifier,
            media_type=media_type,
            pixel_width=pixel_width,
            pixel_height=pixel_height,
            original_pixel_width=original_pixel_width,
            original_pixel_height=original_pixel_height,
            orientation=orientation,
            import_date=import_date,
            revision=revision,
            is_favorite=is_favorite,
            is_hidden=is_hidden,
            albums=albums,
            rating=rating,
            keywords=keywords,
            chain=chain,
            etag=etag,
            copy_count=copy_count,
            creation_date=creation_date,
            location=location,
            adjustment_data=adjustment_data,
            deleted_date=deleted_date,
            color_label=color_label,
            title=title,
            caption=caption,
            master_identifier=master_identifier,
            copy_name=copy_name,
            thumbnail_url=thumbnail_url,
            thumbnail_url_expires=thumbnail_url_expires,
        )

        list_assets_response_200_assets_item.additional_properties = d
        return list_assets_response_200_assets_item

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
