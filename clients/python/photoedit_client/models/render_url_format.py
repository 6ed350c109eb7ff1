from enum import StrEnum


class RenderUrlFormat(StrEnum):
    AVIF = "avif"
    HEIC = "heic"
    JPEG = "jpeg"
    JXL = "jxl"
    PNG = "png"
    TIFF = "tiff"
    WEBP = "webp"

    def __str__(self) -> str:
        return str(self.value)
