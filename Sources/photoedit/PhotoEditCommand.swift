import ArgumentParser
import Foundation
import PhotoEdit
import PhotoEditLocation

/// The tool. Its `main` is async: the commands that wait for async work
/// (`watch`, `serve`, `jobs …`, `bench-requests`, `thumbs`, `apply` and
/// `upgrade`) are `AsyncParsableCommand`s and await it, their engine work
/// on the `BlockingExecutor`; the others are synchronous, as the engine is.
@main
struct PhotoEditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photoedit",
        abstract: "Non-destructive photo editing: originals are never touched, every edit is kept.",
        discussion: """
        A library is a folder (default: $PHOTOEDIT_LIBRARY, else $XDG_DATA_HOME/photoedit, \
        else ~/.local/share/photoedit), or a library many machines share: \
        postgres://USER@HOST/DB?blobs=s3://BUCKET/PREFIX (credentials from PGPASSWORD, \
        AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), or a JSON file naming one (docs/cli.md). \
        Ids can be shortened to any unambiguous prefix.

        Example:
          photoedit import ~/Pictures/trip
          photoedit apply crop=16:9,exposure=+0.3 3f2a
          photoedit render 3f2a -o out.jpg
          photoedit revert 3f2a
        """,
        subcommands: [
            ImportCommand.self, ListCommand.self, ShowCommand.self, FiltersCommand.self, LensCommand.self, LensesCommand.self, DenoiseCommand.self, UprightCommand.self,
            ApplyCommand.self, RenderCommand.self, RevertCommand.self, HistoryCommand.self,
            FavoriteCommand.self, UnfavoriteCommand.self, HideCommand.self, UnhideCommand.self,
            DeleteCommand.self, RestoreCommand.self, PurgeCommand.self,
            RateCommand.self, LabelCommand.self, TagCommand.self, UntagCommand.self, TitleCommand.self, CaptionCommand.self,
            KeywordsCommand.self, ImportXMPCommand.self,
            AlbumCommand.self, ExportCommand.self, ExportPresetsCommand.self, VerifyCommand.self, UpgradeCommand.self,
            PresetsCommand.self, CopyRecipeCommand.self, ThumbsCommand.self, ChangesCommand.self, WatchCommand.self,
            DuplicateCommand.self, SnapshotCommand.self,
            BenchRequestsCommand.self, CompareCommand.self, TestCommand.self, ServeCommand.self, JobsCommand.self, LibraryCommand.self,
        ]
    )

    static func main() async {
        Vips.fixAllocatorThreshold()
        await main(nil)
    }
}

/// Options every command takes.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Library: a folder, postgres://USER@HOST/DB?blobs=s3://BUCKET/PREFIX, or a config file (docs/cli.md).",
                                            valueName: "LIBRARY"))
    var library: String?

    @Option(name: .customLong("luts"), help: ArgumentHelp("Also look for .cube LUTs in this folder, first (repeatable; also $PHOTOEDIT_LUTS; then the preset folders).", valueName: "DIR"))
    var luts: [String] = []

    /// The library named (or the default folder).
    func location() throws -> LibraryLocation { try LibraryLocation.named(library) }

    /// The library folder named (or the default one); a distributed library has none.
    func folder(for what: String) throws -> URL {
        guard case let .folder(url) = try location() else {
            throw PhotoEditError.library("\(what) works on a library folder, not on \(try location())")
        }
        return url
    }

    func open() throws -> PhotoLibrary {
        LUTFolders.add(luts)
        return try location().open()
    }
}

/// Runs a command body; engine errors become one line on stderr and exit 1.
func PhotoEdit_run(_ body: () throws -> Void) throws {
    do {
        try Output.silencingLibraries(body)
    } catch let error as PhotoEditError {
        Output.error(error.description)
        throw ExitCode(1)
    }
}

/// Runs an async command body, as the synchronous `PhotoEdit_run` does.
func PhotoEdit_run(_ body: () async throws -> Void) async throws {
    do {
        try await Output.silencingLibraries(body)
    } catch let error as PhotoEditError {
        Output.error(error.description)
        throw ExitCode(1)
    }
}
