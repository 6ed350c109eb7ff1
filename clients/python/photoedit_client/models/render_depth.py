from enum import StrEnum


class RenderDepth(StrEnum):
    VALUE_0 = "8"
    VALUE_1 = "16"

    def __str__(self) -> str:
        return str(self.value)
