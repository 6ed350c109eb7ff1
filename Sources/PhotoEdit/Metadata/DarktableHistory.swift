import Foundation

/// A darktable edit as it is kept in a sidecar (`IMG_1.CR2.xmp`): the
/// module history (`darktable:history`, one `rdf:li` per step) and the
/// fields darktable reads with it (`history_end`, `iop_order_version`,
/// masks). Each step's parameters are darktable's binary structs, versioned
/// per module; photoedit never reads them: the sidecar is kept verbatim as
/// foreign adjustment data (`org.darktable.history`), and only darktable
/// itself (`darktable-cli`, see ``DarktableCLI``) renders it.
///
/// What is read here is what describes the history to a person, and checks
/// it is one: each step's module name (`darktable:operation`), whether it is
/// on, its instance name, and how many steps are applied (`history_end`).
public struct DarktableHistory: Sendable, Hashable {
    /// The `formatIdentifier` of a darktable history kept as adjustment data.
    public static let formatIdentifier = "org.darktable.history"
    /// The most steps read (darktable compresses histories; a long edit has a few hundred).
    static let maxSteps = 10_000

    /// One step of the history.
    public struct Step: Sendable, Hashable {
        /// darktable's module (`exposure`, `filmicrgb`, `temperature`, …).
        public let operation: String
        /// False for a step that turns the module off.
        public let enabled: Bool
        /// The instance's name when the module is used more than once ("" for the first).
        public let instanceName: String
    }

    /// The sidecar's `darktable:xmp_version` (the adjustment data's `formatVersion`).
    public let xmpVersion: String
    /// Every step, in order.
    public let steps: [Step]
    /// How many of the steps darktable applies (`darktable:history_end`);
    /// the rest were undone in darktable and are kept for its history stack.
    public let historyEnd: Int

    /// The modules the render has on, each once, in the order of their last
    /// applied step (darktable's history lists a module again each time it changes).
    public var activeModules: [String] {
        var state: [String: Bool] = [:], order: [String] = []
        for step in steps.prefix(historyEnd) {
            let key = step.instanceName.isEmpty ? step.operation : "\(step.operation) \(step.instanceName)"
            if state[key] == nil { order.append(key) }
            state[key] = step.enabled
        }
        return order.filter { state[$0] == true }
    }

    /// The history in a few words: `10 steps (rawprepare, …, flip)` — its
    /// steps and the modules it has on (the first 12).
    public var summary: String {
        let modules = activeModules
        let shown = modules.prefix(12).joined(separator: ", ") + (modules.count > 12 ? ", …" : "")
        return "\(steps.count) step\(steps.count == 1 ? "" : "s")" + (modules.isEmpty ? "" : " (\(shown))")
    }

    /// Reads the history of a darktable sidecar; nil when the packet has no
    /// darktable history (no `darktable:history`, or an empty one). Throws
    /// for one that is not darktable's (one line, never quoting the packet).
    public init?(packet data: Data) throws(XMPProblem) {
        try self.init(packet: XMPPacket(data: data))
    }

    init?(packet: XMPPacket) throws(XMPProblem) {
        let ns = XMPPacket.darktable
        let history = XMPPacket.Name(namespace: ns, local: "history")
        guard let items = packet.itemAttributes[history], !items.isEmpty else { return nil }
        guard items.count <= Self.maxSteps else { throw XMPProblem("darktable:history has more than \(Self.maxSteps) steps") }
        guard let version = packet.value(ns, "xmp_version")?.defaultText, let number = Int(version), (1...99).contains(number) else {
            throw XMPProblem("darktable:xmp_version is missing or not a number between 1 and 99")
        }
        var steps: [Step] = []
        for (k, item) in items.enumerated() {
            func field(_ local: String) -> String? { item[XMPPacket.Name(namespace: ns, local: local)] }
            guard let operation = field("operation"), (1...64).contains(operation.utf8.count),
                  operation.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }) else {
                throw XMPProblem("darktable:history step \(k + 1) has no module name (darktable:operation: a-z, 0-9 and _)")
            }
            guard field("params") != nil else { throw XMPProblem("darktable:history step \(k + 1) (\(operation)) has no darktable:params") }
            let enabled: Bool
            switch field("enabled") ?? "1" {
            case "1": enabled = true
            case "0": enabled = false
            default: throw XMPProblem("darktable:history step \(k + 1) (\(operation)): darktable:enabled is not 0 or 1")
            }
            let name = field("multi_name") ?? ""
            guard name.count <= 256, !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw XMPProblem("darktable:history step \(k + 1) (\(operation)): darktable:multi_name is too long or holds control characters")
            }
            steps.append(Step(operation: operation, enabled: enabled, instanceName: name))
        }
        var end = steps.count
        if let text = packet.value(ns, "history_end")?.defaultText {
            guard let n = Int(text), (0...steps.count).contains(n) else {
                throw XMPProblem("darktable:history_end is not a number between 0 and the \(steps.count) steps")
            }
            end = n
        }
        xmpVersion = version
        self.steps = steps
        historyEnd = end
    }

    /// Adjustment data holding the sidecar verbatim.
    public static func adjustmentData(packet: Data, history: DarktableHistory) -> AdjustmentData {
        AdjustmentData(formatIdentifier: formatIdentifier, formatVersion: history.xmpVersion, data: packet)
    }

    /// The history kept in adjustment data of this format; nil for any other.
    public init?(adjustmentData data: AdjustmentData) {
        guard data.formatIdentifier == Self.formatIdentifier, let history = try? Self(packet: data.data) else { return nil }
        self = history
    }
}
