// The photoedit web editor: the library as a grid, a photo page whose
// sliders are generated from the filter declarations (/v1/filters), live
// previews of unsaved edits, history, uploads, and live updates from the
// change feed. Plain modules, no build step; every request goes through api.js.

import { api, ApiError, describe } from "./api.js";
import { paramsFromFilters, chainValue, stepOf } from "./filters.js";
import { CropTool, ASPECTS, rounded, fitted } from "./crop.js";
import { CurveEditor } from "./curve.js";
import { MaskEditor } from "./masks.js";
import { setUpVersions, decorateTile, photoShown, decorateRevision, historyShown, openSavePreset } from "./versions.js";

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key in node && typeof value !== "string") node[key] = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child != null) node.append(child);
  return node;
};

const PAGE = 60;
const THUMB = { w: "360", h: "360", fit: "fill", format: "webp" };

const state = {
  filters: [],            // declarations, pipeline order
  presets: [],
  list: { where: "", sort: "", hidden: false, album: "", cursor: null, loading: false, ids: [] },
  albums: [],             // every album: {id, title, assets}
  photo: null,            // the photo shown (API JSON)
  base: {},               // filter id → params of the current recipe
  values: {},             // filter id → params as the sliders say
  pendingPreset: "",
  writing: false,         // a save, revert or go-to is in flight
  previewSeq: 0, shownSeq: 0, previewAbort: null, previewTimer: 0, previewURL: null,
};

// --- Messages --------------------------------------------------------------

function showError(error) {
  $("alert-text").textContent = typeof error === "string" ? error : describe(error);
  $("alert").hidden = false;
}
$("alert-close").addEventListener("click", () => { $("alert").hidden = true; });

let toastTimer = 0;
function toast(text) {
  const node = $("toast");
  node.textContent = text;
  node.classList.add("shown");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => node.classList.remove("shown"), 4000);
}

// The top bar is sticky and grows with its alert: what sticks below it
// (the photo, the panel) and scrolled-to elements keep clear of it.
new ResizeObserver(([entry]) => {
  document.documentElement.style.setProperty("--bar-h", `${Math.ceil(entry.target.getBoundingClientRect().height)}px`);
}).observe(document.querySelector("header.bar"));

// --- Token -----------------------------------------------------------------

api.askToken = (message) => new Promise((resolve, reject) => {
  const dialog = $("login");
  const error = $("login-error");
  error.textContent = message;
  error.hidden = !message;
  $("token").value = "";
  const form = $("login-form");
  const done = (event) => {
    event.preventDefault();
    const token = $("token").value.trim();
    if (!token) return;
    form.removeEventListener("submit", done);
    dialog.removeEventListener("cancel", cancel);
    api.setToken(token);
    $("sign-out").hidden = false;
    dialog.close();
    resolve();
  };
  const cancel = () => {
    form.removeEventListener("submit", done);
    dialog.removeEventListener("cancel", cancel);
    reject(new ApiError(401, "unauthenticated", "no API token given"));
  };
  form.addEventListener("submit", done);
  dialog.addEventListener("cancel", cancel);
  if (!dialog.open) dialog.showModal();
  $("token").focus();
});
$("sign-out").hidden = !api.token;
$("sign-out").addEventListener("click", () => { api.setToken(null); location.reload(); });

// --- Library ---------------------------------------------------------------

function listQuery() {
  // Each photo comes with its thumbnail's URL (signed when the server has keys): one request a page.
  const query = new URLSearchParams({ limit: String(PAGE), thumbnail: THUMB.w, thumbnailFormat: THUMB.format });
  if (state.list.where) query.set("where", state.list.where);
  if (state.list.sort) query.set("sort", state.list.sort);
  if (state.list.hidden) query.set("hidden", "true");
  if (state.list.album) query.set("album", state.list.album);
  if (state.list.cursor) query.set("cursor", state.list.cursor);
  return query;
}

async function loadLibrary(reset) {
  if (state.list.loading) return;
  if (reset) {
    state.list.cursor = null;
    state.list.ids = [];
    $("grid").replaceChildren();
  }
  state.list.loading = true;
  $("load-more").disabled = true;
  try {
    const page = await api.get(`/v1/assets?${listQuery()}`);
    for (const asset of page.assets) $("grid").append(tile(asset));
    state.list.ids.push(...page.assets.map((a) => a.id));
    state.list.cursor = page.nextCursor;
    $("load-more").hidden = !page.nextCursor;
    updateSummary();
  } catch (error) {
    showError(error);
    $("library-summary").textContent = "The photos could not be listed (the message above says why).";
  } finally {
    state.list.loading = false;
    $("load-more").disabled = false;
  }
}

function tile(asset) {
  const img = el("img", { alt: asset.originalFilename || "photo", loading: "lazy", decoding: "async",
                          width: "180", height: "180" });
  const link = el("a", { href: `#/photo/${asset.id}`, class: "tile-link" }, img,
                  el("span", { class: "tile-name", text: asset.originalFilename || asset.id.slice(0, 8) }));
  const node = el("li", { class: "tile", "data-id": asset.id, "data-rev": String(asset.revision) }, link);
  if (asset.isFavorite) node.classList.add("favorite");
  if (asset.isHidden) node.classList.add("hidden-photo");
  link.setAttribute("aria-label", `${asset.originalFilename || "photo"}${asset.isFavorite ? ", favorite" : ""}${asset.isHidden ? ", hidden" : ""}`);
  setThumb(img, asset);
  decorateTile(node, asset);
  return node;
}

async function setThumb(img, asset) {
  // The listing's URL when it opens here: signed and not about to expire,
  // or plain on a server that needs no token.
  const expires = asset.thumbnailURLExpires ? Date.parse(asset.thumbnailURLExpires) : null;
  if (asset.thumbnailURL && (expires ? expires > Date.now() + 60_000 : !api.token && !api.needsToken)) {
    img.src = asset.thumbnailURL;
    img.onerror = () => { img.onerror = null; setThumb(img, { ...asset, thumbnailURL: null }); };
    return;
  }
  try {
    img.src = await api.renderURL(asset.id, { ...THUMB, rev: String(asset.revision) });
    img.onerror = async () => {
      // An expired signature or a revision that moved on: fetch the photo again.
      img.onerror = null;
      api.forget(asset.id);
      try { setThumb(img, await api.get(`/v1/assets/${asset.id}`)); } catch { /* gone */ }
    };
  } catch (error) {
    img.alt = `${asset.originalFilename}: ${describe(error)}`;
  }
}

/** Brings one tile up to date (after a change from anyone). */
async function refreshTile(id, kind) {
  const find = () => document.querySelector(`.tile[data-id="${CSS.escape(id)}"]`);
  const drop = () => {
    find()?.remove();
    state.list.ids = state.list.ids.filter((x) => x !== id);
    updateSummary();
  };
  if (kind === "delete") { drop(); return; }
  let asset;
  try { asset = await api.get(`/v1/assets/${id}`); } catch { drop(); return; }
  if (asset.deletedDate || (asset.isHidden && !state.list.hidden)) { drop(); return; }
  // Looked up after the request: an upload and the change feed can both
  // announce the same new photo.
  const existing = find();
  if (existing) {
    if (existing.dataset.rev !== String(asset.revision) || kind !== "insert") {
      api.forget(id);
      existing.replaceWith(tile(asset));
    }
  } else if (kind === "insert" && !state.list.where && !state.list.sort && !state.list.cursor) {
    // Import order: a new photo goes last, once the last page is shown.
    $("grid").append(tile(asset));
    state.list.ids.push(id);
    updateSummary();
  }
}

function updateSummary() {
  const count = state.list.ids.length;
  $("library-summary").textContent = count === 0
    ? (state.list.where || state.list.album ? "No photo matches this search." : "No photos yet: drop some here or use Upload.")
    : `${count} photo${count === 1 ? "" : "s"}${state.list.cursor ? " shown, more below" : ""}`;
}

$("search").addEventListener("submit", (event) => {
  event.preventDefault();
  $("alert").hidden = true;   // a new search: the last one's error is old news
  state.list.where = $("where").value.trim();
  state.list.sort = $("sort").value;
  state.list.hidden = $("show-hidden").checked;
  state.list.album = $("album-filter").value;
  if (location.hash !== "#/" && location.hash !== "") location.hash = "#/";
  else loadLibrary(true);
});
$("load-more").addEventListener("click", () => loadLibrary(false));
new IntersectionObserver((entries) => {
  if (entries.some((e) => e.isIntersecting) && state.list.cursor && !$("library").hidden) loadLibrary(false);
}, { rootMargin: "600px" }).observe($("load-more"));

// --- Uploads ---------------------------------------------------------------

async function uploadFiles(files) {
  const list = $("upload-list");
  $("uploads").hidden = false;
  const queue = [...files].map((file) => {
    const bar = el("progress", { max: 1, value: 0, "aria-label": `Upload of ${file.name}` });
    const status = el("span", { class: "upload-status", text: "waiting" });
    const row = el("li", { class: "upload" }, el("span", { class: "upload-name", text: file.name }), bar, status);
    list.prepend(row);
    return { file, bar, status, row };
  });
  // Two at a time: enough to keep the link busy, few enough for the server's queue.
  const worker = async () => {
    for (let item = queue.shift(); item; item = queue.shift()) {
      item.status.textContent = "uploading";
      try {
        const { asset, existed } = await api.upload(item.file, (f) => { item.bar.value = f; });
        item.bar.value = 1;
        item.row.classList.add(existed ? "duplicate" : "done");
        item.status.replaceChildren(existed ? "already in the library: " : "uploaded: ",
          el("a", { href: `#/photo/${asset.id}`, text: "open" }));
        if (!existed) await refreshTile(asset.id, "insert");
      } catch (error) {
        item.row.classList.add("failed");
        item.status.textContent = describe(error);
      }
    }
  };
  await Promise.all([worker(), worker()]);
}

$("clear-uploads").addEventListener("click", () => {
  for (const row of document.querySelectorAll(".upload.done, .upload.duplicate, .upload.failed")) row.remove();
  $("uploads").hidden = !$("upload-list").children.length;
});
$("file-picker").addEventListener("change", (event) => {
  if (event.target.files.length) uploadFiles(event.target.files);
  event.target.value = "";
});
let dragDepth = 0;
document.addEventListener("dragenter", (event) => {
  if (!event.dataTransfer?.types.includes("Files")) return;
  dragDepth++;
  $("drop-hint").hidden = false;
});
document.addEventListener("dragleave", () => { if (--dragDepth <= 0) { dragDepth = 0; $("drop-hint").hidden = true; } });
document.addEventListener("dragover", (event) => { if (event.dataTransfer?.types.includes("Files")) event.preventDefault(); });
document.addEventListener("drop", (event) => {
  if (!event.dataTransfer?.files.length) return;
  event.preventDefault();
  dragDepth = 0;
  $("drop-hint").hidden = true;
  uploadFiles(event.dataTransfer.files);
});

// --- Photo page: sliders -------------------------------------------------

/** The current recipe's parameters by filter, when it is one of ours. */
function recipeParams(asset) {
  const data = asset.adjustmentData;
  if (!data || data.formatIdentifier !== "org.photoedit.recipe") return {};
  try {
    const recipe = JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(data.data), (c) => c.charCodeAt(0))));
    const out = {};
    for (const filter of recipe.filters || []) out[filter.id] = { ...filter.params };
    return out;
  } catch { return {}; }
}

function valueOf(filterID, param) {
  const v = state.values[filterID]?.[param.name];
  return v === undefined ? param.default : v;
}

function baseOf(filterID, param) {
  const v = state.base[filterID]?.[param.name];
  return v === undefined ? param.default : v;
}

function same(a, b) { return typeof a === "number" && typeof b === "number" ? Math.abs(a - b) < 1e-9 : a === b; }

/** What differs from the saved recipe: {chain, remove, changed}. */
function pendingEdit() {
  const steps = [];
  const remove = [];
  let changed = false;
  for (const filter of state.filters) {
    const diffs = filter.params.filter((p) => !same(valueOf(filter.id, p), baseOf(filter.id, p)));
    if (!diffs.length) continue;
    changed = true;
    const neutral = filter.params.every((p) => same(valueOf(filter.id, p), p.default));
    if (neutral && state.base[filter.id]) remove.push(filter.id);
    // A mode goes last: a step such as crop.aw=1 implies its own mode (aspect),
    // so the mode chosen must come after it to stand.
    diffs.sort((a, b) => (a.name === "mode") - (b.name === "mode"));
    for (const p of diffs) steps.push(`${filter.id}.${p.name}=${chainValue(p, valueOf(filter.id, p))}`);
  }
  if (masks) {
    const m = masks.pending();
    if (m.steps.length || m.remove.length) changed = true;
    steps.push(...m.steps);
    remove.push(...m.remove);
  }
  if (state.pendingPreset) { steps.unshift(`preset:${state.pendingPreset}`); changed = true; }
  return { chain: steps.join(","), remove, changed };
}

/**
 * The controls in the panels photographers know (Basic, Tone Curve, Colour,
 * Detail, Optics, Effects, Calibration), each filter where its declaration
 * places it (`editor` in /v1/filters: panel, title, position, section), so a
 * new filter lands in its stage's panel with no change here. The tools drawn
 * on the photo (local corrections, spots) come first, above the panels.
 */
function buildSliders() {
  const root = $("sliders");
  root.replaceChildren();
  const raw = state.photo && (state.photo.format === "raw" || state.photo.alternate);
  const panels = new Map();
  for (const filter of state.filters) {
    const place = filter.editor ?? { panel: filter.stage, title: filter.stage, position: Infinity };
    // RAW development applies to camera RAW data only.
    if (place.panel === "development" && !raw) continue;
    if (!panels.has(place.panel)) panels.set(place.panel, { ...place, sections: new Map() });
    const sections = panels.get(place.panel).sections;
    const section = place.section ?? "";
    if (!sections.has(section)) sections.set(section, []);
    sections.get(section).push(filter);
  }
  const openPanels = new Set(["basic", "toneCurve", "colour"]);
  for (const panel of [...panels.values()].sort((a, b) => a.position - b.position)) {
    const tools = panel.panel === "tools";
    const group = tools ? el("div", { class: "tool-group", "data-panel": panel.panel })
                        : el("details", { class: "panel-group", "data-panel": panel.panel }, el("summary", { text: panel.title }));
    if (openPanels.has(panel.panel)) group.open = true;
    for (const [section, filters] of panel.sections) {
      if (section && panel.sections.size > 1) group.append(el("h3", { class: "panel-section", text: section }));
      for (const filter of filters) group.append(filterControls(filter));
    }
    root.append(group);
  }
}

function filterControls(filter) {
  if (filter.structure && masks && (filter.id === "local" || filter.id === "retouch")) return maskControls(filter);
  if (filter.id === "curve" && filter.params.some((p) => p.name === "x1")) return curveControls(filter);
  // One parameter: a single row named after the filter. Several: a group
  // (collapsed when long) with a row per parameter.
  const single = filter.params.length === 1;
  const long = filter.params.length > 4;
  const box = el(single ? "div" : long ? "details" : "fieldset", { class: single ? "filter single" : "filter", "data-filter": filter.id });
  const reset = resetButton(filter, box);
  if (!single) {
    box.append(el(long ? "summary" : "legend", { title: filter.summary }, el("span", { class: "filter-name", text: filter.id }), reset));
  }
  for (const param of filter.params) box.append(paramControl(filter, param, single ? reset : null));
  return box;
}

function resetButton(filter, box) {
  return el("button", { type: "button", class: "reset", text: "↺", title: `Reset ${filter.id}`, "aria-label": `Reset ${filter.id}`,
    onclick: (event) => {
      event.preventDefault();
      for (const p of filter.params) setValue(filter.id, p, p.default);
      syncControls(box, filter);
      schedulePreview();
    } });
}

/**
 * The curve filter: its points on a canvas (curve.js) instead of sixteen
 * sliders; the channel menu above it, and every value as a number field in
 * "Point values" below (the keyboard's way in).
 */
function curveControls(filter) {
  const box = el("fieldset", { class: "filter curve", "data-filter": filter.id });
  box.append(el("legend", { title: filter.summary }, el("span", { class: "filter-name", text: filter.id }), resetButton(filter, box)));
  const param = (name) => filter.params.find((p) => p.name === name);
  if (param("channel")) box.append(paramControl(filter, param("channel"), null));
  const max = param("n")?.max ?? 8;
  const canvas = el("canvas", { class: "curve-canvas", width: "256", height: "256", role: "img",
    "aria-label": "Tone curve: drag a point to move it, press elsewhere to add one, double-click a point to remove it. Point values below take the keyboard." });
  const points = () => Array.from({ length: valueOf("curve", param("n")) }, (_, i) =>
    ({ x: valueOf("curve", param(`x${i + 1}`)), y: valueOf("curve", param(`y${i + 1}`)) }));
  const change = (next) => {
    setValue("curve", param("n"), next.length);
    for (let i = 1; i <= max; i++) {
      const p = next[i - 1];
      setValue("curve", param(`x${i}`), p ? p.x : param(`x${i}`).default);
      setValue("curve", param(`y${i}`), p ? p.y : param(`y${i}`).default);
    }
    syncControls(box, filter);
    schedulePreview();
  };
  box.curveEditor = new CurveEditor(canvas, points, change, max);
  box.append(el("div", { class: "curve-box" }, canvas));
  const values = el("details", { class: "curve-values" }, el("summary", { text: "Point values" }));
  for (const p of filter.params) if (p.name !== "channel") values.append(paramControl(filter, p, null));
  box.append(values);
  return box;
}

function paramControl(filter, param, reset) {
  const id = `p-${filter.id}-${param.name}`;
  const name = reset ? filter.id : param.name.replaceAll("_", " ");
  const labelText = name.charAt(0).toUpperCase() + name.slice(1);
  const help = `${param.description}${param.unit ? ` (${param.unit})` : ""}; ${param.range}, default ${param.default}`;
  const row = el("div", { class: `param param-${param.kind}`, title: help });
  const label = el("label", { for: id, text: labelText + (param.unit && param.kind === "number" ? ` (${param.unit})` : "") });
  const helpID = `${id}-help`;
  const helpNode = el("span", { id: helpID, class: "visually-hidden", text: help });
  const value = valueOf(filter.id, param);
  if (param.kind === "number") {
    const slider = el("input", { id, type: "range", min: String(param.min), max: String(param.max), step: String(stepOf(param)),
                                  "aria-describedby": helpID, "data-param": param.name });
    slider.value = String(value);
    const number = el("input", { type: "number", min: String(param.min), max: String(param.max), step: param.declaredStep ? String(param.declaredStep) : "any",
                                 class: "number", "aria-label": `${labelText} value`, "data-param": param.name });
    number.value = String(value);
    slider.addEventListener("input", () => { number.value = slider.value; setValue(filter.id, param, Number(slider.value)); schedulePreview(); });
    number.addEventListener("change", () => {
      const n = Math.min(param.max, Math.max(param.min, Number(number.value)));
      if (!Number.isFinite(n)) { number.value = slider.value; return; }
      number.value = String(n); slider.value = String(n); setValue(filter.id, param, n); schedulePreview();
    });
    slider.addEventListener("dblclick", () => {
      slider.value = number.value = String(param.default); setValue(filter.id, param, param.default); schedulePreview();
    });
    row.append(label, slider, number, reset || el("span"), helpNode);
  } else if (param.kind === "bool") {
    const box = el("input", { id, type: "checkbox", "aria-describedby": helpID, "data-param": param.name });
    box.checked = value === true;
    box.addEventListener("change", () => { setValue(filter.id, param, box.checked); schedulePreview(); });
    row.append(box, label, reset || el("span"), helpNode);
  } else if (param.kind === "choice") {
    const select = el("select", { id, "aria-describedby": helpID, "data-param": param.name },
                      ...param.choices.map((c) => el("option", { value: c, text: c })));
    select.value = String(value);
    select.addEventListener("change", () => { setValue(filter.id, param, select.value); schedulePreview(); });
    row.append(label, select, reset || el("span"), helpNode);
  } else {
    const input = el("input", { id, type: "text", "aria-describedby": helpID, "data-param": param.name, spellcheck: "false" });
    input.value = String(value);
    input.addEventListener("change", () => { setValue(filter.id, param, input.value); schedulePreview(); });
    row.append(label, input, reset || el("span"), helpNode);
  }
  return row;
}

function setValue(filterID, param, value) {
  state.values[filterID] = { ...(state.values[filterID] || {}), [param.name]: value };
  const box = document.querySelector(`[data-filter="${filterID}"]`);
  const filter = state.filters.find((f) => f.id === filterID);
  if (box && filter) box.classList.toggle("edited", filter.params.some((p) => !same(valueOf(filterID, p), baseOf(filterID, p))));
  box?.curveEditor?.draw();
  updateEditState();
}

/** Puts every control of a filter back to the values in state. */
function syncControls(box, filter) {
  for (const param of filter.params) {
    const value = valueOf(filter.id, param);
    for (const input of box.querySelectorAll(`[data-param="${CSS.escape(param.name)}"]`)) {
      if (input.type === "checkbox") input.checked = value === true; else input.value = String(value);
    }
  }
  box.classList.toggle("edited", filter.params.some((p) => !same(valueOf(filter.id, p), baseOf(filter.id, p))));
  box.curveEditor?.draw();
}

function updateEditState() {
  const { changed } = pendingEdit();
  $("save").disabled = !changed;
  $("discard").disabled = !changed;
  $("edit-state").textContent = changed ? "Unsaved changes" : "";
  $("pending-preset").hidden = !state.pendingPreset;
  $("pending-preset").textContent = state.pendingPreset ? `${state.pendingPreset} (unsaved)` : "";
}

// --- Photo page: previews ------------------------------------------------

function viewWidth() {
  const box = $("viewer").getBoundingClientRect();
  return Math.max(256, Math.min(2048, Math.round(Math.max(box.width, box.height) * (window.devicePixelRatio || 1))));
}

function schedulePreview() {
  clearTimeout(state.previewTimer);
  state.previewTimer = setTimeout(runPreview, 120);
}

/** Renders the unsaved edit; an answer older than one already shown is dropped. */
async function runPreview() {
  const photo = state.photo;
  if (!photo) return;
  const { chain, changed } = crop.open ? cropEdit() : masks?.open ? maskEdit() : pendingEdit();
  $("edit-error").hidden = true;
  if (!changed) { showCurrent(); return; }
  const seq = ++state.previewSeq;
  state.previewAbort?.abort();
  const controller = new AbortController();
  state.previewAbort = controller;
  $("preview-state").hidden = false;
  $("preview-state").textContent = "Rendering…";
  $("viewer").setAttribute("aria-busy", "true");
  try {
    const blob = await api.preview(photo.id, chain, viewWidth(), controller.signal);
    if (seq < state.shownSeq || state.photo !== photo) return;   // a newer preview is already shown
    state.shownSeq = seq;
    const url = URL.createObjectURL(blob);
    const img = $("view");
    await new Promise((resolve) => { img.onload = resolve; img.onerror = resolve; img.src = url; });
    if (state.previewURL) URL.revokeObjectURL(state.previewURL);
    state.previewURL = url;
    img.dataset.preview = String(seq);
    img.dataset.chain = chain;   // what is shown (for tests and for the curious)
    if (seq === state.previewSeq) {
      $("preview-state").textContent = crop.open ? "Uncropped: drag the frame" : masks?.open ? "Uncropped and upright: draw on the photo" : "Preview (unsaved)";
    }
    if (crop.open) cropShown();
  } catch (error) {
    if (error.name === "AbortError") return;
    if (seq === state.previewSeq) {
      $("edit-error").textContent = describe(error);
      $("edit-error").hidden = false;
      $("preview-state").textContent = "Preview failed";
    }
  } finally {
    if (seq === state.previewSeq) $("viewer").removeAttribute("aria-busy");
  }
}

async function showCurrent() {
  const photo = state.photo;
  state.previewAbort?.abort();
  state.shownSeq = ++state.previewSeq;
  $("preview-state").hidden = true;
  $("viewer").removeAttribute("aria-busy");
  const w = String(viewWidth());
  try {
    const url = await api.renderURL(photo.id, { w, h: w, format: "webp", q: "90", rev: String(photo.revision) });
    if (state.photo !== photo) return;
    $("view").src = url;
    delete $("view").dataset.preview;
    delete $("view").dataset.chain;
    // The unadjusted version is the same at every revision: no rev, so a
    // revision that moves on meanwhile cannot make it a 404.
    $("before").src = await api.renderURL(photo.id, { w, h: w, format: "webp", q: "90", version: "unadjusted" });
  } catch (error) { showError(error); }
}

// --- Photo page: before/after ---------------------------------------------

function showBefore(on) {
  $("before").hidden = !on;
  $("before-label").hidden = !on;
  $("compare").setAttribute("aria-pressed", on ? "true" : "false");
}
const compare = $("compare");
compare.addEventListener("pointerdown", (e) => { compare.setPointerCapture(e.pointerId); showBefore(true); });
compare.addEventListener("pointerup", () => showBefore(false));
compare.addEventListener("pointercancel", () => showBefore(false));
compare.addEventListener("keydown", (e) => { if (e.key === " " || e.key === "Enter") { e.preventDefault(); showBefore(true); } });
compare.addEventListener("keyup", (e) => { if (e.key === " " || e.key === "Enter") showBefore(false); });
document.addEventListener("keydown", (e) => {
  if ((e.key === "b" || e.key === "B") && !$("photo").hidden && !e.repeat && !isTyping(e.target)) showBefore(true);
});
document.addEventListener("keyup", (e) => { if (e.key === "b" || e.key === "B") showBefore(false); });
function isTyping(node) { return node && (node.tagName === "INPUT" && node.type !== "range" && node.type !== "checkbox" || node.tagName === "SELECT" || node.tagName === "TEXTAREA"); }

// --- Photo page: load, save, history, flags ---------------------------------

async function openPhoto(id) {
  const photo = await api.get(`/v1/assets/${id}`);
  setPhoto(photo);
}

function setPhoto(photo) {
  const samePhoto = state.photo && state.photo.id === photo.id;
  state.photo = photo;
  state.base = recipeParams(photo);
  state.values = structuredClone(state.base);
  state.pendingPreset = "";
  $("preset").value = "";
  if (crop.open) closeCrop();
  if (masks) {
    masks.load(state.base.local, state.base.retouch);
    delete state.base.local; delete state.base.retouch;
    delete state.values.local; delete state.values.retouch;
    if (masks.open) closeMasks();
    queueMicrotask(renderMaskPanels);
  }
  $("photo-title").textContent = photo.originalFilename || photo.id;
  $("photo-rev").textContent = `revision ${photo.revision}${photo.chain ? ` · ${photo.chain}` : ""}`;
  showFlags(photo);
  photoShown(photo);
  $("view").alt = `${photo.originalFilename}, revision ${photo.revision}`;
  $("edit-error").hidden = true;
  if (!samePhoto) buildSliders();
  else for (const box of document.querySelectorAll("[data-filter]")) syncControls(box, state.filters.find((f) => f.id === box.dataset.filter));
  for (const box of document.querySelectorAll("[data-filter]")) box.classList.remove("edited");
  updateEditState();
  showCurrent();
  loadHistory();
  showAlbums();
}

async function loadHistory() {
  const photo = state.photo;
  try {
    const { revisions } = await api.get(`/v1/assets/${photo.id}/history`);
    if (state.photo !== photo) return;
    const list = $("history");
    list.replaceChildren();
    for (const r of [...revisions].reverse()) {
      const current = r.number === photo.revision;
      const when = new Date(r.date).toLocaleString();
      const item = el("li", { class: current ? "current" : "", value: String(r.number), "data-revision": String(r.number) },
        el("span", { class: "rev-number", text: `r${r.number}` }),
        el("span", { class: "rev-kind", text: r.kind }),
        el("span", { class: "rev-chain", text: r.chain || r.editorNote || (r.number === 0 ? "as imported" : "no adjustments") }),
        el("time", { datetime: r.date, text: when }));
      if (current) item.append(el("span", { class: "rev-current", text: "current" }));
      else item.append(el("button", { type: "button", text: "Go to", "aria-label": `Go to revision ${r.number}`,
                                       onclick: () => revert(r.number) }));
      decorateRevision(item, r);
      list.append(item);
    }
    historyShown(photo, revisions);
  } catch (error) { showError(error); }
}

/**
 * A write that names the revision it was made from ("rN", not the whole
 * ETag: a favorite set elsewhere meanwhile does not conflict with an edit);
 * 412 reloads.
 */
async function write(action, path, body) {
  const photo = state.photo;
  state.writing = true;
  try {
    const { body: updated } = await api.json("POST", path, { body, headers: { "If-Match": `"r${photo.revision}"` } });
    api.forget(photo.id);
    setPhoto(updated);
    toast(`${action}: revision ${updated.revision}`);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.status === 412) {
      showError(`This photo was changed elsewhere (now revision ${error.problem.currentRevision ?? "?"}): reloaded it. Your unsaved changes were not applied.`);
      api.forget(photo.id);
      await openPhoto(photo.id).catch(showError);
    } else {
      $("edit-error").textContent = describe(error);
      $("edit-error").hidden = false;
    }
    return false;
  } finally {
    state.writing = false;
  }
}

async function save() {
  if (crop.open) finishCrop(true);
  if (masks?.open) closeMasks();
  const { chain, remove, changed } = pendingEdit();
  if (!changed) return;
  $("save").disabled = true;
  const body = { chain };
  if (remove.length) body.remove = remove;
  // Filters brought back to neutral are removed, not saved at zero.
  if (remove.length) body.chain = chain.split(",").filter((s) => !remove.includes(s.split(/[.=]/)[0])).join(",");
  await write("Saved", `/v1/assets/${state.photo.id}/edits`, body);
  updateEditState();
}

/** The filters the chain step `auto` writes (docs/chain-grammar.md). */
const AUTO_FILTERS = ["temperature", "tint", "exposure", "contrast", "highlights", "shadows", "whites", "blacks", "vibrance"];

/**
 * Auto, as Lightroom's: saves the unsaved changes followed by the step `auto`,
 * which the server turns into concrete values; the sliders then show them.
 */
async function autoAdjust() {
  if (crop.open) finishCrop(true);
  if (masks?.open) closeMasks();
  const { chain, remove } = pendingEdit();
  // Auto sets its own filters: a pending removal of one of them would undo it.
  const kept = remove.filter((id) => !AUTO_FILTERS.includes(id));
  const steps = chain ? chain.split(",").filter((s) => !remove.includes(s.split(/[.=]/)[0])) : [];
  const body = { chain: [...steps, "auto"].join(",") };
  if (kept.length) body.remove = kept;
  $("auto").disabled = true;
  try {
    await write("Auto", `/v1/assets/${state.photo.id}/edits`, body);
  } finally {
    $("auto").disabled = false;
    updateEditState();
  }
}

/**
 * Upright, as Lightroom's: asks the server what `upright=MODE` finds; with a
 * reliable solution saves the unsaved changes followed by that step (with
 * `:constrain` when Constrain is ticked; the perspective sliders then show its
 * values), without one saves nothing and says why.
 */
async function upright(mode) {
  if (crop.open) finishCrop(true);
  if (masks?.open) closeMasks();
  const select = $("upright");
  select.disabled = true;
  $("edit-error").hidden = true;
  try {
    const found = await api.get(`/v1/assets/${state.photo.id}/upright?mode=${encodeURIComponent(mode)}`);
    if (!found.perspective) {
      $("edit-error").textContent = found.note;
      $("edit-error").hidden = false;
      return;
    }
    const { chain, remove } = pendingEdit();
    // Upright sets the perspective: a pending removal of it would undo it.
    const kept = remove.filter((id) => id !== "perspective");
    const steps = chain ? chain.split(",").filter((s) => !remove.includes(s.split(/[.=]/)[0])) : [];
    const step = `upright=${mode}${$("upright-constrain").checked ? ":constrain" : ""}`;
    const body = { chain: [...steps, step].join(",") };
    if (kept.length) body.remove = kept;
    await write(`Upright ${found.chain}`, `/v1/assets/${state.photo.id}/edits`, body);
  } catch (error) {
    $("edit-error").textContent = describe(error);
    $("edit-error").hidden = false;
  } finally {
    select.value = "";
    select.disabled = false;
    updateEditState();
  }
}

function revert(revision) {
  const body = revision === undefined ? {} : { revision };
  return write(revision === undefined ? "Reverted to the original" : `Went to revision ${revision}`,
               `/v1/assets/${state.photo.id}/revert`, body);
}

async function setFlag(name, value) {
  await patchPhoto({ [name]: value },
                   name === "favorite" ? (value ? "Marked as favorite" : "No longer a favorite") : (value ? "Hidden" : "Shown"));
}

/** PATCHes the photo's metadata (favorite, hidden, rating, label, keywords). */
async function patchPhoto(body, message) {
  const photo = state.photo;
  try {
    const { body: fresh } = await api.json("PATCH", `/v1/assets/${photo.id}`, { body });
    if (state.photo && state.photo.id === photo.id) showFlags(fresh);
    toast(message);
  } catch (error) {
    showError(error);
    if (state.photo && state.photo.id === photo.id) showFlags(state.photo);
  }
}

/** Keywords as one text, separated by commas (a comma inside a keyword as \\,). */
function keywordText(keywords) {
  return (keywords || []).map((k) => k.replaceAll(",", "\\,")).join(", ");
}

/** The keywords of the text field: split at commas not escaped with a backslash. */
function parseKeywords(text) {
  const out = [];
  let current = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\" && text[i + 1] === ",") { current += ","; i++; }
    else if (text[i] === ",") { out.push(current); current = ""; }
    else current += text[i];
  }
  out.push(current);
  return out.map((k) => k.trim()).filter((k) => k.length > 0);
}

/** Favorite, hidden, rating, label, keywords and albums, from a fresher copy of the same revision (the edit in progress stays). */
function showFlags(fresh) {
  Object.assign(state.photo, { isFavorite: fresh.isFavorite, isHidden: fresh.isHidden, albums: fresh.albums, etag: fresh.etag,
                               rating: fresh.rating ?? 0, colorLabel: fresh.colorLabel, keywords: fresh.keywords || [],
                               title: fresh.title, caption: fresh.caption });
  $("favorite").setAttribute("aria-pressed", String(fresh.isFavorite));
  $("favorite").textContent = fresh.isFavorite ? "★ Favorite" : "☆ Favorite";
  $("hide").setAttribute("aria-pressed", String(fresh.isHidden));
  $("hide").textContent = fresh.isHidden ? "Hidden — show" : "Hide";
  $("rating").value = String(fresh.rating ?? 0);
  $("color-label").value = fresh.colorLabel || "";
  if (document.activeElement !== $("keywords")) $("keywords").value = keywordText(fresh.keywords);
}

$("save").addEventListener("click", save);
$("auto").addEventListener("click", autoAdjust);
$("upright").addEventListener("change", (event) => { if (event.target.value) upright(event.target.value); });
$("discard").addEventListener("click", () => setPhoto(state.photo));
$("revert-original").addEventListener("click", () => revert(undefined));
$("favorite").addEventListener("click", () => setFlag("favorite", !state.photo.isFavorite));
$("hide").addEventListener("click", () => setFlag("hidden", !state.photo.isHidden));
$("rating").addEventListener("change", () => {
  const rating = Number($("rating").value);
  patchPhoto({ rating }, rating === -1 ? "Rejected" : rating === 0 ? "Unrated" : `Rated ${rating}`);
});
$("color-label").addEventListener("change", () => {
  const label = $("color-label").value || null;
  patchPhoto({ colorLabel: label }, label ? `Label ${label}` : "No label");
});
$("keywords").addEventListener("keydown", (e) => {
  if (e.key !== "Enter") return;
  e.preventDefault();
  patchPhoto({ keywords: parseKeywords($("keywords").value) }, "Keywords saved");
});
$("preset").addEventListener("change", () => {
  if ($("preset").value === "__upload__") {
    // The upload entry opens the file picker; the menu keeps its choice until a preset arrives.
    $("preset").value = state.pendingPreset;
    $("preset-file").click();
    return;
  }
  if ($("preset").value === "__save__") {
    // "Save as preset…" (versions.js) opens its dialog; the menu keeps its choice.
    $("preset").value = state.pendingPreset;
    openSavePreset();
    return;
  }
  state.pendingPreset = $("preset").value; updateEditState(); schedulePreview();
});
$("preset-file").addEventListener("change", () => { const file = $("preset-file").files[0]; if (file) uploadPreset(file); });

/** A preset name from a file name: the server's letters, digits, '-', '_' (at most 64). */
function presetName(fileName) {
  const name = fileName.replace(/\.xmp$/i, "").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 64);
  return name || "preset";
}

/** A preset new to the library, in the menu (before its upload and save entries). */
function addPresetOption(preset) {
  state.presets.push(preset);
  $("preset").insertBefore(el("option", { value: preset.name, text: `${preset.name} — ${preset.summary}` }), $("preset-upload"));
}

/** Uploads a Lightroom preset, adds it to the menu and chooses it (applied like any preset). */
async function uploadPreset(file) {
  $("preset-file").value = "";
  try {
    const preset = await api.uploadPreset(presetName(file.name), file);
    addPresetOption(preset);
    $("preset").value = preset.name;
    state.pendingPreset = preset.name;
    updateEditState();
    schedulePreview();
    toast(`Preset ${preset.name} added`);
  } catch (error) {
    showError(error);
  }
}
window.addEventListener("beforeunload", (event) => {
  if (state.photo && !$("photo").hidden && pendingEdit().changed) event.preventDefault();
});
document.addEventListener("keydown", (e) => {
  if ((e.ctrlKey || e.metaKey) && e.key === "s" && !$("photo").hidden) { e.preventDefault(); save(); }
});

// --- Photo page: crop and straighten -----------------------------------------

// While the tool is open the viewer shows the photo uncropped (the pending
// edit with crop set to the whole frame and the tool's straighten angle),
// with the frame over it; Done writes the frame into the crop filter's
// rect parameters and the angle into straighten, as unsaved changes.
const crop = { tool: null, open: false, angle: 0, swap: false, initial: null, pending: null };

const cropParam = (name) => state.filters.find((f) => f.id === "crop")?.params.find((p) => p.name === name);
const angleParam = () => state.filters.find((f) => f.id === "straighten")?.params.find((p) => p.name === "angle");

function setUpCrop() {
  if (!cropParam("x")) { $("crop-open").hidden = true; return; }
  crop.tool = new CropTool($("viewer"), $("view"), showCropValues);
  for (const [value, label] of ASPECTS) $("crop-aspect").append(el("option", { value, text: label }));
  const angle = angleParam();
  if (angle) {
    for (const input of [$("crop-angle"), $("crop-angle-value")]) {
      input.min = String(angle.min); input.max = String(angle.max);
      input.step = String(angle.step ?? 0.1);
    }
  } else {
    for (const node of [$("crop-angle"), $("crop-angle-value"), $("crop-angle-unit"), document.querySelector('label[for="crop-angle"]')]) node.hidden = true;
  }
}

/** The preview's chain while cropping: every pending change but the crop, the whole frame, the tool's angle. */
function cropEdit() {
  const { chain } = pendingEdit();
  const steps = chain.split(",").filter((s) => s && !/^(crop|straighten)\./.test(s));
  if (angleParam()) steps.push(`straighten.angle=${chainValue(angleParam(), crop.angle)}`);
  steps.push("crop.mode=rect", "crop.x=0", "crop.y=0", "crop.w=1", "crop.h=1");
  return { chain: steps.join(","), changed: true };
}

function openCrop() {
  if (!state.photo || crop.open || !crop.tool) return;
  if (masks?.open) closeMasks();
  crop.open = true;
  crop.initial = { crop: structuredClone(state.values.crop), straighten: structuredClone(state.values.straighten) };
  const mode = valueOf("crop", cropParam("mode"));
  const v = (name) => valueOf("crop", cropParam(name));
  // A rect crop comes back as it is; an aspect crop as its centred frame, once
  // the size is known; a trim (found by the engine) as the whole frame.
  crop.pending = mode === "rect" ? { x: v("x"), y: v("y"), w: v("w"), h: v("h") }
    : mode === "aspect" ? { aspect: v("aw") / v("ah") } : { x: 0, y: 0, w: 1, h: 1 };
  crop.angle = angleParam() ? valueOf("straighten", angleParam()) : 0;
  $("crop-angle").value = $("crop-angle-value").value = String(crop.angle);
  crop.swap = false;
  $("crop-swap").setAttribute("aria-pressed", "false");
  $("crop-aspect").value = "free";
  crop.tool.ratio = null;
  $("crop-panel").hidden = false;
  $("crop-open").setAttribute("aria-pressed", "true");
  document.querySelector(".stage").classList.add("cropping");
  runPreview();
}

/** The uncropped preview is shown: place the frame (the first time) or keep it. */
function cropShown() {
  if (!crop.pending) { crop.tool.layout(); return; }
  const pending = crop.pending;
  crop.pending = null;
  const rect = pending.aspect ? fitted(pending.aspect, crop.tool.imageRatio) : pending;
  crop.tool.open(rect);
  showCropValues(rounded(rect));
  crop.tool.box.focus({ preventScroll: true });
}

function showCropValues(rect) {
  for (const side of ["x", "y", "w", "h"]) {
    const input = $(`crop-${side}`);
    if (document.activeElement !== input) input.value = String(Math.round(rect[side] * 1000) / 10);
  }
}

function closeCrop() {
  crop.open = false;
  crop.pending = null;
  crop.tool?.close();
  $("crop-panel").hidden = true;
  $("crop-open").setAttribute("aria-pressed", "false");
  document.querySelector(".stage").classList.remove("cropping");
}

function finishCrop(apply) {
  if (!crop.open) return;
  if (apply) {
    const r = crop.pending ? null : rounded(crop.tool.rect);
    if (r) {
      const whole = r.x === 0 && r.y === 0 && r.w === 1 && r.h === 1;
      const mode = cropParam("mode");
      // The whole frame is no crop: the parameters go back to their defaults.
      if (whole) for (const p of state.filters.find((f) => f.id === "crop").params) setValue("crop", p, p.default);
      else {
        // A rect crop, and only that: an earlier aspect crop's aw/ah (or a
        // trim's threshold) go back to their defaults, not left in the recipe.
        for (const p of state.filters.find((f) => f.id === "crop").params) {
          if (!["mode", "x", "y", "w", "h"].includes(p.name)) setValue("crop", p, p.default);
        }
        if (mode) setValue("crop", mode, "rect");
        for (const side of ["x", "y", "w", "h"]) setValue("crop", cropParam(side), r[side]);
      }
    }
    if (angleParam()) setValue("straighten", angleParam(), crop.angle);
  } else {
    state.values.crop = crop.initial.crop;
    state.values.straighten = crop.initial.straighten;
    if (!state.values.crop) delete state.values.crop;
    if (!state.values.straighten) delete state.values.straighten;
  }
  for (const id of ["crop", "straighten"]) {
    const box = document.querySelector(`[data-filter="${id}"]`);
    const filter = state.filters.find((f) => f.id === id);
    if (box && filter) syncControls(box, filter);
  }
  updateEditState();
  closeCrop();
  $("crop-open").focus({ preventScroll: true });
  schedulePreview();
}

function aspectRatio() {
  const choice = ASPECTS.find(([value]) => value === $("crop-aspect").value);
  if (!choice || choice[2] === null) return null;
  const ratio = choice[2] === "original" ? crop.tool.imageRatio : choice[2];
  return crop.swap ? 1 / ratio : ratio;
}

$("crop-open").addEventListener("click", () => (crop.open ? finishCrop(true) : openCrop()));
$("crop-done").addEventListener("click", () => finishCrop(true));
$("crop-cancel").addEventListener("click", () => finishCrop(false));
$("crop-reset").addEventListener("click", () => {
  $("crop-aspect").value = "free";
  crop.tool.ratio = null;
  crop.angle = 0;
  $("crop-angle").value = $("crop-angle-value").value = "0";
  crop.tool.set({ x: 0, y: 0, w: 1, h: 1 });
  schedulePreview();
});
$("crop-aspect").addEventListener("change", () => crop.tool.setAspect(aspectRatio()));
$("crop-swap").addEventListener("click", () => {
  crop.swap = !crop.swap;
  $("crop-swap").setAttribute("aria-pressed", String(crop.swap));
  if (aspectRatio()) crop.tool.setAspect(aspectRatio());
});
for (const input of [$("crop-angle"), $("crop-angle-value")]) {
  input.addEventListener(input.type === "range" ? "input" : "change", () => {
    const n = Number(input.value);
    if (!Number.isFinite(n)) return;
    const param = angleParam();
    crop.angle = Math.min(param.max, Math.max(param.min, n));
    $("crop-angle").value = $("crop-angle-value").value = String(crop.angle);
    schedulePreview();
  });
}
for (const side of ["x", "y", "w", "h"]) {
  $(`crop-${side}`).addEventListener("change", (event) => {
    const n = Number(event.target.value);
    if (Number.isFinite(n)) crop.tool.set({ [side]: Math.min(100, Math.max(0, n)) / 100 });
    showCropValues(rounded(crop.tool.rect));
  });
}
$("crop-panel").addEventListener("keydown", (event) => {
  if (event.key === "Escape") { event.preventDefault(); finishCrop(false); }
});
$("viewer").addEventListener("keydown", (event) => {
  if (!crop.open) return;
  if (event.key === "Escape") { event.preventDefault(); finishCrop(false); }
  if (event.key === "Enter") { event.preventDefault(); finishCrop(true); }
});

// --- Masks and spots (masks.js) ---------------------------------------------
// The tools draw on the upright, uncropped photo: while they are open the
// preview is the pending edit with rotate, flip, straighten and crop at
// neutral, so the shown image is the frame mask coordinates are fractions of.

let masks = null;

function setUpMasks() {
  const local = state.filters.find((f) => f.id === "local" && f.structure);
  const retouch = state.filters.find((f) => f.id === "retouch" && f.structure);
  if (!local && !retouch) return;
  masks = new MaskEditor($("viewer"), $("view"), local, retouch, () => { updateEditState(); renderMaskPanels(); schedulePreview(); });
  // A slider's move: no panel redraw (the slider keeps the focus).
  masks.onChangeQuiet = () => {
    updateEditState(); schedulePreview();
    for (const id of ["local", "retouch"]) {
      document.querySelector(`[data-filter="${id}"]`)?.classList.toggle("edited", id === "local" ? masks.localChanged : masks.spotsChanged);
    }
  };
  document.addEventListener("keydown", (event) => {
    if (masks.open && event.key === "Escape" && !isTyping(event.target)) { event.preventDefault(); closeMasks(); }
  });
}

/** The preview's chain while the mask tools are open: every pending change, the geometry at neutral. */
function maskEdit() {
  const { chain } = pendingEdit();
  const steps = chain.split(",").filter((s) => s && !/^(crop|straighten|rotate|flip)[.=]/.test(s));
  const has = (id) => state.filters.some((f) => f.id === id);
  if (has("rotate")) steps.push("rotate.degrees=0");
  if (has("flip")) steps.push("flip.axis=none");
  if (has("straighten")) steps.push("straighten.angle=0");
  if (has("crop")) steps.push("crop.mode=rect", "crop.x=0", "crop.y=0", "crop.w=1", "crop.h=1");
  return { chain: steps.join(","), changed: true };
}

function openMasks(tool) {
  if (!state.photo) return;
  if (crop.open) finishCrop(true);
  const wasOpen = masks.open;
  masks.setOpen(true);
  masks.setTool(tool);
  document.querySelector(".stage").classList.add("masking");
  renderMaskPanels();
  if (!wasOpen) runPreview();
}

function closeMasks() {
  masks.setTool(null);
  masks.setOpen(false);
  document.querySelector(".stage").classList.remove("masking");
  renderMaskPanels();
  schedulePreview();
}

function maskControls(filter) {
  const box = el("fieldset", { class: "filter masks", "data-filter": filter.id });
  box.append(el("legend", { title: filter.summary }, el("span", { class: "filter-name", text: filter.id === "local" ? "local corrections" : "spots (retouch)" })));
  box.append(el("div", { class: "mask-body" }));
  queueMicrotask(renderMaskPanels);
  return box;
}

/** A slider row for one declared number (min/max/default from /v1/filters). */
function maskSlider(id, param, value, onInput, label = param.name) {
  const help = `${param.description}${param.unit ? ` (${param.unit})` : ""}; ${param.range}, default ${param.default}`;
  const slider = el("input", { id, type: "range", min: String(param.min), max: String(param.max), step: String(stepOf(param)), title: help });
  slider.value = String(value);
  const num = el("input", { type: "number", class: "number", min: String(param.min), max: String(param.max), step: "any",
                            "aria-label": `${label} value` });
  num.value = String(value);
  slider.addEventListener("input", () => { num.value = slider.value; onInput(Number(slider.value)); });
  num.addEventListener("change", () => {
    const n = Math.min(param.max, Math.max(param.min, Number(num.value)));
    if (!Number.isFinite(n)) { num.value = slider.value; return; }
    num.value = slider.value = String(n); onInput(n);
  });
  slider.addEventListener("dblclick", () => { slider.value = num.value = String(param.default); onInput(param.default); });
  return el("div", { class: "param param-number", title: help },
            el("label", { for: id, text: label.charAt(0).toUpperCase() + label.slice(1) + (param.unit ? ` (${param.unit})` : "") }),
            slider, num, el("span"));
}

const toolButton = (id, tool, text, title) => el("button", {
  type: "button", id, class: "tool", text, title, "aria-pressed": masks.open && masks.tool === tool ? "true" : "false",
  onclick: () => (masks.open && masks.tool === tool && tool ? openMasks(null) : openMasks(tool)) });

/** Redraws both panels from the model (after a structural change). */
function renderMaskPanels() {
  if (!masks) return;
  const local = document.querySelector('[data-filter="local"] .mask-body');
  if (local && masks.local) renderLocalPanel(local);
  const spots = document.querySelector('[data-filter="retouch"] .mask-body');
  if (spots && masks.retouch) renderSpotPanel(spots);
  for (const id of ["local", "retouch"]) {
    document.querySelector(`[data-filter="${id}"]`)?.classList.toggle("edited", id === "local" ? masks.localChanged : masks.spotsChanged);
  }
}

function renderLocalPanel(root) {
  const m = masks, st = m.local;
  const shapeParams = (type) => st.shapes.find((s) => s.type === type)?.parameters || [];
  const drawAs = el("select", { id: "mask-draw-as", onchange: (e) => { m.drawAs = e.target.value; } },
    el("option", { value: "new", text: "as a new correction" }),
    ...st.modes.map((mode) => el("option", { value: mode, text: `${{ add: "add to", subtract: "subtract from", intersect: "intersect with" }[mode] || mode} the selected one` })));
  drawAs.value = m.drawAs;
  const tools = el("div", { class: "mask-tools", role: "toolbar", "aria-label": "Mask tools" },
    toolButton("mask-tool-linear", "linear", "Linear", "Drag from where the effect starts to where it is full"),
    toolButton("mask-tool-radial", "radial", "Radial", "Drag a box: the ellipse inside it"),
    toolButton("mask-tool-brush", "brush", "Brush", "Paint strokes"),
    toolButton("mask-tool-move", null, "Move", "Drag the handles of the selected correction"),
    // Range masks (declared by /v1/filters): a correction of their own, or combined with the selected one as "Draw" says.
    ...["luminance", "colour"].filter((type) => shapeParams(type).length).map((type) => el("button", {
      type: "button", id: `mask-add-${type}`, class: "tool", text: type === "luminance" ? "Luminance range" : "Colour range",
      title: `${st.shapes.find((s) => s.type === type).summary}. Added as a new correction, or combined with the selected one as chosen in Draw`,
      onclick: () => m.addRange(type) })),
    m.open ? el("button", { type: "button", id: "mask-done", text: "Done", onclick: closeMasks }) : null);
  const options = el("div", { class: "mask-options" },
    el("label", { for: "mask-draw-as", text: "Draw" }), drawAs,
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "mask-show", checked: m.showMask,
      onchange: (e) => { m.showMask = e.target.checked; m.draw(); } }), " Show mask"),
    el("label", { class: "check" }, el("input", { type: "checkbox", id: "mask-erase", checked: m.erase,
      onchange: (e) => { m.erase = e.target.checked; } }), " Erase"));
  const brush = el("div", { class: "mask-brush" });
  for (const p of shapeParams("brush")) {
    if (p.type !== "number") continue;
    brush.append(maskSlider(`brush-${p.name}`, p, m.brush[p.name], (v) => { m.brush[p.name] = v; }, p.name === "radius" ? "size" : p.name));
  }
  const list = el("ul", { class: "mask-list", "aria-label": "Corrections" });
  m.corrections.forEach((c, i) => {
    const kinds = c.mask.shapes.map((s) => s.type).join(" + ");
    list.append(el("li", { class: i === m.selected ? "selected" : "", "data-correction": String(i + 1) },
      el("label", {}, el("input", { type: "radio", name: "mask-selected", checked: i === m.selected,
        onclick: () => { m.selected = i; if (!m.open) openMasks(null); else { m.draw(); renderMaskPanels(); } } }), ` ${i + 1}. ${kinds}`),
      el("label", { class: "check", title: "Switch this correction on or off" }, el("input", { type: "checkbox", class: "mask-on", checked: c.enabled !== false,
        onchange: (e) => { c.enabled = e.target.checked; m.changed(); } }), " on"),
      el("button", { type: "button", class: "reset", text: "✕", "aria-label": `Delete correction ${i + 1}`,
        onclick: () => { m.corrections.splice(i, 1); m.selected = Math.min(m.selected, m.corrections.length - 1); m.changed(); } })));
  });
  root.replaceChildren(tools, options, brush, list);
  const c = m.corrections[m.selected];
  if (!c) { root.append(el("p", { class: "hint", text: "Choose a tool and draw on the photo to add a correction." })); return; }
  const detail = el("div", { class: "mask-detail", "aria-label": `Correction ${m.selected + 1}` });
  detail.append(el("label", { class: "check" }, el("input", { type: "checkbox", id: "mask-invert", checked: !!c.mask.invert,
    onchange: (e) => { c.mask.invert = e.target.checked; m.changed(); } }), " Invert mask"));
  for (const a of st.amounts) {
    detail.append(maskSlider(`local-${a.name}`, a, c.amounts[a.name] ?? 0, (v) => {
      if (v) c.amounts[a.name] = v; else delete c.amounts[a.name];
      m.draw(); m.onChangeQuiet();
    }));
  }
  c.mask.shapes.forEach((shape, si) => {
    if (shape.type !== "radial") return;
    for (const p of shapeParams("radial")) {
      if (p.name === "angle" || p.name === "roundness" || p.name === "feather") {
        detail.append(maskSlider(`radial-${si}-${p.name}`, p, shape[p.name] ?? p.default, (v) => { shape[p.name] = v; m.draw(); m.onChangeQuiet(); },
                                 `radial ${p.name}`));
      }
    }
    detail.append(el("label", { class: "check" }, el("input", { type: "checkbox", checked: shape.inside === false,
      onchange: (e) => { shape.inside = !e.target.checked; m.changed(); } }), " Radial: effect outside"));
  });
  c.mask.shapes.forEach((shape, si) => {
    if (shape.type !== "luminance" && shape.type !== "colour") return;
    const how = si === 0 ? "" : ` (${shape.mode || "add"})`;
    const range = el("div", { class: "mask-range", "data-range": String(si + 1), role: "group",
                              "aria-label": `${shape.type} range ${si + 1}` },
      el("span", { class: "mask-range-name", text: `${shape.type === "luminance" ? "Luminance" : "Colour"} range${how}` }));
    for (const p of shapeParams(shape.type)) {
      if (p.type !== "number") continue;
      range.append(maskSlider(`range-${si}-${p.name}`, p, shape[p.name] ?? p.default, (v) => {
        shape[p.name] = v;
        // low ≤ high: the other end follows.
        const other = { low: "high", high: "low" }[p.name];
        if (shape.type === "luminance" && other && (p.name === "low" ? shape.high < v : shape.low > v)) {
          shape[other] = v;
          for (const input of document.querySelectorAll(`#range-${si}-${other}, #range-${si}-${other} ~ input`)) input.value = String(v);
        }
        m.draw(); m.onChangeQuiet();
      }, `${shape.type === "luminance" ? "luminance" : "colour"} ${p.name}`));
    }
    if (shape.type === "colour") {
      range.append(el("button", { type: "button", id: `range-${si}-pick`, text: "Pick colour",
        title: "Then press on the photo: the range centres on the hue there",
        onclick: () => { if (!m.open) openMasks(null); m.pickHue(shape); } }));
    }
    if (c.mask.shapes.length > 1) {
      range.append(el("button", { type: "button", class: "reset", id: `range-${si}-remove`, text: "✕", "aria-label": `Remove the ${shape.type} range`,
        onclick: () => { c.mask.shapes.splice(si, 1); if (c.mask.shapes[0]) c.mask.shapes[0].mode = "add"; m.changed(); } }));
    }
    detail.append(range);
  });
  root.append(detail);
}

function renderSpotPanel(root) {
  const m = masks, st = m.retouch;
  const mode = el("select", { id: "spot-mode", "aria-label": "Spot mode", onchange: (e) => { m.spotMode = e.target.value; } },
    ...st.modes.map((v) => el("option", { value: v, text: v })));
  mode.value = m.spotMode;
  const tools = el("div", { class: "mask-tools", role: "toolbar", "aria-label": "Spot tools" },
    toolButton("spot-tool", "spot", "Spot", "Press on the spot, drag to the source it takes from"), mode,
    m.open ? el("button", { type: "button", text: "Done", onclick: closeMasks }) : null);
  const rx = st.parameters.find((p) => p.name === "rx");
  const size = maskSlider("spot-size", rx, m.spotSize, (v) => { m.spotSize = v; }, "size");
  const list = el("ul", { class: "mask-list", "aria-label": "Spots" });
  m.spots.forEach((s, i) => {
    list.append(el("li", { class: i === m.selectedSpot ? "selected" : "", "data-spot": String(i + 1) },
      el("label", {}, el("input", { type: "radio", name: "spot-selected", checked: i === m.selectedSpot,
        onclick: () => { m.selectedSpot = i; if (!m.open) openMasks(null); else { m.draw(); renderMaskPanels(); } } }), ` ${i + 1}. ${s.mode}`),
      el("label", { class: "check" }, el("input", { type: "checkbox", checked: s.enabled !== false,
        onchange: (e) => { s.enabled = e.target.checked; m.changed(); } }), " on"),
      el("button", { type: "button", class: "reset", text: "✕", "aria-label": `Delete spot ${i + 1}`,
        onclick: () => { m.spots.splice(i, 1); m.selectedSpot = -1; m.changed(); } })));
  });
  root.replaceChildren(tools, size, list);
  const s = m.spots[m.selectedSpot];
  if (!s) return;
  for (const p of st.parameters) {
    if (p.name !== "feather" && p.name !== "opacity") continue;
    root.append(maskSlider(`spot-${p.name}`, p, s[p.name], (v) => { s[p.name] = v; m.draw(); m.onChangeQuiet(); }));
  }
}

// --- Albums --------------------------------------------------------------------

async function loadAlbums() {
  try {
    const { albums } = await api.get("/v1/albums");
    state.albums = albums;
  } catch (error) { showError(error); return; }
  const byTitle = [...state.albums].sort((a, b) => a.title.localeCompare(b.title));
  const filter = $("album-filter");
  const chosen = filter.value;
  filter.replaceChildren(el("option", { value: "", text: "All photos" }),
    ...byTitle.map((a) => el("option", { value: a.id, text: `${a.title} (${a.assets.length})` })));
  filter.value = byTitle.some((a) => a.id === chosen) ? chosen : "";
  if (state.photo) showAlbums();
}

/** The open photo's albums as chips, and the others in the "Add to album" menu. */
function showAlbums() {
  const photo = state.photo;
  if (!photo) return;
  const isIn = (album) => album.assets.includes(photo.id);
  const chips = state.albums.filter(isIn).sort((a, b) => a.title.localeCompare(b.title)).map((album) =>
    el("li", { class: "album-chip", "data-album": album.id }, el("span", { text: album.title }),
       el("button", { type: "button", class: "album-remove", text: "×", "aria-label": `Remove from ${album.title}`,
                      onclick: () => changeAlbum(album, "remove") })));
  $("photo-albums").replaceChildren(...(chips.length ? chips : [el("li", { class: "hint", text: "In no album" })]));
  const others = state.albums.filter((a) => !isIn(a)).sort((a, b) => a.title.localeCompare(b.title));
  $("album-add").replaceChildren(el("option", { value: "", text: others.length ? "Add to album…" : "No other album" }),
    ...others.map((a) => el("option", { value: a.id, text: a.title })));
  $("album-add-button").disabled = !others.length;
}

async function changeAlbum(album, action) {
  const photo = state.photo;
  try {
    await api.json("PATCH", `/v1/albums/${encodeURIComponent(album.id)}`, { body: { [action]: [photo.id] } });
    toast(action === "add" ? `Added to ${album.title}` : `Removed from ${album.title}`);
  } catch (error) { showError(error); }
  await loadAlbums();
}

$("album-add-button").addEventListener("click", () => {
  const album = state.albums.find((a) => a.id === $("album-add").value);
  if (album) changeAlbum(album, "add");
});
$("album-new").addEventListener("submit", async (event) => {
  event.preventDefault();
  const title = $("album-title").value.trim();
  if (!title || !state.photo) return;
  try {
    const { body: album } = await api.json("POST", "/v1/albums", { body: { title } });
    $("album-title").value = "";
    await changeAlbum(album, "add");
  } catch (error) { showError(error); }
});
$("album-filter").addEventListener("change", () => $("search").requestSubmit());

// --- Live updates ------------------------------------------------------------

// Change sets are handled one after another, so a photo fetched for a later
// change is never overwritten by one fetched, more slowly, for an earlier one.
let changes = Promise.resolve();
function onChange(set) {
  changes = changes.then(() => applyChange(set)).catch((error) => console.error(error));
}

async function applyChange(set) {
  // An album changed (here or by another client): the menus and the open photo's chips follow.
  if (set.entries.some((entry) => entry.type === "album")) await loadAlbums();
  for (const entry of set.entries) {
    if (entry.type !== "asset") continue;
    if (!$("library").hidden || !state.photo || state.photo.id !== entry.id) await refreshTile(entry.id, entry.kind);
    // While this page's own write is in flight its change is announced
    // too; the write's answer brings it.
    if (state.photo && state.photo.id === entry.id && !$("photo").hidden && !state.writing) {
      if (entry.kind === "delete") { showError("This photo was deleted elsewhere."); location.hash = "#/"; continue; }
      try {
        const fresh = await api.get(`/v1/assets/${entry.id}`);
        if (state.writing || !state.photo || state.photo.id !== fresh.id) continue;
        if (fresh.revision === state.photo.revision) {
          showFlags(fresh);
          if ((entry.changes || []).includes("snapshots")) await loadHistory();
          continue;
        }
        api.forget(entry.id);
        if (pendingEdit().changed) {
          showError(`This photo was changed elsewhere (now revision ${fresh.revision}); saving your changes will be refused. Discard them to see it.`);
        } else {
          setPhoto(fresh);
          toast(`Updated elsewhere: revision ${fresh.revision}`);
        }
      } catch (error) { showError(error); }
    }
  }
}

function setLive(text) {
  const node = $("live");
  node.textContent = text;
  node.dataset.state = text;
}

// --- Routing -----------------------------------------------------------------

async function route() {
  const match = location.hash.match(/^#\/photo\/([0-9a-f]{6,64})$/);
  if (match) {
    $("library").hidden = true;
    $("photo").hidden = false;
    try {
      if (!state.photo || state.photo.id !== match[1]) state.photo = null;
      await openPhoto(match[1]);
      $("photo-title").focus?.();
    } catch (error) { showError(error); location.hash = "#/"; }
  } else {
    const wasPhoto = !$("photo").hidden;
    $("photo").hidden = true;
    $("library").hidden = false;
    const current = state.photo;
    state.photo = null;
    state.previewAbort?.abort();
    if (crop.open) closeCrop();
    if (!state.list.ids.length || !wasPhoto) loadLibrary(true);
    else if (current) refreshTile(current.id, "update");
  }
}

async function start() {
  try {
    const [{ filters }, { presets }] = await Promise.all([api.get("/v1/filters"), api.get("/v1/presets")]);
    state.filters = paramsFromFilters(filters);
    state.presets = presets;
    for (const p of presets) $("preset").insertBefore(el("option", { value: p.name, text: `${p.name} — ${p.summary}` }), $("preset-upload"));
    setUpCrop();
    setUpMasks();
    setUpVersions({ photo: () => state.photo, write, reloadHistory: loadHistory, tile, addPresetOption, toast, showError });
    // Once: whether the server signs render URLs (renders load accordingly).
    await api.serverCapabilities();
    await loadAlbums();
  } catch (error) {
    showError(error);
    if (error instanceof ApiError && error.status === 401) return;
  }
  $("sign-out").hidden = !api.token;
  window.addEventListener("hashchange", route);
  await route();
  api.follow(onChange, (s) => setLive(s === "live" ? "live" : s));
  document.body.dataset.ready = "true";
}

start();
