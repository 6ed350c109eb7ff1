// Filter declarations (/v1/filters) as the editor's controls need them.
// A parameter's `range` is the engine's text for its kind
// (ParameterSpec.rangeDescription): "MIN…MAX[ UNIT][, in steps of S]" for
// numbers, "a|b|c" for a choice, "true|false" for a switch, "text".

/** Each filter with its parameters typed: kind, min, max, step, choices. */
export function paramsFromFilters(filters) {
  return filters.map((filter) => ({
    ...filter,
    params: filter.parameters.map((p) => ({ ...p, ...kindOf(p) })),
  }));
}

const NUMBER = /^(-?[0-9.]+(?:e-?\d+)?)…(-?[0-9.]+(?:e-?\d+)?)(?: [^,]*)?(?:, in steps of ([0-9.]+))?$/;

export function kindOf(param) {
  const range = String(param.range);
  if (typeof param.default === "boolean") return { kind: "bool" };
  const number = range.match(NUMBER);
  if (number && typeof param.default === "number") {
    return { kind: "number", min: Number(number[1]), max: Number(number[2]), declaredStep: number[3] ? Number(number[3]) : null };
  }
  if (range === "text") return { kind: "text" };
  return { kind: "choice", choices: range.split("|") };
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
