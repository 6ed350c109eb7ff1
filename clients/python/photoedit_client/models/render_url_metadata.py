from enum import StrEnum


class RenderUrlMetadata(StrEnum):
    COPYRIGHT = "copyright"
    NONE = "none"
    NO_LOCATION = "no-location"

    def __str__(self) -> str:
        return str(self.value)
