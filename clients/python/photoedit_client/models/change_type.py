from enum import StrEnum


class ChangeType(StrEnum):
    ALBUM = "album"
    ASSET = "asset"

    def __str__(self) -> str:
        return str(self.value)
