from enum import StrEnum


class RenderUrlFormat(StrEnum):
    AVIF = "avif"
    JPEG = "jpeg"
    PNG = "png"
    WEBP = "webp"

    def __str__(self) -> str:
        return str(self.value)
