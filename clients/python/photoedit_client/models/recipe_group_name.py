from enum import StrEnum


class RecipeGroupName(StrEnum):
    COLOR = "color"
    COLOUR = "colour"
    DETAIL = "detail"
    EFFECTS = "effects"
    GEOMETRY = "geometry"
    LOCAL = "local"
    OPTICS = "optics"
    OUTPUT = "output"
    RAW = "raw"
    TONE = "tone"
    WB = "wb"

    def __str__(self) -> str:
        return str(self.value)
