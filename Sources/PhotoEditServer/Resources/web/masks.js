// Local corrections (filter `local`) and healing/cloning spots (filter
// `retouch`) drawn on the photo. The model is the recipe JSON's (params
// {corrections: […]} and {spots: […]}, docs/recipe-format.md); the chain
// written from it is the engine's grammar (docs/chain-grammar.md), e.g.
//   local=radial(0.5 0.4 0.2 0.3 feather=0.6) exposure=+0.5
//   retouch=heal(0.3 0.4 0.02 0.03 0.05 0)
// Every range and default comes from /v1/filters (`structure`).
//
// Positions are fractions of the upright, uncropped photo: while the tools
// are open, the page shows the preview with the geometry filters (rotate,
// flip, straighten, crop) at neutral (maskEdit in app.js), so a point of the
// shown image maps straight to the mask's coordinates.

const number = (v) => {
  const text = String(Number(Number(v).toPrecision(6)));
  return text.includes("e") ? Number(v).toFixed(6) : text;
};

/** A parameter declaration by name from a list of them. */
const spec = (list, name) => list.find((p) => p.name === name);

/** CIE L*, a*, b* (D65, as libvips' Lab of scRGB) of an 8-bit sRGB colour. */
export function srgbToLab(r, g, b) {
  const lin = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  const R = lin(r / 255), G = lin(g / 255), B = lin(b / 255);
  const X = 0.4124 * R + 0.3576 * G + 0.1805 * B, Y = 0.2126 * R + 0.7152 * G + 0.0722 * B, Z = 0.0193 * R + 0.1192 * G + 0.9505 * B;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 * t + 16) / 116);
  const fx = f(X / 0.95047), fy = f(Y), fz = f(Z / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

const smoothstep = (t) => { const u = Math.min(1, Math.max(0, t)); return u * u * (3 - 2 * u); };

/** A range shape's value (0…1) at a pixel of lightness L* (0…100), chroma C* and hue h (degrees): the engine's formulas (Mask.swift). */
export function rangeValue(s, l, c, h) {
  if (s.type === "luminance") {
    const f = Math.max(s.feather ?? 0.1, 1e-3), v = l / 100;
    return smoothstep(Math.min((v - s.low) / f + 1, (s.high - v) / f + 1));
  }
  const f = Math.max(s.feather ?? 20, 1e-3);
  const d = Math.abs((((h - s.hue + 540) % 360) + 360) % 360 - 180);
  let m = smoothstep((s.width / 2 + f - d) / f);
  if ((s.chroma ?? 10) > 0) m *= smoothstep(c / s.chroma);
  return m;
}

/** The shape as the chain writes it (MaskChain.format); `rangeSpecs`: the
 * luminance and colour shapes' declarations, by type. */
export function formatShape(s, radialSpec, brushSpec, rangeSpecs = {}) {
  if (s.type === "linear") return `linear(${[s.x0, s.y0, s.x1, s.y1].map(number).join(" ")})`;
  if (s.type === "luminance" || s.type === "colour") {
    // Positional values first, then the options that differ from their defaults.
    const [positional, options] = s.type === "luminance" ? [["low", "high"], ["feather"]] : [["hue"], ["feather", "chroma"]];
    const list = rangeSpecs[s.type] || [];
    const args = positional.map((name) => number(s[name]));
    if (s.type === "colour" && s.width !== spec(list, "width")?.default) args.push(number(s.width));
    for (const name of options) {
      if (s[name] !== undefined && s[name] !== spec(list, name)?.default) args.push(`${name}=${number(s[name])}`);
    }
    return `${s.type}(${args.join(" ")})`;
  }
  if (s.type === "radial") {
    const args = [s.x, s.y, s.rx, s.ry].map(number);
    for (const name of ["angle", "roundness", "feather"]) {
      if (s[name] !== undefined && s[name] !== spec(radialSpec, name).default) args.push(`${name}=${number(s[name])}`);
    }
    if (s.inside === false) args.push("outside");
    return `radial(${args.join(" ")})`;
  }
  return "brush(" + s.strokes.map((k) => {
    const args = [];
    if (k.erase) args.push("erase");
    args.push(`r=${number(k.radius)}`);
    if (k.feather !== spec(brushSpec, "feather").default) args.push(`feather=${number(k.feather)}`);
    if (k.flow !== spec(brushSpec, "flow").default) args.push(`flow=${number(k.flow)}`);
    for (const [x, y] of k.points) args.push(`${number(x)}/${number(y)}`);
    return args.join(" ");
  }).join(" | ") + ")";
}

export class MaskEditor {
  /**
   * viewer: the box the photo is shown in; image: the <img> (object-fit:
   * contain); local, retouch: the two filters' declarations (with
   * `structure`); onChange() after every edit of the lists.
   */
  constructor(viewer, image, local, retouch, onChange) {
    this.viewer = viewer;
    this.image = image;
    this.local = local?.structure || null;
    this.retouch = retouch?.structure || null;
    this.onChange = onChange;
    this.corrections = [];
    this.spots = [];
    this.base = { corrections: "[]", spots: "[]" };
    this.selected = -1;          // the correction whose mask is shown and edited
    this.selectedSpot = -1;
    this.tool = null;            // null, "linear", "radial", "brush", "spot"
    this.drawAs = "new";         // "new" or a mode (add, subtract, intersect) on the selected correction
    this.erase = false;
    this.showMask = true;
    this.open = false;
    this.picking = null;         // a colour range whose hue the next press on the photo sets
    this.pixels = null;          // the shown photo's L*, C*, h at the overlay's size (range overlays)
    const shapeSpec = (type) => this.local?.shapes.find((s) => s.type === type)?.parameters || [];
    this.radialSpec = shapeSpec("radial");
    this.brushSpec = shapeSpec("brush");
    this.rangeSpecs = { luminance: shapeSpec("luminance"), colour: shapeSpec("colour") };
    this.brush = {};
    for (const p of this.brushSpec) if (p.type === "number") this.brush[p.name] = p.default;
    this.spotSpec = this.retouch?.parameters || [];
    this.spotMode = this.retouch?.modes.includes("heal") ? "heal" : this.retouch?.modes[0];
    this.spotSize = spec(this.spotSpec, "rx")?.default ?? 0.02;
    this.canvas = document.createElement("canvas");
    this.canvas.className = "mask-overlay";
    this.canvas.hidden = true;
    this.canvas.setAttribute("role", "img");
    this.canvas.setAttribute("aria-label", "Masks and spots drawn over the photo");
    viewer.append(this.canvas);
    this.canvas.addEventListener("pointerdown", (e) => this.down(e));
    this.canvas.addEventListener("pointermove", (e) => this.move(e));
    this.canvas.addEventListener("pointerup", (e) => this.up(e));
    this.canvas.addEventListener("pointercancel", (e) => this.up(e));
    new ResizeObserver(() => this.layout()).observe(viewer);
    image.addEventListener("load", () => this.layout());
  }

  // --- Model ---------------------------------------------------------------

  /** Takes the saved lists (recipe JSON params of local and retouch). */
  load(localParams, retouchParams) {
    this.corrections = structuredClone(localParams?.corrections || []);
    this.spots = structuredClone(retouchParams?.spots || []);
    this.base = { corrections: JSON.stringify(this.corrections), spots: JSON.stringify(this.spots) };
    this.selected = this.corrections.length ? 0 : -1;
    this.selectedSpot = -1;
    this.activeBrush = null;
  }

  get localChanged() { return JSON.stringify(this.corrections) !== this.base.corrections; }
  get spotsChanged() { return JSON.stringify(this.spots) !== this.base.spots; }

  /** The chain steps of what changed: {steps, remove}. The first local= step replaces the photo's list, the next ones add. */
  pending() {
    const steps = [], remove = [];
    if (this.localChanged) {
      if (!this.corrections.length) remove.push("local");
      for (const c of this.corrections) steps.push(`local=${this.formatCorrection(c)}`);
    }
    if (this.spotsChanged) {
      if (!this.spots.length) remove.push("retouch");
      else steps.push(`retouch=${this.spots.map((s) => this.formatSpot(s)).join(" ")}`);
    }
    return { steps, remove };
  }

  formatCorrection(c) {
    const items = c.mask.shapes.map((s, i) => (i === 0 ? "" : { add: "+", subtract: "-", intersect: "&" }[s.mode || "add"])
      + formatShape(s, this.radialSpec, this.brushSpec, this.rangeSpecs));
    if (c.mask.invert) items.push("invert");
    for (const a of this.local.amounts) {
      const v = c.amounts[a.name];
      if (v) items.push(`${a.name}=${v > 0 && a.min < 0 ? "+" : ""}${number(v)}`);
    }
    if (c.enabled === false) items.push("off");
    return items.join(" ");
  }

  formatSpot(s) {
    const args = [s.x, s.y, s.rx, s.ry, s.dx, s.dy].map(number);
    for (const name of ["feather", "opacity"]) if (s[name] !== spec(this.spotSpec, name).default) args.push(`${name}=${number(s[name])}`);
    if (s.enabled === false) args.push("off");
    return `${s.mode}(${args.join(" ")})`;
  }

  changed() { this.draw(); this.onChange(); }

  // --- Geometry --------------------------------------------------------------

  /** The shown image's content box inside the viewer (object-fit: contain), in CSS pixels. */
  box() {
    const img = this.image, v = this.viewer.getBoundingClientRect(), r = img.getBoundingClientRect();
    if (!img.naturalWidth) return null;
    const scale = Math.min(r.width / img.naturalWidth, r.height / img.naturalHeight);
    const w = img.naturalWidth * scale, h = img.naturalHeight * scale;
    return { left: r.left - v.left + (r.width - w) / 2, top: r.top - v.top + (r.height - h) / 2, w, h };
  }

  layout() {
    const b = this.box();
    if (!b || !this.open) return;
    Object.assign(this.canvas.style, { left: `${b.left}px`, top: `${b.top}px`, width: `${b.w}px`, height: `${b.h}px` });
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.max(1, Math.round(b.w * dpr));
    this.canvas.height = Math.max(1, Math.round(b.h * dpr));
    this.draw();
  }

  /** A pointer event → a point of the photo (fractions). */
  point(e) {
    const r = this.canvas.getBoundingClientRect();
    return { x: (e.clientX - r.left) / r.width, y: (e.clientY - r.top) / r.height };
  }

  setOpen(open) {
    this.open = open;
    this.canvas.hidden = !open;
    if (open) this.layout();
  }

  setTool(tool) {
    this.tool = tool;
    this.picking = null;
    this.activeBrush = null;
    this.canvas.classList.toggle("drawing", !!tool);
    this.draw();
  }

  // --- Pointer ------------------------------------------------------------------

  down(e) {
    if (this.picking) {
      e.preventDefault();
      const lch = this.sample(this.point(e));
      if (lch) this.picking.hue = Math.round(lch[2] * 10) / 10;
      this.picking = null;
      this.canvas.classList.toggle("drawing", !!this.tool);
      this.changed();
      return;
    }
    if (!this.tool && !this.grabHandle(e)) return;
    e.preventDefault();
    this.canvas.setPointerCapture(e.pointerId);
    const p = this.point(e);
    if (this.drag) { this.drag.start = p; return; }
    if (this.tool === "linear") this.drag = { kind: "linear", start: p, shape: { type: "linear", x0: p.x, y0: p.y, x1: p.x, y1: p.y } };
    else if (this.tool === "radial") this.drag = { kind: "radial", start: p, shape: this.radial(p, p) };
    else if (this.tool === "brush") this.drag = { kind: "brush", start: p, points: [[p.x, p.y]] };
    else if (this.tool === "spot") this.drag = { kind: "spot", start: p, end: p };
    this.draw();
  }

  radial(a, b) {
    const s = { type: "radial", x: (a.x + b.x) / 2, y: (a.y + b.y) / 2, rx: Math.abs(b.x - a.x) / 2, ry: Math.abs(b.y - a.y) / 2 };
    for (const p of this.radialSpec) if (!(p.name in s)) s[p.name] = p.default;
    return s;
  }

  move(e) {
    const d = this.drag;
    if (!d) return;
    const p = this.point(e);
    if (d.kind === "linear") Object.assign(d.shape, { x1: p.x, y1: p.y });
    else if (d.kind === "radial") d.shape = this.radial(d.start, p);
    else if (d.kind === "brush") {
      const [lx, ly] = d.points[d.points.length - 1];
      // A point every quarter of the radius is enough for a smooth stroke.
      const r = this.brush.radius * Math.min(1, this.aspect());
      const room = d.points.length < this.local.limits.pointsPerStroke;
      if (room && Math.hypot(p.x - lx, (p.y - ly) * this.aspect()) >= r / 4) d.points.push([p.x, p.y]);
    } else if (d.kind === "spot") d.end = p;
    else if (d.kind === "handle") d.apply(p);
    this.draw();
  }

  /** Height / width of the shown photo. */
  aspect() { return this.image.naturalWidth ? this.image.naturalHeight / this.image.naturalWidth : 1; }

  up(e) {
    const d = this.drag;
    this.drag = null;
    if (!d) return;
    if (this.canvas.hasPointerCapture(e.pointerId)) this.canvas.releasePointerCapture(e.pointerId);
    if (d.kind === "handle") { this.changed(); return; }
    const clamp = (v) => Math.min(2, Math.max(-1, v));
    const round = (v) => Math.round(clamp(v) * 10000) / 10000;
    if (d.kind === "linear") {
      const s = d.shape;
      if (Math.hypot(s.x1 - s.x0, s.y1 - s.y0) < 0.005) { this.draw(); return; }
      for (const k of ["x0", "y0", "x1", "y1"]) s[k] = round(s[k]);
      this.addShape(s);
    } else if (d.kind === "radial") {
      const s = d.shape;
      if (s.rx < 0.005 || s.ry < 0.005) { this.draw(); return; }
      for (const k of ["x", "y", "rx", "ry"]) s[k] = round(s[k]);
      this.addShape(s);
    } else if (d.kind === "brush") {
      const stroke = { radius: this.brush.radius, feather: this.brush.feather, flow: this.brush.flow, erase: this.erase,
                       points: d.points.map(([x, y]) => [round(x), round(y)]) };
      this.addStroke(stroke);
    } else if (d.kind === "spot") {
      let dx = d.end.x - d.start.x, dy = d.end.y - d.start.y;
      // A click without a drag takes its source beside it (one diameter to the right).
      if (Math.hypot(dx, dy) < 0.003) { dx = this.spotSize * 2.5; dy = 0; }
      const s = { mode: this.spotMode, x: round(d.start.x), y: round(d.start.y), rx: this.spotSize,
                  ry: Math.round(this.spotSize / this.aspect() * 10000) / 10000,
                  dx: Math.round(dx * 10000) / 10000, dy: Math.round(dy * 10000) / 10000, enabled: true };
      for (const p of this.spotSpec) if (!(p.name in s)) s[p.name] = p.default;
      if (this.spots.length >= this.retouch.limits.spots) return;
      this.spots.push(s);
      this.selectedSpot = this.spots.length - 1;
    }
    this.changed();
  }

  /** A new correction with `shape`, or the shape combined into the selected one. */
  addShape(shape) {
    const c = this.corrections[this.selected], limits = this.local.limits;
    if (this.drawAs !== "new" && c) {
      if (c.mask.shapes.length >= limits.shapesPerMask) return;
      shape.mode = this.drawAs;
      c.mask.shapes.push(shape);
    } else {
      if (this.corrections.length >= limits.corrections) return;
      shape.mode = "add";
      this.corrections.push({ enabled: true, amounts: {}, mask: { invert: false, shapes: [shape] } });
      this.selected = this.corrections.length - 1;
    }
  }

  addStroke(stroke) {
    // Strokes go on the selected correction's last brush while the brush is
    // the tool (erasing: always there); else a new brush shape.
    const c = this.corrections[this.selected];
    const last = c?.mask.shapes.findLast((s) => s.type === "brush");
    if (last && (this.activeBrush === last || stroke.erase)) {
      if (last.strokes.length < this.local.limits.strokesPerBrush) last.strokes.push(stroke);
      return;
    }
    if (stroke.erase) return;   // nothing to erase
    const shape = { type: "brush", strokes: [stroke] };
    this.addShape(shape);
    this.activeBrush = shape;
  }

  /** A luminance or colour range at its declared defaults: a new
   * correction of its own, or combined with the selected one as `drawAs` says. */
  addRange(type) {
    const shape = { type };
    for (const p of this.rangeSpecs[type] || []) if (p.type === "number") shape[p.name] = p.default;
    this.addShape(shape);
    this.changed();
    return shape;
  }

  /** The next press on the photo sets `shape`'s hue to the colour there. */
  pickHue(shape) {
    this.picking = shape;
    this.canvas.classList.add("drawing");
  }

  /** CIE L*, C*, h of the shown photo around a point (fractions), 5×5 pixels averaged. */
  sample(p) {
    const img = this.image;
    if (!img.naturalWidth) return null;
    const c = new OffscreenCanvas(5, 5), g = c.getContext("2d");
    g.drawImage(img, p.x * img.naturalWidth - 2.5, p.y * img.naturalHeight - 2.5, 5, 5, 0, 0, 5, 5);
    const d = g.getImageData(0, 0, 5, 5).data;
    const mean = [0, 1, 2].map((k) => { let t = 0; for (let i = k; i < d.length; i += 4) t += d[i]; return t / 25; });
    const [l, a, b] = srgbToLab(...mean);
    return [l, Math.hypot(a, b), (Math.atan2(b, a) * 180 / Math.PI + 360) % 360];
  }

  /** L*, C*, h per pixel of the shown photo at W×H (kept while the photo and size stay). */
  lch(W, H) {
    const key = `${this.image.currentSrc}|${W}|${H}`;
    if (this.pixels?.key === key) return this.pixels;
    const c = new OffscreenCanvas(W, H), g = c.getContext("2d");
    g.drawImage(this.image, 0, 0, W, H);
    const d = g.getImageData(0, 0, W, H).data, n = W * H;
    const out = { key, l: new Float32Array(n), c: new Float32Array(n), h: new Float32Array(n) };
    for (let i = 0; i < n; i++) {
      const [l, a, b] = srgbToLab(d[4 * i], d[4 * i + 1], d[4 * i + 2]);
      out.l[i] = l; out.c[i] = Math.hypot(a, b); out.h[i] = (Math.atan2(b, a) * 180 / Math.PI + 360) % 360;
    }
    this.pixels = out;
    return out;
  }

  /** Without a drawing tool, a press on a handle of the selected correction or spot moves it. */
  grabHandle(e) {
    const p = this.point(e), r = this.canvas.getBoundingClientRect();
    const near = (x, y) => Math.hypot((x - p.x) * r.width, (y - p.y) * r.height) < 10;
    const s = this.spots[this.selectedSpot];
    if (s && near(s.x + s.dx, s.y + s.dy)) {
      this.drag = { kind: "handle", apply: (q) => { s.dx = round4(q.x - s.x); s.dy = round4(q.y - s.y); } };
      return true;
    }
    if (s && near(s.x, s.y)) {
      this.drag = { kind: "handle", apply: (q) => { s.x = round4(q.x); s.y = round4(q.y); } };
      return true;
    }
    const c = this.corrections[this.selected];
    for (const shape of c?.mask.shapes || []) {
      if (shape.type === "linear") {
        if (near(shape.x0, shape.y0)) { this.drag = { kind: "handle", apply: (q) => { shape.x0 = round4(q.x); shape.y0 = round4(q.y); } }; return true; }
        if (near(shape.x1, shape.y1)) { this.drag = { kind: "handle", apply: (q) => { shape.x1 = round4(q.x); shape.y1 = round4(q.y); } }; return true; }
      } else if (shape.type === "radial") {
        if (near(shape.x, shape.y)) { this.drag = { kind: "handle", apply: (q) => { shape.x = round4(q.x); shape.y = round4(q.y); } }; return true; }
        const a = (shape.angle || 0) * Math.PI / 180, k = this.aspect();
        // The ends of the ellipse's axes, turned in pixel space.
        const ex = shape.x + shape.rx * Math.cos(a), ey = shape.y + shape.rx * Math.sin(a) / k;
        if (near(ex, ey)) {
          this.drag = { kind: "handle", apply: (q) => {
            const vx = q.x - shape.x, vy = (q.y - shape.y) * k;
            shape.rx = Math.max(0.001, round4(Math.hypot(vx, vy)));
            shape.angle = Math.round(Math.atan2(vy, vx) * 1800 / Math.PI) / 10;
          } };
          return true;
        }
        const fx = shape.x - shape.ry * k * Math.sin(a), fy = shape.y + shape.ry * Math.cos(a);
        if (near(fx, fy)) {
          this.drag = { kind: "handle", apply: (q) => {
            const vx = (q.x - shape.x) / k, vy = q.y - shape.y;
            shape.ry = Math.max(0.001, round4(Math.hypot(vx, vy)));
          } };
          return true;
        }
      }
    }
    return false;
  }

  // --- Drawing -------------------------------------------------------------------

  draw() {
    const cv = this.canvas;
    if (cv.hidden) return;
    const g = cv.getContext("2d");
    const W = cv.width, H = cv.height, dpr = window.devicePixelRatio || 1;
    g.clearRect(0, 0, W, H);
    const c = this.corrections[this.selected];
    const preview = this.drag && ["linear", "radial"].includes(this.drag.kind) ? this.drag.shape : null;
    if (this.showMask && c) {
      const mask = this.maskCanvas(c, W, H);
      g.save();
      g.globalAlpha = 0.45;
      g.fillStyle = "#ff2a55";
      g.fillRect(0, 0, W, H);
      g.globalCompositeOperation = "destination-in";
      g.globalAlpha = 1;
      g.drawImage(mask, 0, 0);
      g.restore();
    }
    g.lineWidth = 1.5 * dpr;
    for (const shape of [...(c?.mask.shapes || []), ...(preview ? [preview] : [])]) this.outline(g, shape, W, H, dpr);
    if (this.drag?.kind === "brush") {
      g.strokeStyle = this.erase ? "rgba(0,0,0,0.6)" : "rgba(255,255,255,0.7)";
      g.lineWidth = 2 * this.brush.radius * Math.min(W, H);
      g.lineCap = g.lineJoin = "round";
      g.beginPath();
      this.drag.points.forEach(([x, y], i) => (i ? g.lineTo(x * W, y * H) : g.moveTo(x * W, y * H)));
      if (this.drag.points.length === 1) g.lineTo(this.drag.points[0][0] * W + 0.01, this.drag.points[0][1] * H);
      g.stroke();
    }
    this.spots.forEach((s, i) => this.spotOutline(g, s, W, H, dpr, i === this.selectedSpot));
    if (this.drag?.kind === "spot") {
      const { start, end } = this.drag;
      const s = { x: start.x, y: start.y, rx: this.spotSize, ry: this.spotSize / this.aspect(), dx: end.x - start.x, dy: end.y - start.y };
      this.spotOutline(g, s, W, H, dpr, true);
    }
  }

  /** The correction's mask as the alpha of a W×H canvas (the engine's shapes, drawn approximately: roundness is not shown;
   * ranges measured on the shown photo). */
  maskCanvas(c, W, H) {
    const out = new OffscreenCanvas(W, H), o = out.getContext("2d");
    c.mask.shapes.forEach((shape, i) => {
      const layer = new OffscreenCanvas(W, H), g = layer.getContext("2d");
      this.fillShape(g, shape, W, H);
      o.globalCompositeOperation = i === 0 ? "source-over"
        : { add: "source-over", subtract: "destination-out", intersect: "destination-in" }[shape.mode || "add"];
      o.drawImage(layer, 0, 0);
    });
    if (c.mask.invert) {
      const inv = new OffscreenCanvas(W, H), g = inv.getContext("2d");
      g.fillStyle = "#fff";
      g.fillRect(0, 0, W, H);
      g.globalCompositeOperation = "destination-out";
      g.drawImage(out, 0, 0);
      return inv;
    }
    return out;
  }

  fillShape(g, s, W, H) {
    if (s.type === "luminance" || s.type === "colour") {
      // Measured on the shown photo (the engine measures the photo as it enters the corrections).
      if (!this.image.naturalWidth) return;
      const px = this.lch(W, H), img = g.createImageData(W, H);
      for (let i = 0; i < W * H; i++) {
        img.data[4 * i] = img.data[4 * i + 1] = img.data[4 * i + 2] = 255;
        img.data[4 * i + 3] = Math.round(255 * rangeValue(s, px.l[i], px.c[i], px.h[i]));
      }
      g.putImageData(img, 0, 0);
    } else if (s.type === "linear") {
      const grad = g.createLinearGradient(s.x0 * W, s.y0 * H, s.x1 * W, s.y1 * H);
      grad.addColorStop(0, "rgba(255,255,255,0)");
      grad.addColorStop(1, "rgba(255,255,255,1)");
      g.fillStyle = grad;
      g.fillRect(0, 0, W, H);
    } else if (s.type === "radial") {
      const feather = s.feather ?? 0.5;
      g.save();
      g.translate(s.x * W, s.y * H);
      g.rotate((s.angle || 0) * Math.PI / 180);
      g.scale(Math.max(s.rx * W, 0.01), Math.max(s.ry * H, 0.01));
      const grad = g.createRadialGradient(0, 0, Math.max(0, 1 - feather), 0, 0, 1);
      const inside = s.inside !== false;
      grad.addColorStop(0, inside ? "rgba(255,255,255,1)" : "rgba(255,255,255,0)");
      grad.addColorStop(1, inside ? "rgba(255,255,255,0)" : "rgba(255,255,255,1)");
      g.fillStyle = grad;
      if (inside) { g.beginPath(); g.arc(0, 0, 1, 0, 2 * Math.PI); g.fill(); } else g.fillRect(-1e4, -1e4, 2e4, 2e4);
      g.restore();
    } else if (s.type === "brush") {
      const side = Math.min(W, H);
      for (const k of s.strokes) {
        g.save();
        g.globalCompositeOperation = k.erase ? "destination-out" : "source-over";
        g.globalAlpha = k.flow ?? 1;
        g.strokeStyle = "#fff";
        const r = k.radius * side;
        g.filter = (k.feather ?? 0.5) > 0 ? `blur(${(r * (k.feather ?? 0.5)) / 2}px)` : "none";
        g.lineWidth = 2 * r * (1 - (k.feather ?? 0.5) / 2);
        g.lineCap = g.lineJoin = "round";
        g.beginPath();
        k.points.forEach(([x, y], i) => (i ? g.lineTo(x * W, y * H) : g.moveTo(x * W, y * H)));
        if (k.points.length === 1) g.lineTo(k.points[0][0] * W + 0.01, k.points[0][1] * H);
        g.stroke();
        g.restore();
      }
    }
  }

  outline(g, s, W, H, dpr) {
    g.save();
    g.strokeStyle = "rgba(255,255,255,0.9)";
    g.fillStyle = "#fff";
    const dot = (x, y) => { g.beginPath(); g.arc(x, y, 5 * dpr, 0, 2 * Math.PI); g.fill(); g.stroke(); };
    if (s.type === "linear") {
      // The two lines (no effect, full effect) across the photo, at right angles to the drag.
      const ax = s.x0 * W, ay = s.y0 * H, bx = s.x1 * W, by = s.y1 * H;
      const len = Math.hypot(bx - ax, by - ay) || 1, nx = -(by - ay) / len, ny = (bx - ax) / len, far = W + H;
      for (const [x, y, dash] of [[ax, ay, [6 * dpr, 4 * dpr]], [bx, by, []]]) {
        g.setLineDash(dash);
        g.beginPath(); g.moveTo(x - nx * far, y - ny * far); g.lineTo(x + nx * far, y + ny * far); g.stroke();
      }
      g.setLineDash([]);
      g.beginPath(); g.moveTo(ax, ay); g.lineTo(bx, by); g.stroke();
      g.strokeStyle = "#111";
      dot(ax, ay); dot(bx, by);
    } else if (s.type === "radial") {
      g.translate(s.x * W, s.y * H);
      g.rotate((s.angle || 0) * Math.PI / 180);
      const rx = s.rx * W, ry = s.ry * H;
      g.beginPath(); g.ellipse(0, 0, rx, ry, 0, 0, 2 * Math.PI); g.stroke();
      const f = 1 - (s.feather ?? 0.5);
      if (f > 0.01) { g.setLineDash([4 * dpr, 4 * dpr]); g.beginPath(); g.ellipse(0, 0, rx * f, ry * f, 0, 0, 2 * Math.PI); g.stroke(); g.setLineDash([]); }
      g.strokeStyle = "#111";
      dot(0, 0); dot(rx, 0); dot(0, ry);
    }
    g.restore();
  }

  spotOutline(g, s, W, H, dpr, selected) {
    g.save();
    g.lineWidth = (selected ? 2 : 1.2) * dpr;
    g.strokeStyle = s.enabled === false ? "rgba(255,255,255,0.4)" : "rgba(255,255,255,0.95)";
    const x = s.x * W, y = s.y * H, sx = (s.x + s.dx) * W, sy = (s.y + s.dy) * H;
    g.beginPath(); g.ellipse(x, y, s.rx * W, s.ry * H, 0, 0, 2 * Math.PI); g.stroke();
    g.setLineDash([4 * dpr, 3 * dpr]);
    g.beginPath(); g.ellipse(sx, sy, s.rx * W, s.ry * H, 0, 0, 2 * Math.PI); g.stroke();
    g.beginPath(); g.moveTo(x, y); g.lineTo(sx, sy); g.stroke();
    g.restore();
  }
}

const round4 = (v) => Math.round(Math.min(2, Math.max(-1, v)) * 10000) / 10000;
