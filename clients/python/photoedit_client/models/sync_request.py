from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.recipe_group_name import RecipeGroupName
from ..types import UNSET, Unset

T = TypeVar("T", bound="SyncRequest")


@_attrs_define
class SyncRequest:
    """
    Attributes:
        targets (list[str]):
        only (list[RecipeGroupName] | Unset):
        except_ (list[RecipeGroupName] | Unset):
    """

    targets: list[str]
    only: list[RecipeGroupName] | Unset = UNSET
    except_: list[RecipeGroupName] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        targets = self.targets

        only: list[str] | Unset = UNSET
        if not isinstance(self.only, Unset):
            only = []
            for only_item_data in self.only:
                only_item = only_item_data.value
                only.append(only_item)

        except_: list[str] | Unset = UNSET
        if not isinstance(self.except_, Unset):
            except_ = []
            for except_item_data in self.except_:
                except_item = except_item_data.value
                except_.append(except_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "targets": targets,
            }
        )
        if only is not UNSET:
            field_dict["only"] = only
        if except_ is not UNSET:
            field_dict["except"] = except_

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        targets = cast(list[str], d.pop("targets"))

        _only = d.pop("only", UNSET)
        only: list[RecipeGroupName] | Unset = UNSET
        if _only is not UNSET:
            only = []
            for only_item_data in _only:
                only_item = RecipeGroupName(only_item_data)

                only.append(only_item)

        _except_ = d.pop("except", UNSET)
        except_: list[RecipeGroupName] | Unset = UNSET
        if _except_ is not UNSET:
            except_ = []
            for except_item_data in _except_:
                except_item = RecipeGroupName(except_item_data)

                except_.append(except_item)

        sync_request = cls(
            targets=targets,
            only=only,
            except_=except_,
        )

        return sync_request
