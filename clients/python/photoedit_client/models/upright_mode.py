from enum import StrEnum


class UprightMode(StrEnum):
    AUTO = "auto"
    FULL = "full"
    LEVEL = "level"
    VERTICAL = "vertical"

    def __str__(self) -> str:
        return str(self.value)
