from enum import StrEnum


class CorrectionsStructureShapesItemType(StrEnum):
    BRUSH = "brush"
    LINEAR = "linear"
    RADIAL = "radial"

    def __str__(self) -> str:
        return str(self.value)
