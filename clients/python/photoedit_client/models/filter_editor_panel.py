from enum import StrEnum


class FilterEditorPanel(StrEnum):
    BASIC = "basic"
    CALIBRATION = "calibration"
    COLOUR = "colour"
    DETAIL = "detail"
    DEVELOPMENT = "development"
    EFFECTS = "effects"
    OPTICS = "optics"
    OUTPUT = "output"
    TONECURVE = "toneCurve"
    TOOLS = "tools"

    def __str__(self) -> str:
        return str(self.value)
