from enum import StrEnum


class RenderUrlFit(StrEnum):
    FILL = "fill"
    FIT = "fit"

    def __str__(self) -> str:
        return str(self.value)
