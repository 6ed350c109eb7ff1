import Foundation

/// The one place services are built: each from the shared parts and the
/// services it declares (its stored properties, passed in at `init`), so
/// a service reaches another only through what it was given. Building one
/// costs a few references, so they are made per call, as before.
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
/// Needs several services share sit below them all: catalog access and
/// rows into models (`LibraryPart`), the files and their previews
/// (`LibraryFiles`, `Previews`), what a file is (`Importer`), staging
/// (Committing's).
extension PhotoLibrary {
    var previews: Previews { Previews(parts: parts) }
    var queries: Queries { Queries(parts: parts) }
    var feed: Feed { Feed(parts: parts) }
    var uploadedPresets: UploadedPresets { UploadedPresets(parts: parts) }
    var committing: Committing { Committing(parts: parts, previews: previews) }
    var editing: Editing { Editing(parts: parts, queries: queries, committing: committing) }
    var rendering: Rendering { Rendering(parts: parts, queries: queries, editing: editing) }
    var importing: Importing { Importing(parts: parts, queries: queries, editing: editing, committing: committing) }
    var versions: Versions {
        Versions(parts: parts, queries: queries, editing: editing, committing: committing, uploadedPresets: uploadedPresets)
    }
    var exporting: Exporting { Exporting(parts: parts, queries: queries) }
    var maintenance: Maintenance { Maintenance(parts: parts, previews: previews, committing: committing) }
}

/// Image requests (`Images/`: ImageManager, image data) reach the library
/// through the façade they were given, these members and its public ones
/// (`asset`, `resolve`, `render`), never into a service or the parts.
extension PhotoLibrary {
    // `imageSubject(_:version:)`, the photo behind a request, is `LibraryPart`'s.

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
