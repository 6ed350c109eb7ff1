from enum import StrEnum


class CorrectionsStructureShapesItemType(StrEnum):
    BRUSH = "brush"
    COLOUR = "colour"
    LINEAR = "linear"
    LUMINANCE = "luminance"
    RADIAL = "radial"

    def __str__(self) -> str:
        return str(self.value)
