from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.upright_adjustment_mode import UprightAdjustmentMode

if TYPE_CHECKING:
    from ..models.upright_adjustment_perspective_type_0 import (
        UprightAdjustmentPerspectiveType0,
    )


T = TypeVar("T", bound="UprightAdjustment")


@_attrs_define
class UprightAdjustment:
    """What upright found (docs/chain-grammar.md, "upright").

    Attributes:
        mode (UprightAdjustmentMode):
        solved_as (None | str): the mode the solution is (auto falls back to vertical, then level); null without one
        vertical_lines (int): long lines within 30° of vertical
        horizontal_lines (int): long lines within 20° of horizontal
        used_lines (int): the lines the solution agrees with
        perspective (None | UprightAdjustmentPerspectiveType0): the perspective filter's values it writes; null without
            a solution
        residual (float | None): RMS angle in degrees of the used lines after the correction
        constrained_scale (float | None): the smallest scale (percent) leaving no empty corner, what
            upright=MODE:constrain sets when at most 150; null without a solution
        chain (str): the solution as chain text (perspective=V:H:R), empty without one
        problem (None | str): why there is no solution
        note (str): one line saying what was found, or why nothing
    """

    mode: UprightAdjustmentMode
    solved_as: None | str
    vertical_lines: int
    horizontal_lines: int
    used_lines: int
    perspective: None | UprightAdjustmentPerspectiveType0
    residual: float | None
    constrained_scale: float | None
    chain: str
    problem: None | str
    note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.upright_adjustment_perspective_type_0 import (
            UprightAdjustmentPerspectiveType0,
        )

        mode = self.mode.value

        solved_as: None | str
        solved_as = self.solved_as

        vertical_lines = self.vertical_lines

        horizontal_lines = self.horizontal_lines

        used_lines = self.used_lines

        perspective: dict[str, Any] | None
        if isinstance(self.perspective, UprightAdjustmentPerspectiveType0):
            perspective = self.perspective.to_dict()
        else:
            perspective = self.perspective

        residual: float | None
        residual = self.residual

        constrained_scale: float | None
        constrained_scale = self.constrained_scale

        chain = self.chain

        problem: None | str
        problem = self.problem

        note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "mode": mode,
                "solvedAs": solved_as,
                "verticalLines": vertical_lines,
                "horizontalLines": horizontal_lines,
                "usedLines": used_lines,
                "perspective": perspective,
                "residual": residual,
                "constrainedScale": constrained_scale,
                "chain": chain,
                "problem": problem,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.upright_adjustment_perspective_type_0 import (
            UprightAdjustmentPerspectiveType0,
        )

        d = dict(src_dict)
        mode = UprightAdjustmentMode(d.pop("mode"))

        def _parse_solved_as(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        solved_as = _parse_solved_as(d.pop("solvedAs"))

        vertical_lines = d.pop("verticalLines")

        horizontal_lines = d.pop("horizontalLines")

        used_lines = d.pop("usedLines")

        def _parse_perspective(
            data: object,
        ) -> None | UprightAdjustmentPerspectiveType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                perspective_type_0 = UprightAdjustmentPerspectiveType0.from_dict(data)

                return perspective_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UprightAdjustmentPerspectiveType0, data)

        perspective = _parse_perspective(d.pop("perspective"))

        def _parse_residual(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        residual = _parse_residual(d.pop("residual"))

        def _parse_constrained_scale(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        constrained_scale = _parse_constrained_scale(d.pop("constrainedScale"))

        chain = d.pop("chain")

        def _parse_problem(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        problem = _parse_problem(d.pop("problem"))

        note = d.pop("note")

        upright_adjustment = cls(
            mode=mode,
            solved_as=solved_as,
            vertical_lines=vertical_lines,
            horizontal_lines=horizontal_lines,
            used_lines=used_lines,
            perspective=perspective,
            residual=residual,
            constrained_scale=constrained_scale,
            chain=chain,
            problem=problem,
            note=note,
        )

        upright_adjustment.additional_properties = d
        return upright_adjustment

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
