// The curve tool: the curve filter's control points on a canvas. Drag a
// point to move it (between its neighbours), press on the curve's free
// space to add one (up to the filter's maximum), double-click a point to
// remove it (two stay). The line drawn is the engine's: a monotone cubic
// (Fritsch–Carlson), flat before the first point and after the last.

/** Tangents of points with strictly increasing x, as ToneCurve.runTangents in the engine. */
function runTangents(x, y) {
  const n = x.length;
  const d = [];
  for (let k = 0; k < n - 1; k++) d.push((y[k + 1] - y[k]) / (x[k + 1] - x[k]));
  const m = new Array(n).fill(0);
  m[0] = d[0];
  m[n - 1] = d[n - 2];
  for (let k = 1; k < n - 1; k++) m[k] = d[k - 1] * d[k] <= 0 ? 0 : (d[k - 1] + d[k]) / 2;
  for (let k = 0; k < n - 1; k++) {
    if (d[k] === 0) { m[k] = 0; m[k + 1] = 0; continue; }
    const a = m[k] / d[k], b = m[k + 1] / d[k], s = a * a + b * b;
    if (s > 9) { const t = 3 / Math.sqrt(s); m[k] = t * a * d[k]; m[k + 1] = t * b * d[k]; }
  }
  return m;
}

/** The curve through `points` ([{x, y}], x not decreasing) at v in 0…1. */
export function curveAt(points, v) {
  const n = points.length;
  if (v <= points[0].x) return points[0].y;
  if (v >= points[n - 1].x) return points[n - 1].y;
  // The run of strictly increasing x that holds v (equal x make a step).
  let k = 0;
  while (k < n - 1 && !(points[k].x <= v && v < points[k + 1].x)) k++;
  let start = k, end = k + 1;
  while (start > 0 && points[start - 1].x < points[start].x) start--;
  while (end < n - 1 && points[end + 1].x > points[end].x) end++;
  const run = points.slice(start, end + 1);
  const m = runTangents(run.map((p) => p.x), run.map((p) => p.y));
  const i = k - start, h = run[i + 1].x - run[i].x, t = (v - run[i].x) / h;
  const y0 = run[i].y, y1 = run[i + 1].y, m0 = m[i] * h, m1 = m[i + 1] * h;
  return ((((2 * (y0 - y1) + m0 + m1) * t + (3 * (y1 - y0) - 2 * m0 - m1)) * t + m0) * t + y0);
}

export class CurveEditor {
  /**
   * canvas: the drawing surface; points(): the current points; onChange(points)
   * with the new points (x not decreasing) after every edit; max: the most points.
   */
  constructor(canvas, points, onChange, max) {
    this.canvas = canvas;
    this.points = points;
    this.onChange = onChange;
    this.max = max;
    this.drag = null;
    canvas.addEventListener("pointerdown", (event) => this.press(event));
    canvas.addEventListener("pointermove", (event) => this.move(event));
    canvas.addEventListener("pointerup", () => this.release());
    canvas.addEventListener("pointercancel", () => this.release());
    canvas.addEventListener("dblclick", (event) => this.remove(event));
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** Canvas pixels (device) of a point on the 0…1 scales. */
  at(p) {
    const { width, height } = this.canvas;
    const pad = this.pad();
    return [pad + p.x * (width - 2 * pad), height - pad - p.y * (height - 2 * pad)];
  }

  pad() { return 8 * (window.devicePixelRatio || 1); }

  /** The 0…1 values under a pointer event. */
  value(event) {
    const r = this.canvas.getBoundingClientRect();
    const pad = this.pad() / (this.canvas.width / r.width);
    const x = (event.clientX - r.left - pad) / (r.width - 2 * pad);
    const y = 1 - (event.clientY - r.top - pad) / (r.height - 2 * pad);
    return { x: Math.min(1, Math.max(0, x)), y: Math.min(1, Math.max(0, y)) };
  }

  /** The index of the point within reach of a pointer event, or -1. */
  hit(event) {
    const r = this.canvas.getBoundingClientRect();
    const scale = this.canvas.width / r.width;
    const px = (event.clientX - r.left) * scale, py = (event.clientY - r.top) * scale;
    let best = -1, bestDistance = 12 * scale;
    this.points().forEach((p, i) => {
      const [cx, cy] = this.at(p);
      const distance = Math.hypot(cx - px, cy - py);
      if (distance < bestDistance) { best = i; bestDistance = distance; }
    });
    return best;
  }

  press(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    let points = this.points().map((p) => ({ ...p }));
    let index = this.hit(event);
    if (index < 0) {
      if (points.length >= this.max) return;
      const v = this.value(event);
      index = points.findIndex((p) => p.x > v.x);
      if (index < 0) index = points.length;
      points.splice(index, 0, v);
      this.onChange(points);
    }
    this.drag = index;
    this.canvas.setPointerCapture(event.pointerId);
    this.draw();
  }

  move(event) {
    if (this.drag === null) return;
    const points = this.points().map((p) => ({ ...p }));
    const v = this.value(event);
    const i = this.drag;
    // Between its neighbours, so x never decreases.
    const lo = i > 0 ? points[i - 1].x : 0, hi = i < points.length - 1 ? points[i + 1].x : 1;
    points[i] = { x: Math.round(Math.min(hi, Math.max(lo, v.x)) * 1000) / 1000, y: Math.round(v.y * 1000) / 1000 };
    this.onChange(points);
    this.draw();
  }

  release() { this.drag = null; this.draw(); }

  remove(event) {
    const index = this.hit(event);
    const points = this.points();
    if (index < 0 || points.length <= 2) return;
    this.onChange(points.filter((_, i) => i !== index));
    this.draw();
  }

  draw() {
    const canvas = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const size = Math.round(canvas.getBoundingClientRect().width * ratio);
    if (size && canvas.width !== size) { canvas.width = size; canvas.height = size; }
    const g = canvas.getContext("2d");
    const { width, height } = canvas;
    const pad = this.pad();
    g.clearRect(0, 0, width, height);
    g.fillStyle = "#0e0f11";
    g.fillRect(0, 0, width, height);
    g.strokeStyle = "#3a3f45";
    g.lineWidth = ratio;
    for (let q = 0; q <= 4; q++) {
      const [x] = this.at({ x: q / 4, y: 0 }), [, y] = this.at({ x: 0, y: q / 4 });
      g.beginPath(); g.moveTo(x, pad); g.lineTo(x, height - pad); g.stroke();
      g.beginPath(); g.moveTo(pad, y); g.lineTo(width - pad, y); g.stroke();
    }
    g.setLineDash([4 * ratio, 4 * ratio]);
    g.beginPath(); g.moveTo(...this.at({ x: 0, y: 0 })); g.lineTo(...this.at({ x: 1, y: 1 })); g.stroke();
    g.setLineDash([]);
    const points = this.points();
    g.strokeStyle = "#e8eaed";
    g.lineWidth = 2 * ratio;
    g.beginPath();
    const steps = 128;
    for (let s = 0; s <= steps; s++) {
      const x = s / steps;
      const [cx, cy] = this.at({ x, y: Math.min(1, Math.max(0, curveAt(points, x))) });
      if (s === 0) g.moveTo(cx, cy); else g.lineTo(cx, cy);
    }
    g.stroke();
    points.forEach((p, i) => {
      const [cx, cy] = this.at(p);
      g.beginPath();
      g.arc(cx, cy, 5 * ratio, 0, 2 * Math.PI);
      g.fillStyle = i === this.drag ? "#6cb4ff" : "#e8eaed";
      g.fill();
      g.strokeStyle = "#16181b";
      g.lineWidth = 1.5 * ratio;
      g.stroke();
    });
  }
}
