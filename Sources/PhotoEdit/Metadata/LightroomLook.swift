import Foundation

/// A profile's look (`crs:Look`): Lightroom writes the profile chosen in
/// the Basic panel as a structure — its name, the profile amount slider
/// (`crs:Amount`, 0…2) and the develop settings the profile applies
/// (`crs:Parameters`: a creative profile's look table, `crs:RGBTable`, and
/// sometimes a tone curve or sliders). Read from translation version 9.
struct LightroomLook: Sendable {
    /// The profile's name (`crs:Name`).
    let name: String
    /// The profile amount, 0…2 (1 when absent or not a number).
    let amount: Double
    /// The simple `crs:` values of its parameters, by local name.
    let values: [String: String]
    /// Its array `crs:` values (tone curves), by local name.
    let arrays: [String: [String]]

    /// The most parameters read from a look (Adobe's carry a few dozen).
    static let maxParameters = 500

    /// The look of a packet, nil when it has none or one with no parameters
    /// (`<crs:Look crs:Name=""/>`, what Camera Raw writes for no look).
    init?(_ packet: XMPPacket) {
        guard let element = packet.elements[XMPPacket.Name(namespace: LightroomSettings.namespace, local: "Look")] else { return nil }
        let look = Self.fields(element)
        let name = look.values["Name"] ?? look.arrays["Name"]?.first ?? ""
        guard let parameters = look.structures["Parameters"] else { return nil }
        let p = Self.fields(parameters)
        guard p.values.count + p.arrays.count <= Self.maxParameters else { return nil }
        self.name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        amount = look.values["Amount"].flatMap { LightroomSettings.parseNumber($0.trimmingCharacters(in: .whitespaces)) }.map { min(max($0, 0), 2) } ?? 1
        values = p.values.mapValues { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        arrays = p.arrays.mapValues { $0.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }
    }

    /// The `crs:` fields of a structure, written either as a nested
    /// `rdf:Description` (attributes and elements) or with
    /// `rdf:parseType="Resource"` (elements of the property itself).
    static func fields(_ node: TreeBuilder.Node) -> (values: [String: String], arrays: [String: [String]], structures: [String: TreeBuilder.Node]) {
        let body = node.children.first { $0.namespace == XMPPacket.rdf && $0.name == "Description" } ?? node
        var values: [String: String] = [:], arrays: [String: [String]] = [:], structures: [String: TreeBuilder.Node] = [:]
        for a in body.attributes where a.namespace == LightroomSettings.namespace { values[a.name] = a.value }
        for child in body.children where child.namespace == LightroomSettings.namespace {
            if let container = child.children.first(where: { $0.namespace == XMPPacket.rdf && ["Bag", "Seq", "Alt"].contains($0.name) }) {
                arrays[child.name] = container.children.filter { $0.namespace == XMPPacket.rdf && $0.name == "li" }.map(\.text)
            } else if child.children.isEmpty && !child.attributes.contains(where: { $0.namespace == XMPPacket.rdf }) {
                values[child.name] = child.text
            } else {
                structures[child.name] = child
            }
        }
        return (values, arrays, structures)
    }

    /// The name as a list line shows it (printable, at most 64 characters).
    var title: String {
        let printable = !name.isEmpty && name.count <= 64 && name.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        return printable ? name : "(unnamed)"
    }

    /// A look that is Lightroom's default rendering (Adobe Color, Adobe
    /// Standard…, or none): its parameters are photoedit's default look.
    var isNeutral: Bool { LightroomSettings.neutralProfiles.contains(name) }

    /// Parameters that describe the look rather than adjust (never applied
    /// or listed): versions, the camera profile, Adobe's hue/saturation look
    /// table, the look table's name and data (read apart).
    static func isBookkeeping(_ name: String) -> Bool {
        ["Version", "ProcessVersion", "CompatibleVersion", "RGBTable", "LookTable", "CameraProfile"].contains(name)
            || LightroomSettings.isBookkeeping(name)
    }

    /// The look's settings as they apply beneath the packet's own, scaled
    /// by the look's amount (a slider's distance from neutral, a curve's
    /// from the diagonal), for the settings the packet leaves at their
    /// default; the ones the packet sets too are returned apart (one look
    /// setting per filter parameter: the packet's wins, the look's is listed).
    func merged(into values: [String: String], arrays: [String: [String]]) -> (values: [String: String], arrays: [String: [String]], conflicts: [String]) {
        var (outValues, outArrays, conflicts) = (values, arrays, [String]())
        func isNeutral(_ name: String, _ text: String?) -> Bool {
            guard let text else { return true }
            guard let v = LightroomSettings.parseNumber(text.trimmingCharacters(in: .whitespaces)) else { return text.lowercased() == "false" }
            return v == (LightroomSettings.defaults[name] ?? 0)
        }
        for (name, text) in self.values.sorted(by: { $0.key < $1.key }) where !Self.isBookkeeping(name) && !name.hasPrefix("Table_") {
            if isNeutral(name, text) { continue }
            guard isNeutral(name, values[name]) else { conflicts.append(name); continue }
            if let v = LightroomSettings.parseNumber(text), let neutral = LightroomSettings.scalable[name] {
                outValues[name] = JSONValue.format(neutral + (v - neutral) * amount)
            } else {
                outValues[name] = text
            }
        }
        for (name, items) in self.arrays.sorted(by: { $0.key < $1.key }) where name.hasPrefix("ToneCurve") && !items.isEmpty {
            let points = items.compactMap { item -> (Double, Double)? in
                let p = item.split(separator: ",").compactMap { LightroomSettings.parseNumber($0.trimmingCharacters(in: .whitespaces)) }
                return p.count == 2 ? (p[0], p[1]) : nil
            }
            if points.count == items.count && points.allSatisfy({ $0.0 == $0.1 }) { continue }
            if let own = arrays[name], !own.isEmpty, !own.allSatisfy({ item in
                let p = item.split(separator: ",").compactMap { LightroomSettings.parseNumber($0.trimmingCharacters(in: .whitespaces)) }
                return p.count == 2 && p[0] == p[1]
            }) {
                conflicts.append(name)
                continue
            }
            // The amount moves each point towards (or away from) the diagonal; a malformed curve is kept as it is, for the reader to list.
            outArrays[name] = points.count == items.count
                ? points.map { "\(JSONValue.format($0.0)), \(JSONValue.format(min(max($0.0 + ($0.1 - $0.0) * amount, 0), 255)))" } : items
        }
        return (outValues, outArrays, conflicts)
    }
}
