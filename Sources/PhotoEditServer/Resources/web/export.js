// Export (issue 38): a dialog with the export presets, format, size,
// output sharpening, metadata and a watermark text, the expected file
// size from a real encode at those settings (the bytes of the render the
// server makes for the first photo: never an estimate), and the
// export of the open photo or of a selection of the grid (an export job,
// downloaded as one ZIP). Kept apart from app.js: it adds its buttons and
// the grid's check boxes itself.
import { api, describe } from "./api.js";

const $ = (id) => document.getElementById(id);

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value != null) node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

const FORMATS = ["jpeg", "avif", "jxl", "webp", "png", "tiff", "heic"];
const SHARPEN = ["none", "screen:low", "screen:standard", "screen:high", "matte:standard", "glossy:standard"];
// What HTTP serves: location, people and serial numbers never leave the server (no "all").
const METADATA = [["copyright", "Copyright and contact only"], ["no-location", "All but location, people and serial numbers"],
  ["none", "None"]];

/** The photos checked in the grid. */
const selected = new Set();

let dialog = null;
let presets = [];

function field(label, control) {
  return el("label", { class: "export-field" }, el("span", { text: label }), control);
}

function buildDialog() {
  const preset = el("select", { id: "export-preset" }, el("option", { value: "", text: "No preset" }));
  const format = el("select", { id: "export-format" }, ...FORMATS.map((f) => el("option", { value: f, text: f.toUpperCase() })));
  const longEdge = el("input", { id: "export-long-edge", type: "number", min: "16", max: "65535", placeholder: "full size" });
  const quality = el("input", { id: "export-quality", type: "number", min: "1", max: "100", placeholder: "default" });
  const sharpen = el("select", { id: "export-sharpen" }, ...SHARPEN.map((s) => el("option", { value: s, text: s })));
  const metadata = el("select", { id: "export-metadata" }, ...METADATA.map(([v, t]) => el("option", { value: v, text: t })));
  const watermark = el("input", { id: "export-watermark", type: "text", maxlength: "200", placeholder: "© Your name" });
  const size = el("output", { id: "export-size", "aria-live": "polite" });
  const status = el("p", { id: "export-status", class: "summary", "aria-live": "polite" });
  const title = el("h2", { id: "export-title", text: "Export" });
  const go = el("button", { id: "export-go", type: "button", class: "primary", text: "Export" });
  const cancel = el("button", { type: "button", text: "Close", onclick: () => dialog.close() });
  dialog = el("dialog", { id: "export-dialog", "aria-labelledby": "export-title" },
    el("form", { method: "dialog", class: "export-form" }, title,
      field("Preset", preset), field("Format", format), field("Long edge (px)", longEdge), field("Quality", quality),
      field("Output sharpening", sharpen), field("Metadata", metadata), field("Watermark text", watermark),
      el("p", {}, "Expected file size: ", size), status,
      el("div", { class: "dialog-actions" }, cancel, go)));
  document.body.append(dialog);

  preset.addEventListener("change", () => {
    const chosen = presets.find((p) => p.name === preset.value);
    const s = chosen ? chosen.settings : {};
    format.value = s.format || "jpeg";
    longEdge.value = s["long-edge"] || "";
    quality.value = s.quality || "";
    sharpen.value = SHARPEN.includes(s.sharpen) ? s.sharpen : (s.sharpen ? `${s.sharpen}:standard` : "none");
    if (!SHARPEN.includes(sharpen.value)) sharpen.value = "none";
    metadata.value = s.metadata || "copyright";
    estimate();
  });
  for (const control of [format, longEdge, quality, sharpen, metadata, watermark]) control.addEventListener("change", estimate);
  go.addEventListener("click", run);
}

/** The dialog's settings as export option values by name. */
function settings() {
  const values = { format: $("export-format").value, metadata: $("export-metadata").value, sharpen: $("export-sharpen").value };
  if ($("export-long-edge").value) values["long-edge"] = $("export-long-edge").value;
  if ($("export-quality").value) values.quality = $("export-quality").value;
  if ($("export-watermark").value.trim()) values.watermark = $("export-watermark").value.trim();
  return values;
}

function query(values) {
  const params = new URLSearchParams();
  if ($("export-preset").value) params.set("preset", $("export-preset").value);
  for (const [key, value] of Object.entries(values)) params.set(key, value);
  return params.toString();
}

let ids = [];
let estimating = 0;

function bytesText(n) {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1e3))} KB`;
}

/** The size of a real encode of the first photo at these settings. */
async function estimate() {
  const ticket = ++estimating;
  const out = $("export-size");
  if (!ids.length) { out.textContent = "—"; return; }
  out.textContent = "measuring…";
  try {
    const response = await api.fetch(`/v1/assets/${encodeURIComponent(ids[0])}/render?${query(settings())}`);
    if (ticket !== estimating) return;
    if (!response.ok) {
      const problem = await response.json().catch(() => ({}));
      out.textContent = problem.detail || `error ${response.status}`;
      return;
    }
    const size = (await response.blob()).size;
    out.textContent = ids.length > 1 ? `${bytesText(size)} for the first photo (${ids.length} photos)` : bytesText(size);
  } catch (error) {
    if (ticket === estimating) out.textContent = describe(error);
  }
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function run() {
  const status = $("export-status");
  const values = settings();
  try {
    if (ids.length === 1) {
      status.textContent = "Exporting…";
      const response = await api.fetch(`/v1/assets/${encodeURIComponent(ids[0])}/render?${query(values)}`);
      if (!response.ok) throw new Error((await response.json().catch(() => ({}))).detail || `error ${response.status}`);
      download(await response.blob(), `${ids[0].slice(0, 8)}.${values.format === "jpeg" ? "jpg" : values.format}`);
      status.textContent = "Exported.";
      return;
    }
    const body = { ids, settings: values };
    if ($("export-preset").value) body.preset = $("export-preset").value;
    const { body: job } = await api.json("POST", "/v1/exports", { body });
    let state = job;
    while (state.state === "running") {
      status.textContent = `Exporting ${state.completed} of ${state.total}…`;
      await new Promise((resolve) => setTimeout(resolve, 500));
      state = await api.get(`/v1/exports/${job.id}`);
    }
    const failed = state.failures.length ? `, ${state.failures.length} failed` : "";
    status.textContent = `Exported ${state.files.length} of ${state.total}${failed}.`;
    if (state.files.length) {
      const zip = await api.fetch(`/v1/exports/${job.id}/zip`);
      if (zip.ok) download(await zip.blob(), `export-${job.id.slice(0, 8)}.zip`);
    }
  } catch (error) {
    status.textContent = describe(error);
  }
}

/** Opens the dialog for these photo ids. */
export async function openExport(photoIds) {
  if (!dialog) buildDialog();
  ids = photoIds;
  $("export-title").textContent = ids.length === 1 ? "Export photo" : `Export ${ids.length} photos`;
  $("export-status").textContent = "";
  try {
    presets = (await api.get("/v1/export-presets")).presets;
    const menu = $("export-preset");
    menu.replaceChildren(el("option", { value: "", text: "No preset" }),
      ...presets.map((p) => el("option", { value: p.name, text: p.name, title: p.summary })));
  } catch (error) {
    $("export-status").textContent = describe(error);
  }
  dialog.showModal();
  estimate();
}

// --- Hooks: a button on the photo page, a selection in the grid --------

function photoId() {
  const match = location.hash.match(/^#\/photo\/([0-9a-f]{6,64})$/);
  return match ? match[1] : null;
}

const exportSelected = el("button", { id: "export-selected", type: "button", hidden: true,
  onclick: () => openExport([...selected]) });

function refreshSelection() {
  exportSelected.hidden = selected.size === 0;
  exportSelected.textContent = `Export ${selected.size} selected…`;
}

function addCheckbox(tile) {
  if (!(tile instanceof HTMLElement) || !tile.classList.contains("tile") || tile.querySelector(".export-pick")) return;
  const id = tile.dataset.id;
  const box = el("input", { type: "checkbox", class: "export-pick", "aria-label": "Select for export", checked: selected.has(id),
    onchange: () => { if (box.checked) selected.add(id); else selected.delete(id); refreshSelection(); } });
  tile.prepend(box);
}

function install() {
  const hide = $("hide");
  if (hide && !$("export-photo")) {
    hide.after(el("button", { id: "export-photo", type: "button", text: "Export…", onclick: () => { const id = photoId(); if (id) openExport([id]); } }));
  }
  const upload = document.querySelector(".bar-end");
  if (upload && !exportSelected.isConnected) upload.prepend(exportSelected);
  const grid = $("grid");
  if (grid) {
    for (const tile of grid.children) addCheckbox(tile);
    new MutationObserver((records) => {
      for (const record of records) for (const node of record.addedNodes) addCheckbox(node);
      // Photos no longer in the grid leave the selection.
      const shown = new Set([...grid.children].map((t) => t.dataset.id));
      if (record0(records) && grid.children.length) for (const id of [...selected]) if (!shown.has(id)) selected.delete(id);
      refreshSelection();
    }).observe(grid, { childList: true });
  }
}

function record0(records) { return records.some((r) => r.removedNodes.length > 0); }

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", install);
else install();
