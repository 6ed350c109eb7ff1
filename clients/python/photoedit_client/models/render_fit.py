from enum import StrEnum


class RenderFit(StrEnum):
    FILL = "fill"
    FIT = "fit"

    def __str__(self) -> str:
        return str(self.value)
