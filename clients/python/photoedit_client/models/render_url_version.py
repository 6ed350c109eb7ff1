from enum import StrEnum


class RenderUrlVersion(StrEnum):
    CURRENT = "current"
    UNADJUSTED = "unadjusted"

    def __str__(self) -> str:
        return str(self.value)
