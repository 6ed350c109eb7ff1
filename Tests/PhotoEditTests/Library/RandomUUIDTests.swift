import Foundation
import Testing
@testable import PhotoEdit

/// `UUID.random()`: the server's request and export job ids, without the
/// file Foundation's `UUID()` opens on Linux.
@Suite struct RandomUUIDTests {
    @Test func versionFourAndTheRFCVariant() {
        for _ in 0..<1000 {
            let text = Array(UUID.random().uuidString)
            #expect(text.count == 36)
            #expect(text[14] == "4", "version nibble of \(String(text))")
            #expect("89AB".contains(text[19]), "variant nibble of \(String(text))")
        }
    }

    @Test func distinct() {
        let ids = (0..<10_000).map { _ in UUID.random() }
        #expect(Set(ids).count == ids.count)
    }
}
