from enum import StrEnum


class Flag(StrEnum):
    FALSE = "false"
    TRUE = "true"
    VALUE_2 = "1"
    VALUE_3 = "0"
    VALUE_4 = ""

    def __str__(self) -> str:
        return str(self.value)
