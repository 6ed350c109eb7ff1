import Foundation
@testable import PhotoEdit

/// Lightroom / Camera Raw packets as the Interop, filter and denoise tests
/// write them by hand, and what their translations hold.
enum LightroomPackets {
    static let crs = "http://ns.adobe.com/camera-raw-settings/1.0/"

    /// A packet of `crs:` attributes, with `body` (elements) inside its description.
    static func packet(_ attributes: String, body: String = "") -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:crs="\(crs)" \(attributes)>\(body)</rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """
    }

    /// A process version 11 packet with the tiff: namespace too, whose description
    /// holds `body` (mask and spot elements) and `attributes`.
    static func maskPacket(_ body: String, attributes: String = "") -> Data {
        Data("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:crs="\(crs)" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" crs:ProcessVersion="11.0" \(attributes)>
        \(body)
         </rdf:Description>
        </rdf:RDF></x:xmpmeta>
        """.utf8)
    }

    /// A correction list of one correction (Lightroom's old shape: a Description inside each rdf:li).
    static func correctionList(_ name: String, amounts: String, masks: String) -> String {
        """
        <crs:\(name)><rdf:Seq><rdf:li><rdf:Description crs:What="Correction" crs:CorrectionAmount="1" crs:CorrectionActive="true" \(amounts)>
         <crs:CorrectionMasks><rdf:Seq>\(masks)</rdf:Seq></crs:CorrectionMasks>
        </rdf:Description></rdf:li></rdf:Seq></crs:\(name)>
        """
    }

    /// The translation of a process version 11 packet of `attributes`.
    static func translate(_ attributes: String, version: Int = LightroomSettings.translationVersion) throws -> LightroomTranslation {
        try LightroomSettings(packet: XMPPacket(data: Data(packet(#"crs:ProcessVersion="11.0" "# + attributes).utf8)),
                              version: version).translation()
    }

    /// The translation's recipe written back as Lightroom settings and read again.
    static func writtenBack(_ t: LightroomTranslation) throws -> LightroomTranslation {
        let written = LightroomEquivalents(recipe: t.recipe, orientation: 1)
        return try translate(written.values.map { "crs:\($0.name)=\"\(XMPSidecar.escaped($0.value))\"" }.joined(separator: " "))
    }

    /// A number parameter of the translated recipe's `filter` (nil: no such filter).
    static func number(_ t: LightroomTranslation, _ filter: String, _ parameter: String) -> Double? {
        t.recipe.node(filter).map { $0.parameters.number(parameter) }
    }
}
