from enum import StrEnum


class RenderVersion(StrEnum):
    CURRENT = "current"
    UNADJUSTED = "unadjusted"

    def __str__(self) -> str:
        return str(self.value)
