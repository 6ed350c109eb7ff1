"""Contains all the data models used in inputs/outputs"""

from .adjustment_data import AdjustmentData
from .adjustment_data_data_encoding import AdjustmentDataDataEncoding
from .adjustment_data_in import AdjustmentDataIn
from .adjustment_data_in_data_encoding import AdjustmentDataInDataEncoding
from .album import Album
from .asset import Asset
from .asset_history_response_200 import AssetHistoryResponse200
from .asset_versions_response_200 import AssetVersionsResponse200
from .batch_status import BatchStatus
from .batch_status_jobs import BatchStatusJobs
from .batch_status_photos import BatchStatusPhotos
from .batch_status_state import BatchStatusState
from .capabilities import Capabilities
from .chain_edit import ChainEdit
from .change import Change
from .change_kind import ChangeKind
from .change_type import ChangeType
from .color_label import ColorLabel
from .corrections_structure import CorrectionsStructure
from .corrections_structure_limits import CorrectionsStructureLimits
from .corrections_structure_shapes_item import CorrectionsStructureShapesItem
from .corrections_structure_shapes_item_type import CorrectionsStructureShapesItemType
from .create_album_body import CreateAlbumBody
from .duplicate_request import DuplicateRequest
from .editing_input import EditingInput
from .editing_input_base_image import EditingInputBaseImage
from .editing_input_options import EditingInputOptions
from .editing_output import EditingOutput
from .editor_formats_item import EditorFormatsItem
from .export_job import ExportJob
from .export_job_failures_item import ExportJobFailuresItem
from .export_job_files_item import ExportJobFilesItem
from .export_job_settings import ExportJobSettings
from .export_job_state import ExportJobState
from .export_request import ExportRequest
from .export_request_settings import ExportRequestSettings
from .filter_ import Filter
from .filter_editor import FilterEditor
from .filter_editor_panel import FilterEditorPanel
from .filter_forms_item import FilterFormsItem
from .filter_parameter_type_0 import FilterParameterType0
from .filter_parameter_type_1 import FilterParameterType1
from .filter_parameter_type_2 import FilterParameterType2
from .filter_parameter_type_3 import FilterParameterType3
from .flag import Flag
from .health_response_200 import HealthResponse200
from .list_albums_response_200 import ListAlbumsResponse200
from .list_assets_response_200 import ListAssetsResponse200
from .list_assets_response_200_assets_item import ListAssetsResponse200AssetsItem
from .list_assets_thumbnail_fit import ListAssetsThumbnailFit
from .list_assets_thumbnail_format import ListAssetsThumbnailFormat
from .list_changes_response_200 import ListChangesResponse200
from .list_export_presets_response_200 import ListExportPresetsResponse200
from .list_export_presets_response_200_presets_item import (
    ListExportPresetsResponse200PresetsItem,
)
from .list_export_presets_response_200_presets_item_settings import (
    ListExportPresetsResponse200PresetsItemSettings,
)
from .list_filters_response_200 import ListFiltersResponse200
from .list_presets_response_200 import ListPresetsResponse200
from .list_recipe_groups_response_200 import ListRecipeGroupsResponse200
from .list_resources_response_200 import ListResourcesResponse200
from .list_snapshots_response_200 import ListSnapshotsResponse200
from .location import Location
from .nullable_color_label_type_1 import NullableColorLabelType1
from .nullable_color_label_type_2_type_1 import NullableColorLabelType2Type1
from .nullable_color_label_type_3_type_1 import NullableColorLabelType3Type1
from .preset import Preset
from .preview_reset import PreviewReset
from .problem import Problem
from .ready_response_200 import ReadyResponse200
from .recipe_edit import RecipeEdit
from .recipe_edit_recipe import RecipeEditRecipe
from .recipe_group import RecipeGroup
from .recipe_group_name import RecipeGroupName
from .render_depth import RenderDepth
from .render_fit import RenderFit
from .render_format import RenderFormat
from .render_metadata import RenderMetadata
from .render_profile import RenderProfile
from .render_url_depth import RenderUrlDepth
from .render_url_fit import RenderUrlFit
from .render_url_format import RenderUrlFormat
from .render_url_metadata import RenderUrlMetadata
from .render_url_profile import RenderUrlProfile
from .render_url_response_200 import RenderUrlResponse200
from .render_url_version import RenderUrlVersion
from .render_version import RenderVersion
from .resource import Resource
from .resource_type import ResourceType
from .revert_asset_body import RevertAssetBody
from .revision import Revision
from .save_preset_request import SavePresetRequest
from .saved_preset import SavedPreset
from .snapshot import Snapshot
from .snapshot_request import SnapshotRequest
from .spots_structure import SpotsStructure
from .spots_structure_limits import SpotsStructureLimits
from .sync_request import SyncRequest
from .sync_result import SyncResult
from .sync_result_synced_item import SyncResultSyncedItem
from .update_album_body import UpdateAlbumBody
from .update_asset_body import UpdateAssetBody
from .uploaded_asset import UploadedAsset
from .upright_adjustment import UprightAdjustment
from .upright_adjustment_mode import UprightAdjustmentMode
from .upright_adjustment_perspective_type_0 import UprightAdjustmentPerspectiveType0
from .upright_mode import UprightMode

__all__ = (
    "AdjustmentData",
    "AdjustmentDataDataEncoding",
    "AdjustmentDataIn",
    "AdjustmentDataInDataEncoding",
    "Album",
    "Asset",
    "AssetHistoryResponse200",
    "AssetVersionsResponse200",
    "BatchStatus",
    "BatchStatusJobs",
    "BatchStatusPhotos",
    "BatchStatusState",
    "Capabilities",
    "ChainEdit",
    "Change",
    "ChangeKind",
    "ChangeType",
    "ColorLabel",
    "CorrectionsStructure",
    "CorrectionsStructureLimits",
    "CorrectionsStructureShapesItem",
    "CorrectionsStructureShapesItemType",
    "CreateAlbumBody",
    "DuplicateRequest",
    "EditingInput",
    "EditingInputBaseImage",
    "EditingInputOptions",
    "EditingOutput",
    "EditorFormatsItem",
    "ExportJob",
    "ExportJobFailuresItem",
    "ExportJobFilesItem",
    "ExportJobSettings",
    "ExportJobState",
    "ExportRequest",
    "ExportRequestSettings",
    "Filter",
    "FilterEditor",
    "FilterEditorPanel",
    "FilterFormsItem",
    "FilterParameterType0",
    "FilterParameterType1",
    "FilterParameterType2",
    "FilterParameterType3",
    "Flag",
    "HealthResponse200",
    "ListAlbumsResponse200",
    "ListAssetsResponse200",
    "ListAssetsResponse200AssetsItem",
    "ListAssetsThumbnailFit",
    "ListAssetsThumbnailFormat",
    "ListChangesResponse200",
    "ListExportPresetsResponse200",
    "ListExportPresetsResponse200PresetsItem",
    "ListExportPresetsResponse200PresetsItemSettings",
    "ListFiltersResponse200",
    "ListPresetsResponse200",
    "ListRecipeGroupsResponse200",
    "ListResourcesResponse200",
    "ListSnapshotsResponse200",
    "Location",
    "NullableColorLabelType1",
    "NullableColorLabelType2Type1",
    "NullableColorLabelType3Type1",
    "Preset",
    "PreviewReset",
    "Problem",
    "ReadyResponse200",
    "RecipeEdit",
    "RecipeEditRecipe",
    "RecipeGroup",
    "RecipeGroupName",
    "RenderDepth",
    "RenderFit",
    "RenderFormat",
    "RenderMetadata",
    "RenderProfile",
    "RenderUrlDepth",
    "RenderUrlFit",
    "RenderUrlFormat",
    "RenderUrlMetadata",
    "RenderUrlProfile",
    "RenderUrlResponse200",
    "RenderUrlVersion",
    "RenderVersion",
    "Resource",
    "ResourceType",
    "RevertAssetBody",
    "Revision",
    "SavePresetRequest",
    "SavedPreset",
    "Snapshot",
    "SnapshotRequest",
    "SpotsStructure",
    "SpotsStructureLimits",
    "SyncRequest",
    "SyncResult",
    "SyncResultSyncedItem",
    "UpdateAlbumBody",
    "UpdateAssetBody",
    "UploadedAsset",
    "UprightAdjustment",
    "UprightAdjustmentMode",
    "UprightAdjustmentPerspectiveType0",
    "UprightMode",
)
