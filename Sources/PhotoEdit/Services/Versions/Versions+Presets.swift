import Foundation

extension Versions {
    /// The photo's recipe reduced to `groups` (its filters of other groups
    /// left out) and scaled by `amount` (Lightroom's preset Amount, 0…2:
    /// every number moves from the filter's neutral default by that factor;
    /// 1 leaves it as it is).
    func presetRecipe(of idOrPrefix: String, groups: Set<RecipeGroup>, amount: Double) throws -> Recipe {
        guard amount.isFinite, (0...2).contains(amount) else {
            throw PhotoEditError.invalidChange("the amount must be from 0 to 2 (0 %–200 %)")
        }
        let registry = self.registry
        let nodes = try queries.currentRecipe(idOrPrefix).nodes.filter { RecipeGroup.of($0.filter, registry: registry).map(groups.contains) ?? false }
        guard !nodes.isEmpty else {
            throw PhotoEditError.invalidChange("photo \(try resolve(idOrPrefix)) has no settings in the groups "
                                               + groups.map(\.rawValue).sorted().joined(separator: ", "))
        }
        let scaled = try nodes.map { node -> RecipeNode in
            guard amount != 1, let filter = registry.filter(node.filter), node.parameters.content == nil else { return node }
            var values = node.parameters.values
            for (name, value) in values {
                if case .number(let v) = value, case .number(let neutral)? = filter.defaults.values[name] {
                    values[name] = .number(neutral + (v - neutral) * amount)
                }
            }
            return RecipeNode(filter: node.filter, version: node.version, parameters: try filter.validated(values))
        }
        return Recipe(nodes: scaled, registry: registry)
    }

    /// A Lightroom develop preset (`crs:PresetType="Normal"`) of `recipe`:
    /// the `crs:` equivalents `import-xmp` and preset application read back,
    /// and the filters that have none. `supportsAmount`: the values are the
    /// edit's own (saved at 100 %), so Lightroom may offer its Amount slider
    /// (`crs:SupportsAmount` True); a preset saved at another amount has it
    /// baked in its values and says False.
    static func lightroomPreset(named name: String, recipe: Recipe, supportsAmount: Bool = false) -> (data: Data, notExported: [String]) {
        let crs = LightroomEquivalents(recipe: recipe, orientation: 1)
        let attributes = ["crs:PresetType=\"Normal\"", "crs:UUID=\"\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))\"",
                          "crs:SupportsAmount=\"\(supportsAmount ? "True" : "False")\"", "crs:Version=\"15.0\"", "crs:ProcessVersion=\"11.0\"",
                          "crs:HasSettings=\"True\""]
            + crs.values.map { "crs:\($0.name)=\"\(XMPSidecar.escaped($0.value))\"" }
        var elements = ["<crs:Name><rdf:Alt><rdf:li xml:lang=\"x-default\">\(XMPSidecar.escaped(name))</rdf:li></rdf:Alt></crs:Name>"]
        elements += crs.curves.map { curve in
            "<crs:\(curve.name)><rdf:Seq>" + curve.points.map { "<rdf:li>\($0)</rdf:li>" }.joined() + "</rdf:Seq></crs:\(curve.name)>"
        }
        let text = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="photoedit">
             <rdf:RDF xmlns:rdf="\(XMPPacket.rdf)">
              <rdf:Description rdf:about="" xmlns:crs="\(LightroomSettings.namespace)"
                \(attributes.joined(separator: "\n    "))>
               \(elements.joined(separator: "\n   "))
              </rdf:Description>
             </rdf:RDF>
            </x:xmpmeta>

            """
        return (Data(text.utf8), crs.notExported)
    }

    /// Saves the chosen groups of a photo's recipe, scaled by `amount`, as
    /// the library's preset `name` (Lightroom's New Preset): a Lightroom
    /// preset in `presets/NAME.xmp`, listed with the others, never replaced.
    func savePreset(named name: String, from idOrPrefix: String, groups: Set<RecipeGroup>, amount: Double) throws -> (Preset, notExported: [String]) {
        let recipe = try presetRecipe(of: idOrPrefix, groups: groups, amount: amount)
        let (data, notExported) = Self.lightroomPreset(named: name, recipe: recipe, supportsAmount: amount == 1)
        return (try uploadedPresets.addPreset(named: name, lightroom: data), notExported)
    }
}
