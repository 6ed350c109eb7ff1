import Foundation

/// The one place services are built: each from the per-concern parts it
/// uses (the catalog, the files, the renderer, the filter registry, the
/// commit's hooks, the darktable setting: LibraryParts.swift) and the
/// services it declares (its stored properties, passed in at `init`), so a
/// service reaches a part or another service only through what it was
/// given. Building one costs a few references, so they are made per call.
///
/// The graph has no cycles (`ServiceDependencyTests` reads it from the
/// services' declarations and fails on a cycle or an undeclared service):
///
///     Queries   Feed   UploadedPresets          (no service)
///     Committing      → Previews (a lower part, not a service)
///     Editing         → Queries, Committing
///     Rendering       → Queries, Editing
///     Importing       → Queries, Editing, Committing
///     Versions        → Queries, Editing, Committing, UploadedPresets
///     Exporting       → Queries
///     Maintenance     → Committing, Previews
///
/// Needs several services share sit below them all: catalog access
/// (`CatalogUser`), rows into models (`CatalogModels`), the files and their previews
/// (`LibraryFiles`, `Previews`), what a file is (`Importer`), staging
/// (Committing's).
extension PhotoLibrary {
    var previews: Previews {
        Previews(catalogPart: parts.catalogPart, filesPart: parts.filesPart, renderPart: parts.renderPart, registry: parts.registry)
    }
    var queries: Queries { Queries(catalogPart: parts.catalogPart, filesPart: parts.filesPart, registry: parts.registry) }
    var feed: Feed { Feed(catalogPart: parts.catalogPart, filesPart: parts.filesPart) }
    var uploadedPresets: UploadedPresets {
        UploadedPresets(catalogPart: parts.catalogPart, filesPart: parts.filesPart, registry: parts.registry)
    }
    var committing: Committing {
        Committing(catalogPart: parts.catalogPart, filesPart: parts.filesPart, registry: parts.registry, hooks: parts.commitHooks,
                   previews: previews)
    }
    var editing: Editing {
        Editing(catalogPart: parts.catalogPart, filesPart: parts.filesPart, renderPart: parts.renderPart, registry: parts.registry,
                queries: queries, committing: committing)
    }
    var rendering: Rendering {
        Rendering(catalogPart: parts.catalogPart, filesPart: parts.filesPart, renderPart: parts.renderPart, registry: parts.registry,
                  queries: queries, editing: editing)
    }
    var importing: Importing {
        Importing(catalogPart: parts.catalogPart, filesPart: parts.filesPart, registry: parts.registry, darktable: parts.darktable,
                  queries: queries, editing: editing, committing: committing)
    }
    var versions: Versions {
        Versions(catalogPart: parts.catalogPart, filesPart: parts.filesPart, registry: parts.registry,
                 queries: queries, editing: editing, committing: committing, uploadedPresets: uploadedPresets)
    }
    var exporting: Exporting {
        Exporting(catalogPart: parts.catalogPart, filesPart: parts.filesPart, renderPart: parts.renderPart, registry: parts.registry,
                  queries: queries)
    }
    var maintenance: Maintenance {
        Maintenance(catalogPart: parts.catalogPart, filesPart: parts.filesPart, renderPart: parts.renderPart, registry: parts.registry,
                    darktable: parts.darktable, previews: previews, committing: committing)
    }
}

/// Image requests (`Images/`: ImageManager, image data) reach the library
/// through the façade they were given, these members and its public ones
/// (`asset`, `resolve`, `render`), never into a service or the parts.
extension PhotoLibrary {
    // `imageSubject(_:version:)`, the photo behind a request, is `FilesUser`'s.

    /// A local path of the stored preview a result of geometry `g` of `s`
    /// can be made from (made now when missing), nil when there is none.
    func storedPreview(for s: ImageSubject, covering g: ImageGeometry) throws -> String? {
        try previews.storedPreview(for: s, covering: g)
    }

    /// The metadata an encoded result of `s` may carry: the original's
    /// EXIF (`exif`) and the library's descriptive metadata.
    func exportMetadata(_ s: ImageSubject, exif: Data?) throws -> ExportMetadata {
        try exporting.metadata(s, exif: exif)
    }
}
