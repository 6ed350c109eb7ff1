from enum import StrEnum


class AdjustmentDataDataEncoding(StrEnum):
    BASE64 = "base64"

    def __str__(self) -> str:
        return str(self.value)
