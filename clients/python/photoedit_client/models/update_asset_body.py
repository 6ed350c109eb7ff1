from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.nullable_color_label_type_1 import NullableColorLabelType1
from ..models.nullable_color_label_type_2_type_1 import NullableColorLabelType2Type1
from ..models.nullable_color_label_type_3_type_1 import NullableColorLabelType3Type1
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateAssetBody")


@_attrs_define
class UpdateAssetBody:
    """
    Attributes:
        favorite (bool | Unset):
        hidden (bool | Unset):
        rating (int | Unset): 1-5 stars, 0 unrated, -1 rejected.
        color_label (None | NullableColorLabelType1 | NullableColorLabelType2Type1 | NullableColorLabelType3Type1 |
            Unset):
        keywords (list[str] | Unset):
        title (None | str | Unset):
        caption (None | str | Unset):
    """

    favorite: bool | Unset = UNSET
    hidden: bool | Unset = UNSET
    rating: int | Unset = UNSET
    color_label: (
        None
        | NullableColorLabelType1
        | NullableColorLabelType2Type1
        | NullableColorLabelType3Type1
        | Unset
    ) = UNSET
    keywords: list[str] | Unset = UNSET
    title: None | str | Unset = UNSET
    caption: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        favorite = self.favorite

        hidden = self.hidden

        rating = self.rating

        color_label: None | str | Unset
        if isinstance(self.color_label, Unset):
            color_label = UNSET
        elif (
            isinstance(self.color_label, NullableColorLabelType1)
            or isinstance(self.color_label, NullableColorLabelType2Type1)
            or isinstance(self.color_label, NullableColorLabelType3Type1)
        ):
            color_label = self.color_label.value
        else:
            color_label = self.color_label

        keywords: list[str] | Unset = UNSET
        if not isinstance(self.keywords, Unset):
            keywords = self.keywords

        title: None | str | Unset
        if isinstance(self.title, Unset):
            title = UNSET
        else:
            title = self.title

        caption: None | str | Unset
        if isinstance(self.caption, Unset):
            caption = UNSET
        else:
            caption = self.caption

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if favorite is not UNSET:
            field_dict["favorite"] = favorite
        if hidden is not UNSET:
            field_dict["hidden"] = hidden
        if rating is not UNSET:
            field_dict["rating"] = rating
        if color_label is not UNSET:
            field_dict["colorLabel"] = color_label
        if keywords is not UNSET:
            field_dict["keywords"] = keywords
        if title is not UNSET:
            field_dict["title"] = title
        if caption is not UNSET:
            field_dict["caption"] = caption

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        favorite = d.pop("favorite", UNSET)

        hidden = d.pop("hidden", UNSET)

        rating = d.pop("rating", UNSET)

        def _parse_color_label(
            data: object,
        ) -> (
            None
            | NullableColorLabelType1
            | NullableColorLabelType2Type1
            | NullableColorLabelType3Type1
            | Unset
        ):
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_nullable_color_label_type_1 = NullableColorLabelType1(
                    data
                )

                return componentsschemas_nullable_color_label_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_nullable_color_label_type_2_type_1 = (
                    NullableColorLabelType2Type1(data)
                )

                return componentsschemas_nullable_color_label_type_2_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, str):
                    raise TypeError()
                componentsschemas_nullable_color_label_type_3_type_1 = (
                    NullableColorLabelType3Type1(data)
                )

                return componentsschemas_nullable_color_label_type_3_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(
                None
                | NullableColorLabelType1
                | NullableColorLabelType2Type1
                | NullableColorLabelType3Type1
                | Unset,
                data,
            )

        color_label = _parse_color_label(d.pop("colorLabel", UNSET))

        keywords = cast(list[str], d.pop("keywords", UNSET))

        def _parse_title(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        title = _parse_title(d.pop("title", UNSET))

        def _parse_caption(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        caption = _parse_caption(d.pop("caption", UNSET))

        update_asset_body = cls(
            favorite=favorite,
            hidden=hidden,
            rating=rating,
            color_label=color_label,
            keywords=keywords,
            title=title,
            caption=caption,
        )

        return update_asset_body
