from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.recipe_edit_recipe import RecipeEditRecipe


T = TypeVar("T", bound="RecipeEdit")


@_attrs_define
class RecipeEdit:
    """
    Attributes:
        recipe (RecipeEditRecipe): A whole recipe (docs/recipe-format.md).
    """

    recipe: RecipeEditRecipe

    def to_dict(self) -> dict[str, Any]:
        recipe = self.recipe.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "recipe": recipe,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.recipe_edit_recipe import RecipeEditRecipe

        d = dict(src_dict)
        recipe = RecipeEditRecipe.from_dict(d.pop("recipe"))

        recipe_edit = cls(
            recipe=recipe,
        )

        return recipe_edit
