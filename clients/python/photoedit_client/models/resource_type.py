from enum import StrEnum


class ResourceType(StrEnum):
    ADJUSTMENTBASEPHOTO = "adjustmentBasePhoto"
    ADJUSTMENTDATA = "adjustmentData"
    ALTERNATEPHOTO = "alternatePhoto"
    FULLSIZEPHOTO = "fullSizePhoto"
    PHOTO = "photo"

    def __str__(self) -> str:
        return str(self.value)
