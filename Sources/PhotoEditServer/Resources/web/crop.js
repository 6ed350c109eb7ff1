// The crop tool: a rectangle over the uncropped photo, moved and resized
// with the pointer (eight handles) or the keyboard, optionally held to an
// aspect ratio. Its value is the crop filter's rect mode: x, y, w, h as
// fractions (0…1, top-left origin) of the image after rotate, flip and
// straighten, which is the image the tool is drawn over.

const MIN = 0.02;   // the smallest side, as a fraction of the image

/** Aspect presets: [value, label, width / height or null]. "original" is the image's own ratio. */
export const ASPECTS = [
  ["free", "Free", null],
  ["original", "Original", "original"],
  ["1:1", "1:1 (square)", 1],
  ["3:2", "3:2", 3 / 2],
  ["4:3", "4:3", 4 / 3],
  ["16:9", "16:9", 16 / 9],
];

const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v));

const SNAP = 0.002;  // a side this close to the image's edge is on it (a drag's last pixel, float noise)

/**
 * A crop rectangle as the filter stores it: 4 decimals, never past the
 * image (x + w ≤ 1), and a side within SNAP of the image's edge on the edge
 * (a frame dragged back to a corner is not left 0.0004 off it).
 */
export function rounded(rect) {
  let left = rect.x, top = rect.y, right = rect.x + rect.w, bottom = rect.y + rect.h;
  if (left < SNAP) left = 0;
  if (top < SNAP) top = 0;
  if (right > 1 - SNAP) right = 1;
  if (bottom > 1 - SNAP) bottom = 1;
  const x = clamp(Math.round(left * 1e4) / 1e4, 0, 1 - MIN);
  const y = clamp(Math.round(top * 1e4) / 1e4, 0, 1 - MIN);
  const w = clamp(Math.round((right - left) * 1e4) / 1e4, MIN, Math.floor((1 - x) * 1e4 + 1e-6) / 1e4);
  const h = clamp(Math.round((bottom - top) * 1e4) / 1e4, MIN, Math.floor((1 - y) * 1e4 + 1e-6) / 1e4);
  return { x, y, w, h };
}

/** The largest rectangle of `ratio` (pixels, width / height) centred on (cx, cy) inside the image of `imageRatio`. */
export function fitted(ratio, imageRatio, cx = 0.5, cy = 0.5) {
  // In fractions of the image, w / h = ratio / imageRatio.
  const k = ratio / imageRatio;
  let w = 1, h = 1 / k;
  if (h > 1) { h = 1; w = k; }
  // As large as fits around the centre asked for.
  const scale = Math.min(1, 2 * Math.min(cx, 1 - cx) / w, 2 * Math.min(cy, 1 - cy) / h);
  const [sw, sh] = scale * w < MIN || scale * h < MIN ? [w, h] : [w * scale, h * scale];
  return { x: clamp(cx - sw / 2, 0, 1 - sw), y: clamp(cy - sh / 2, 0, 1 - sh), w: sw, h: sh };
}

export class CropTool {
  /**
   * viewer: the positioned box the image is shown in; image: the <img>
   * (object-fit: contain) showing the uncropped photo; onChange(rect) after
   * every move.
   */
  constructor(viewer, image, onChange) {
    this.viewer = viewer;
    this.image = image;
    this.onChange = onChange;
    this.rect = { x: 0, y: 0, w: 1, h: 1 };
    this.ratio = null;          // width / height in pixels, or null (free)
    this.overlay = document.createElement("div");
    this.overlay.className = "crop-overlay";
    this.overlay.hidden = true;
    this.box = document.createElement("div");
    this.box.className = "crop-rect";
    this.box.tabIndex = 0;
    this.box.setAttribute("role", "group");
    this.box.setAttribute("aria-label", "Crop rectangle: arrow keys move it, Shift+arrow keys resize it");
    for (const edge of ["nw", "n", "ne", "e", "se", "s", "sw", "w"]) {
      const handle = document.createElement("span");
      handle.className = `crop-handle crop-${edge}`;
      handle.dataset.edge = edge;
      this.box.append(handle);
    }
    for (const line of ["v1", "v2", "h1", "h2"]) {
      const third = document.createElement("span");
      third.className = `crop-third crop-${line}`;
      this.box.append(third);
    }
    this.overlay.append(this.box);
    viewer.append(this.overlay);
    this.box.addEventListener("pointerdown", (event) => this.grab(event));
    this.box.addEventListener("keydown", (event) => this.key(event));
    this.resize = new ResizeObserver(() => this.layout());
    this.resize.observe(viewer);
    image.addEventListener("load", () => this.layout());
  }

  /** The image's pixel ratio (width / height), once it is loaded. */
  get imageRatio() {
    return this.image.naturalWidth && this.image.naturalHeight ? this.image.naturalWidth / this.image.naturalHeight : 1;
  }

  open(rect) {
    this.rect = { ...rect };
    this.overlay.hidden = false;
    this.layout();
  }

  close() { this.overlay.hidden = true; }

  get isOpen() { return !this.overlay.hidden; }

  /** Holds the rectangle to `ratio` (pixels, width / height; "original"; null: free), refitted around its centre. */
  setAspect(ratio) {
    this.ratio = ratio === "original" ? this.imageRatio : ratio;
    if (this.ratio) {
      const { x, y, w, h } = this.rect;
      this.rect = fitted(this.ratio, this.imageRatio, x + w / 2, y + h / 2);
      // Not smaller than needed: a square asked of a full frame is the largest square.
      const largest = fitted(this.ratio, this.imageRatio);
      if (largest.w * largest.h > this.rect.w * this.rect.h * 1.5) this.rect = largest;
    }
    this.changed();
  }

  set(rect) {
    this.rect = { ...this.rect, ...rect };
    if (this.ratio) {
      // A typed width or height keeps the ratio: the height follows the width.
      const k = this.ratio / this.imageRatio;
      if ("h" in rect && !("w" in rect)) this.rect.w = this.rect.h * k; else this.rect.h = this.rect.w / k;
    }
    this.rect = this.bounded(this.rect);
    this.changed();
  }

  /** The rectangle moved back inside the image, as large as it can stay. */
  bounded(r) {
    let { x, y, w, h } = r;
    if (this.ratio) {
      const k = this.ratio / this.imageRatio;
      const scale = Math.min(1, 1 / w, 1 / h);
      w *= scale; h *= scale;
      if (w < MIN) { w = MIN; h = w / k; }
      if (h < MIN) { h = MIN; w = h * k; }
    } else {
      w = clamp(w, MIN, 1); h = clamp(h, MIN, 1);
    }
    return { x: clamp(x, 0, 1 - w), y: clamp(y, 0, 1 - h), w, h };
  }

  changed() {
    this.layout();
    this.onChange(rounded(this.rect));
  }

  /** Where the image is drawn inside the viewer (object-fit: contain), in CSS pixels. */
  drawn() {
    const box = this.image.getBoundingClientRect();
    const outer = this.viewer.getBoundingClientRect();
    const scale = Math.min(box.width / (this.image.naturalWidth || 1), box.height / (this.image.naturalHeight || 1));
    const width = (this.image.naturalWidth || 1) * scale, height = (this.image.naturalHeight || 1) * scale;
    return { left: box.left - outer.left + (box.width - width) / 2, top: box.top - outer.top + (box.height - height) / 2, width, height };
  }

  layout() {
    if (this.overlay.hidden || !this.image.naturalWidth) return;
    const d = this.drawn();
    Object.assign(this.overlay.style, { left: `${d.left}px`, top: `${d.top}px`, width: `${d.width}px`, height: `${d.height}px` });
    const { x, y, w, h } = this.rect;
    Object.assign(this.box.style, { left: `${x * 100}%`, top: `${y * 100}%`, width: `${w * 100}%`, height: `${h * 100}%` });
  }

  grab(event) {
    if (event.button !== 0) return;
    event.preventDefault();
    this.box.focus();
    const edge = event.target.dataset.edge || "move";
    const start = { px: event.clientX, py: event.clientY, rect: { ...this.rect } };
    const d = this.drawn();
    this.box.setPointerCapture(event.pointerId);
    this.overlay.classList.add("dragging");
    const move = (e) => {
      const dx = (e.clientX - start.px) / d.width, dy = (e.clientY - start.py) / d.height;
      this.rect = edge === "move" ? this.moved(start.rect, dx, dy) : this.resized(start.rect, edge, dx, dy);
      this.changed();
    };
    const up = () => {
      this.box.removeEventListener("pointermove", move);
      this.box.removeEventListener("pointerup", up);
      this.box.removeEventListener("pointercancel", up);
      this.overlay.classList.remove("dragging");
    };
    this.box.addEventListener("pointermove", move);
    this.box.addEventListener("pointerup", up);
    this.box.addEventListener("pointercancel", up);
  }

  moved(r, dx, dy) {
    return { ...r, x: clamp(r.x + dx, 0, 1 - r.w), y: clamp(r.y + dy, 0, 1 - r.h) };
  }

  /** `r` with the sides an edge or corner handle holds moved by (dx, dy); the opposite sides stay. */
  resized(r, edge, dx, dy) {
    let left = r.x, top = r.y, right = r.x + r.w, bottom = r.y + r.h;
    if (edge.includes("w")) left = clamp(left + dx, 0, right - MIN);
    if (edge.includes("e")) right = clamp(right + dx, left + MIN, 1);
    if (edge.includes("n")) top = clamp(top + dy, 0, bottom - MIN);
    if (edge.includes("s")) bottom = clamp(bottom + dy, top + MIN, 1);
    if (!this.ratio) return { x: left, y: top, w: right - left, h: bottom - top };
    // Held to a ratio: the side dragged sets the size, the other follows,
    // anchored at the opposite side or corner, and shrunk to stay inside.
    const k = this.ratio / this.imageRatio;
    let w = right - left, h = bottom - top;
    if (edge === "n" || edge === "s") w = h * k; else h = w / k;
    const cx = r.x + r.w / 2, cy = r.y + r.h / 2;
    const anchorX = edge.includes("w") ? right : edge.includes("e") ? left : cx;
    const anchorY = edge.includes("n") ? bottom : edge.includes("s") ? top : cy;
    // Room from the anchor towards the drag (both ways for a centred side).
    const roomX = edge.includes("w") ? anchorX : edge.includes("e") ? 1 - anchorX : 2 * Math.min(anchorX, 1 - anchorX);
    const roomY = edge.includes("n") ? anchorY : edge.includes("s") ? 1 - anchorY : 2 * Math.min(anchorY, 1 - anchorY);
    const scale = Math.min(1, roomX / w, roomY / h);
    w *= scale; h *= scale;
    const x = edge.includes("w") ? anchorX - w : edge.includes("e") ? anchorX : anchorX - w / 2;
    const y = edge.includes("n") ? anchorY - h : edge.includes("s") ? anchorY : anchorY - h / 2;
    return { x, y, w, h };
  }

  key(event) {
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (!step) return;
    event.preventDefault();
    const size = event.altKey ? 0.001 : 0.01;
    const [dx, dy] = [step[0] * size, step[1] * size];
    this.rect = event.shiftKey ? this.resized(this.rect, dx ? "e" : "s", dx, dy) : this.moved(this.rect, dx, dy);
    this.changed();
  }
}
