// Only with the `Server` trait (Package.swift): these tests need its servers and modules.
#if Server
import Foundation
import Hummingbird
import HummingbirdTesting
@testable import PhotoEdit
@testable import PhotoEditServer
import Testing

@Suite("HTTP API v1: upright")
struct UprightRouteTests {
    @Test("GET upright reports the solution or why none; the chain step upright=MODE in an edit writes the values")
    func upright() async throws {
        let temp = try TemporaryLibrary()
        let library = temp.library
        // samples/chart.png turned 2.5° clockwise, rendered and imported as a photo of its own.
        let chart = try temp.importSample("chart.png")
        let turnedFile = temp.folder.file("turned.jpg")
        try await BlockingExecutor.run {
            try library.apply(chain: "perspective=0:0:2.5", to: chart)
            try library.render(chart, to: turnedFile)
        }
        let turned = try #require(try await BlockingExecutor.run { try library.importItems([turnedFile]) }.first?.id)
        let coffee = try temp.importSample("coffee.jpg")
        try await server(temp).test(.router) { client in
            try await client.execute(uri: "/v1/assets/\(turned)/upright?mode=level", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.member("solvedAs") == .string("level") && response.member("problem") == .null)
                guard case .object(let p)? = response.member("perspective"), case .number(let rotate)? = p["rotate"] else {
                    Issue.record("no perspective in \(response.json)")
                    return
                }
                #expect(abs(rotate - -2.5) <= 0.1)
            }
            // No reliable lines: the reason, in one line.
            try await client.execute(uri: "/v1/assets/\(coffee)/upright?mode=full", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.member("perspective") == .null && response.member("chain") == .string(""))
                guard case .string(let note)? = response.member("note") else { Issue.record("no note"); return }
                #expect(note.hasSuffix("perspective unchanged") && !note.contains("\n"), "\(note)")
            }
            for bad in ["mode=sideways", "mode=", "strength=2"] {
                try await client.execute(uri: "/v1/assets/\(coffee)/upright?\(bad)", method: .get) { response in
                    #expect(response.status == .badRequest, "\(bad)")
                    #expect(response.member("code") == .string("invalid-parameter"))
                }
            }
            try await client.execute(uri: "/v1/assets/\(String(repeating: "0", count: 32))/upright", method: .get) { response in
                #expect(response.status == .notFound)
            }
            // The edit route: concrete values stored, a later step adjusts them.
            try await client.execute(uri: "/v1/assets/\(turned)/edits", method: .post, headers: [.ifMatch: "\"r0\""],
                                     body: ByteBuffer(string: #"{"chain": "upright=level,perspective.scale=105"}"#)) { response in
                #expect(response.status == .ok)
            }
            let recipe = try await BlockingExecutor.run {
                try Recipe(adjustmentData: #require(try library.asset(turned).adjustmentData), registry: .standard)
            }
            let p = try #require(recipe.node("perspective")).parameters
            #expect(abs(p.number("rotate") - -2.5) <= 0.1 && p.number("scale") == 105)
            // A preview with the step works too.
            try await client.execute(uri: "/v1/assets/\(coffee)/preview?w=200&chain=upright", method: .get) { response in
                #expect(response.status == .ok)
            }
        }
    }
}
#endif
