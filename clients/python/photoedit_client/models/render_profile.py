from enum import StrEnum


class RenderProfile(StrEnum):
    ADOBE_RGB = "adobe-rgb"
    DISPLAY_P3 = "display-p3"
    SRGB = "srgb"

    def __str__(self) -> str:
        return str(self.value)
