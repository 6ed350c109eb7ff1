// Filter declarations (/v1/filters) as the editor's controls need them.
// Every parameter comes as data (ParameterSpec.jsonDescription): `type`
// (number, choice, text, bool), `default`, `unit`, `description`, and
// `min`, `max`, `step` for numbers, `choices` for a choice.

/**
 * Each filter with its parameters typed: kind, min, max, declaredStep,
 * choices. Parameters the engine records, never the user (`recorded`: the
 * LUT's SHA-256), get no control.
 */
export function paramsFromFilters(filters) {
  return filters.map((filter) => ({
    ...filter,
    params: filter.parameters.filter((p) => !(filter.recorded ?? []).includes(p.name)).map((p) => ({ ...p, ...kindOf(p) })),
  }));
}

export function kindOf(param) {
  switch (param.type) {
    case "number": return { kind: "number", min: param.min, max: param.max, declaredStep: param.step ?? null };
    case "choice": return { kind: "choice", choices: param.choices };
    case "bool": return { kind: "bool" };
    default: return { kind: "text" };
  }
}

/** A slider's step: the declared one, else 1 for ranges of 20…400, else about a two-hundredth of the range, rounded to 1, 2 or 5. */
export function stepOf(param) {
  if (param.declaredStep) return param.declaredStep;
  const span = param.max - param.min;
  if (span >= 20 && span <= 400) return 1;   // amounts, percentages, degrees: whole numbers
  const raw = span / 200;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  return Number(step.toPrecision(1));
}

/** A value as a chain writes it. */
export function chainValue(param, value) {
  if (param.kind === "number") {
    const text = String(Number(Number(value).toPrecision(6)));
    return text.includes("e") ? Number(value).toFixed(6) : text;
  }
  return String(value);
}
