import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Why an XMP packet was not used. Never holds the packet's text.
public struct XMPProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in a few words.
    public let description: String

    init(_ description: String) { self.description = description }
}

/// The properties of an XMP packet (embedded in a photo, or a sidecar file
/// `IMG_1.CR2.xmp` / `IMG_1.xmp`), read with Foundation's XML parser,
/// namespace-aware. Both shapes XMP writes a property in are read: an
/// attribute of `rdf:Description` (`xmp:Rating="3"`), and an element whose
/// value is text or an `rdf:Bag`/`rdf:Seq`/`rdf:Alt` of `rdf:li` items.
///
/// Hostile input is bounded: at most `maxBytes`, `maxDepth` levels of
/// elements and `maxElements` elements; a document type declaration
/// (entities) is refused before parsing, since XMP never has one.
struct XMPPacket {
    /// The largest packet read, in bytes (darktable sidecars with a long
    /// history measure a few hundred KB).
    static let maxBytes = 8 << 20
    /// The deepest nesting of elements read (Lightroom's deepest, masks, is ~15).
    static let maxDepth = 64
    /// The most elements read.
    static let maxElements = 200_000

    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xmp = "http://ns.adobe.com/xap/1.0/"
    static let dc = "http://purl.org/dc/elements/1.1/"
    static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    static let darktable = "http://darktable.sf.net/"

    /// A property's value: simple text, or the items of an array (with each
    /// item's `xml:lang`, for language alternatives).
    enum Value: Equatable {
        case text(String)
        case array([(language: String?, text: String)])

        static func == (a: Value, b: Value) -> Bool {
            switch (a, b) {
            case let (.text(x), .text(y)): return x == y
            case let (.array(x), .array(y)): return x.map(\.language) == y.map(\.language) && x.map(\.text) == y.map(\.text)
            default: return false
            }
        }

        /// The items of an array; simple text as one item.
        var items: [String] {
            switch self {
            case .text(let t): return [t]
            case .array(let items): return items.map(\.text)
            }
        }

        /// The text of a language alternative: the `x-default` item, else
        /// the first; simple text as it is.
        var defaultText: String? {
            switch self {
            case .text(let t): return t
            case .array(let items): return (items.first { $0.language?.lowercased() == "x-default" } ?? items.first)?.text
            }
        }
    }

    struct Name: Hashable {
        var namespace: String
        var local: String
    }

    /// The top-level properties of every `rdf:Description`, the first
    /// description's value kept when several set one.
    private(set) var properties: [Name: Value] = [:]
    /// Top-level properties whose value is a structure (`rdf:parseType="Resource"`,
    /// a nested description): their names only, their content is not read.
    private(set) var structures: Set<Name> = []
    /// For each top-level array: the attributes of its `rdf:li` items, in
    /// order (darktable writes each history step as an item whose fields are
    /// attributes: `darktable:operation="exposure"`), `rdf:` and `xml:` ones left out.
    private(set) var itemAttributes: [Name: [[Name: String]]] = [:]
    /// The parsed element of each top-level array or structure property
    /// (the first description's when several set one), for readers of
    /// nested values (Lightroom's masks and spots). Within the packet's bounds.
    private(set) var elements: [Name: TreeBuilder.Node] = [:]

    /// The value of a property, nil when the packet does not set it.
    func value(_ namespace: String, _ local: String) -> Value? { properties[Name(namespace: namespace, local: local)] }

    /// Parses a packet. Embedded packets may start with the JPEG APP1
    /// marker's namespace (`http://ns.adobe.com/xap/1.0/` and a NUL) and end
    /// with NUL padding; both are skipped.
    init(data input: Data) throws(XMPProblem) {
        guard input.count <= Self.maxBytes else { throw XMPProblem("larger than \(Self.maxBytes >> 20) MiB") }
        var data = input
        let app1 = Data("http://ns.adobe.com/xap/1.0/\0".utf8)
        if data.starts(with: app1) { data = data.dropFirst(app1.count) }
        while let last = data.last, last == 0 { data = data.dropLast() }
        guard !data.isEmpty else { throw XMPProblem("empty") }
        // A document type declaration can define entities, which the parser
        // expands (a few hundred bytes can expand to gigabytes). XMP has none.
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw XMPProblem("has a document type declaration, which XMP never has")
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: Data(data))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if let problem = builder.problem { throw problem }
        // A packet that stops inside an element parses without an error
        // (the parser is never told the input ended): every element must be closed.
        guard ok, let root = builder.root, builder.isComplete else { throw XMPProblem("not well-formed XML (truncated)") }
        collect(root)
    }

    /// Reads the properties of every `rdf:Description` under `node`.
    private mutating func collect(_ node: TreeBuilder.Node) {
        var pending = [node]
        while let n = pending.popLast() {
            guard n.namespace == Self.rdf && n.name == "Description" else {
                pending += n.children.reversed()
                continue
            }
            for a in n.attributes where a.namespace != Self.rdf && a.namespace != Self.xml && !a.namespace.isEmpty {
                set(Name(namespace: a.namespace, local: a.name), .text(a.value))
            }
            for p in n.children {
                let name = Name(namespace: p.namespace, local: p.name)
                if let container = p.children.first(where: { $0.namespace == Self.rdf && ["Bag", "Seq", "Alt"].contains($0.name) }) {
                    let items = container.children.filter { $0.namespace == Self.rdf && $0.name == "li" }.map { li in
                        (language: li.attributes.first { $0.namespace == Self.xml && $0.name == "lang" }?.value, text: li.text)
                    }
                    set(name, .array(items))
                    if elements[name] == nil { elements[name] = p }
                    if itemAttributes[name] == nil {
                        itemAttributes[name] = container.children.filter { $0.namespace == Self.rdf && $0.name == "li" }.map { li in
                            var fields: [Name: String] = [:]
                            for a in li.attributes where a.namespace != Self.rdf && a.namespace != Self.xml && !a.namespace.isEmpty {
                                fields[Name(namespace: a.namespace, local: a.name)] = a.value
                            }
                            return fields
                        }
                    }
                } else if p.children.isEmpty && !p.attributes.contains(where: { $0.namespace == Self.rdf }) {
                    set(name, .text(p.text))
                } else {
                    // Structures (rdf:parseType="Resource", nested descriptions)
                    // hold no property read here; that they are set is kept.
                    structures.insert(name)
                    if elements[name] == nil { elements[name] = p }
                }
            }
        }
    }

    private mutating func set(_ name: Name, _ value: Value) {
        if properties[name] == nil { properties[name] = value }
    }

    /// Reads the file at `path` (at most `maxBytes`; a regular file only, so
    /// a FIFO or device named like a sidecar is never waited on) and parses it.
    /// Nil when there is no such file.
    static func load(_ path: SystemPath) throws(XMPProblem) -> XMPPacket? {
        guard let data = try loadData(path) else { return nil }
        return try XMPPacket(data: data)
    }

    /// The bytes of the file at `path`, read as `load` reads them; nil when
    /// there is no such file.
    static func loadData(_ path: SystemPath) throws(XMPProblem) -> Data? {
        let fd = path.withCString { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw XMPProblem("unreadable (\(String(cString: strerror(errno))))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { throw XMPProblem("not a regular file") }
        guard info.st_size <= maxBytes else { throw XMPProblem("larger than \(maxBytes >> 20) MiB") }
        var data = Data(count: Int(info.st_size) + 1)
        var total = 0
        while total < data.count {
            let n = data.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + total, $0.count - total) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw XMPProblem("unreadable (\(String(cString: strerror(errno))))") }
            if n == 0 { break }
            total += n
        }
        guard total <= maxBytes else { throw XMPProblem("larger than \(maxBytes >> 20) MiB") }
        return data.prefix(total)
    }
}

extension XMPPacket {
    /// The descriptive metadata the packet sets: `xmp:Rating`, `xmp:Label`
    /// (else the first of `darktable:colorlabels`), keywords from
    /// `lr:hierarchicalSubject` and `dc:subject`, `dc:title`, `dc:description`.
    /// Throws for a value that is set but not valid (a rating of 9, a
    /// keyword with an empty level): a packet is used whole or not at all.
    func descriptiveMetadata() throws(XMPProblem) -> DescriptiveMetadata {
        var out = DescriptiveMetadata()
        if let value = value(Self.xmp, "Rating")?.defaultText {
            // XMP's rating is a real number; every tool writes whole ones.
            guard let r = Double(value.trimmingCharacters(in: .whitespacesAndNewlines)), r == r.rounded(), Rating.range.contains(Int(r)) else {
                throw XMPProblem("xmp:Rating is not a rating from -1 to 5")
            }
            out.rating = Int(r)
        }
        if let value = value(Self.xmp, "Label")?.defaultText {
            // Other texts (a renamed label set's "To Print") are not guessed at.
            out.colorLabel = ColorLabel(xmpLabel: value)
        } else if let value = value(Self.darktable, "colorlabels") {
            // darktable allows several labels; photoedit keeps the first.
            for item in value.items {
                guard let n = Int(item.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                    throw XMPProblem("darktable:colorlabels holds a value that is not a number")
                }
                if out.colorLabel == nil { out.colorLabel = ColorLabel(darktableNumber: n) }
            }
        }
        out.keywords = try keywords()
        do {
            out.title = try value(Self.dc, "title")?.defaultText.flatMap { try DescriptiveMetadata.checkedText($0, "title") }
            out.caption = try value(Self.dc, "description")?.defaultText.flatMap { try DescriptiveMetadata.checkedText($0, "caption") }
        } catch {
            throw XMPProblem("dc:title or dc:description is longer than \(DescriptiveMetadata.maxTextLength) characters or holds control characters")
        }
        return out
    }

    /// Lightroom writes a hierarchical keyword twice: `Trips|Iceland` in
    /// `lr:hierarchicalSubject`, and each level (`Trips`, `Iceland`) in
    /// `dc:subject`. So the keywords are the hierarchical ones, then every
    /// `dc:subject` entry that is not a level of one of them. darktable's
    /// own bookkeeping tags (`darktable|…`) are left out.
    private func keywords() throws(XMPProblem) -> [String]? {
        let hierarchical = value(Self.lightroom, "hierarchicalSubject")?.items
        let flat = value(Self.dc, "subject")?.items
        guard hierarchical != nil || flat != nil else { return nil }
        var out: [String] = []
        var levels = Set<String>()
        do {
            for entry in hierarchical ?? [] where !entry.hasPrefix("darktable|") {
                let keyword = try Keyword.fromLightroom(entry)
                out.append(keyword)
                for level in Keyword.levels(keyword) { levels.insert(Keyword.folded(level)) }
            }
            for entry in flat ?? [] where !entry.hasPrefix("darktable|") {
                let keyword = try Keyword.normalized(Keyword.join([entry]))
                if !levels.contains(Keyword.folded(Keyword.levels(keyword)[0])) { out.append(keyword) }
            }
        } catch {
            throw XMPProblem("a keyword is empty, too long or holds control characters")
        }
        out = Keyword.unique(out)
        guard out.count <= Keyword.maxPerPhoto else { throw XMPProblem("more than \(Keyword.maxPerPhoto) keywords") }
        return out
    }
}

/// Builds a small element tree from the parser's events, resolving
/// attribute prefixes to namespaces (the parser reports attributes by their
/// written prefix), within the packet's limits.
final class TreeBuilder: NSObject, XMLParserDelegate {
    final class Node {
        let namespace: String
        let name: String
        let attributes: [(namespace: String, name: String, value: String)]
        var children: [Node] = []
        var text = ""

        init(namespace: String, name: String, attributes: [(namespace: String, name: String, value: String)]) {
            self.namespace = namespace
            self.name = name
            self.attributes = attributes
        }
    }

    var root: Node?
    var problem: XMPProblem?
    private var stack: [Node] = []
    private var scopes: [[String: String]] = []
    private var pendingPrefixes: [String: String] = [:]
    private var elements = 0

    /// Every element opened was closed.
    var isComplete: Bool { stack.isEmpty && scopes.isEmpty }

    private func fail(_ parser: XMLParser, _ text: String) {
        if problem == nil { problem = XMPProblem(text) }
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartMappingPrefix prefix: String, toURI namespaceURI: String) {
        pendingPrefixes[prefix] = namespaceURI
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        guard problem == nil else { return }
        scopes.append(pendingPrefixes)
        pendingPrefixes = [:]
        elements += 1
        guard elements <= XMPPacket.maxElements else { return fail(parser, "more than \(XMPPacket.maxElements) elements") }
        guard stack.count < XMPPacket.maxDepth else { return fail(parser, "nested more than \(XMPPacket.maxDepth) deep") }
        var attributes: [(namespace: String, name: String, value: String)] = []
        for (qualified, value) in attributeDict.sorted(by: { $0.key < $1.key }) {
            guard let colon = qualified.firstIndex(of: ":") else {
                attributes.append(("", qualified, value))
                continue
            }
            let prefix = String(qualified[..<colon]), local = String(qualified[qualified.index(after: colon)...])
            if prefix == "xmlns" { continue }
            let namespace = prefix == "xml" ? XMPPacket.xml : scopes.reversed().lazy.compactMap { $0[prefix] }.first
            guard let namespace else { return fail(parser, "an attribute's namespace prefix is not declared") }
            attributes.append((namespace, local, value))
        }
        let node = Node(namespace: namespaceURI ?? "", name: elementName, attributes: attributes)
        if let parent = stack.last { parent.children.append(node) } else if root == nil { root = node }
        stack.append(node)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard problem == nil else { return }
        _ = stack.popLast()
        _ = scopes.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // The parser recovers from some errors; a packet with any is not used.
        if problem == nil { problem = XMPProblem("not well-formed XML (line \(parser.lineNumber))") }
    }
}
