// Versions (issue 40) in the web editor: virtual copies stacked under their
// master in the grid (a badge with the count; expand to show them), a
// "Virtual copy…" action, named snapshots in the history panel (take,
// restore as a new revision, remove), "Save as preset…" with the groups'
// checklist (GET /v1/recipe-groups) and the amount, and "Sync…" of one
// checked photo's settings onto the other checked photos (the grid's check
// boxes are export.js's: one selection for both). app.js calls the hooks
// below; everything else is added here.
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
  node.append(...children.filter((c) => c != null));
  return node;
}

/** What app.js lends: photo(), write(action, path, body), reloadHistory(), tile(asset), addPresetOption(preset), toast(text), showError(error). */
let app = null;

/** The recipe groups (GET /v1/recipe-groups), asked once. */
let groupsPromise = null;
function recipeGroups() {
  groupsPromise ??= api.get("/v1/recipe-groups").then((r) => r.groups).catch((error) => { groupsPromise = null; throw error; });
  return groupsPromise;
}

/** A check box per group, ticked as Lightroom's checklist starts (all but geometry and local). */
async function groupChecklist(container, prefix) {
  const groups = await recipeGroups();
  container.replaceChildren(...groups.map((g) => el("label", { class: "group-check", title: g.filters.join(", ") },
    el("input", { type: "checkbox", id: `${prefix}-${g.name}`, value: g.name, checked: g.syncedByDefault }), ` ${g.title}`)));
}

function checkedGroups(container) {
  return [...container.querySelectorAll("input[type=checkbox]:checked")].map((box) => box.value);
}

function dialogOf(id, title, ...body) {
  // Enter in a field does what the dialog's primary button does (not a bare close).
  const dialog = el("dialog", { id, "aria-labelledby": `${id}-title` },
    el("form", { method: "dialog", class: "versions-form",
                 onsubmit: (event) => { event.preventDefault(); dialog.querySelector("button.primary")?.click(); } },
       el("h2", { id: `${id}-title`, text: title }), ...body));
  document.body.append(dialog);
  return dialog;
}

function download(blob, name) {
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// --- The grid: copies stacked under their master -----------------------------

/** Masters whose copies are shown. */
const expanded = new Set();

/** Called by app.js for every tile it makes: the copy's name, the master's badge. */
export function decorateTile(node, asset) {
  if (asset.masterIdentifier) {
    node.dataset.master = asset.masterIdentifier;
    node.classList.add("copy-tile");
    node.querySelector(".tile-link")?.append(el("span", { class: "copy-name", text: asset.copyName || "Copy" }));
  }
  // A photo fetched alone has no copyCount: the tile it replaces knows it.
  const previous = document.querySelector(`#grid .tile[data-id="${CSS.escape(asset.id)}"]`);
  const count = asset.copyCount ?? Number(previous?.dataset.copies || 0);
  setCount(node, count);
}

function setCount(node, count) {
  node.querySelector(".stack-toggle")?.remove();
  node.dataset.copies = String(count);
  if (!count) return;
  const id = node.dataset.id;
  const open = expanded.has(id);
  node.append(el("button", { type: "button", class: "stack-toggle", "aria-expanded": String(open),
    "aria-label": `${open ? "Hide" : "Show"} ${count} virtual cop${count === 1 ? "y" : "ies"}`, title: "Virtual copies",
    text: `${count} cop${count === 1 ? "y" : "ies"} ${open ? "▴" : "▾"}`, onclick: () => toggleStack(id) }));
}

async function toggleStack(id) {
  if (expanded.has(id)) expanded.delete(id); else expanded.add(id);
  const master = tileOf(id);
  if (master) setCount(master, Number(master.dataset.copies || 0));
  if (expanded.has(id)) {
    // Copies not listed yet (a later page, another search) are fetched.
    try {
      const { assets } = await api.get(`/v1/assets/${encodeURIComponent(id)}/versions`);
      for (const copy of assets.slice(1)) {
        if (!copy.deletedDate && !tileOf(copy.id)) $("grid").append(app.tile({ ...copy, copyCount: 0 }));
      }
    } catch (error) { app.showError(error); }
  }
  restack();
}

function tileOf(id) { return document.querySelector(`#grid .tile[data-id="${CSS.escape(id)}"]`); }

/** Each master's copies right after it, hidden unless it is expanded; a copy whose master is not shown stands alone. */
function restack() {
  const grid = $("grid");
  if (!grid) return;
  const seen = new Set();
  for (const tile of [...grid.children]) {
    if (seen.has(tile.dataset.id)) tile.remove(); else seen.add(tile.dataset.id);
  }
  for (const copy of grid.querySelectorAll(".tile[data-master]")) copy.hidden = false;
  for (const master of [...grid.querySelectorAll(".tile:not([data-master])")]) {
    const copies = [...grid.querySelectorAll(`.tile[data-master="${CSS.escape(master.dataset.id)}"]`)];
    let anchor = master;
    for (const copy of copies) {
      if (anchor.nextElementSibling !== copy) anchor.after(copy);
      copy.hidden = !expanded.has(master.dataset.id);
      anchor = copy;
    }
  }
}

/** A copy came or went: its master's count is asked again. */
async function recount(masterID) {
  const master = tileOf(masterID);
  if (!master) return;
  try {
    const { assets } = await api.get(`/v1/assets/${encodeURIComponent(masterID)}/versions`);
    setCount(master, assets.slice(1).filter((a) => !a.deletedDate).length);
  } catch { /* the master is gone: its tile goes too */ }
}

// --- The photo page: "Virtual copy…", what the photo is a copy of -----------

let duplicateDialog = null;

function openDuplicate() {
  const photo = app.photo();
  if (!photo) return;
  if (!duplicateDialog) {
    const name = el("input", { id: "duplicate-name", type: "text", maxlength: "200", placeholder: "Copy N", autocomplete: "off" });
    const fresh = el("input", { id: "duplicate-fresh", type: "checkbox" });
    const status = el("p", { id: "duplicate-status", class: "error", role: "alert" });
    duplicateDialog = dialogOf("duplicate-dialog", "Virtual copy",
      el("p", { class: "hint", text: "A new photo sharing this original (no second copy of the file), with its own history from now on." }),
      el("label", { for: "duplicate-name", text: "Name" }), name,
      el("label", { class: "check" }, fresh, " Start from the original (no edits)"), status,
      el("div", { class: "dialog-actions" }, el("button", { type: "button", text: "Cancel", onclick: () => duplicateDialog.close() }),
        el("button", { id: "duplicate-go", type: "button", class: "primary", text: "Create", onclick: duplicate })));
  }
  $("duplicate-name").value = "";
  $("duplicate-fresh").checked = false;
  $("duplicate-status").textContent = "";
  duplicateDialog.showModal();
}

async function duplicate() {
  const photo = app.photo();
  const body = { fresh: $("duplicate-fresh").checked };
  if ($("duplicate-name").value.trim()) body.name = $("duplicate-name").value.trim();
  try {
    const { body: copy } = await api.json("POST", `/v1/assets/${photo.id}/duplicates`, { body });
    duplicateDialog.close();
    app.toast(`Made the virtual copy “${copy.copyName}”`);
    location.hash = `#/photo/${copy.id}`;
  } catch (error) {
    $("duplicate-status").textContent = describe(error);
  }
}

/** Called by app.js when a photo is shown: what it is a copy of. */
export function photoShown(photo) {
  const line = $("copy-of");
  if (!line) return;
  line.hidden = !photo.masterIdentifier;
  if (photo.masterIdentifier) {
    line.replaceChildren(`Virtual copy “${photo.copyName || "Copy"}” of `,
      el("a", { href: `#/photo/${photo.masterIdentifier}`, text: "its master" }));
  }
}

// --- The history panel: snapshots ---------------------------------------------

/** Called by app.js for each revision of the history: its snapshots' names. */
export function decorateRevision(item, revision) {
  for (const name of revision.snapshots || []) {
    item.querySelector(".rev-chain")?.before(el("span", { class: "snapshot-name", title: `Snapshot “${name}”`, text: name }));
  }
}

/** Called by app.js once the history is shown: the snapshot list with Restore and Remove. */
export function historyShown(photo, revisions) {
  const list = $("snapshots");
  if (!list) return;
  const snapshots = revisions.flatMap((r) => (r.snapshots || []).map((name) => ({ name, revision: r.number })))
    .sort((a, b) => a.name.localeCompare(b.name));
  list.replaceChildren(...snapshots.map((s) => el("li", { class: "snapshot", "data-snapshot": s.name },
    el("span", { class: "snapshot-label", text: s.name }), el("span", { class: "hint", text: `r${s.revision}` }),
    el("button", { type: "button", class: "snapshot-restore", text: "Restore", "aria-label": `Restore snapshot ${s.name}`,
      onclick: () => app.write(`Restored “${s.name}”`, `/v1/assets/${photo.id}/snapshots/${encodeURIComponent(s.name)}/restore`) }),
    el("button", { type: "button", class: "snapshot-remove", text: "×", "aria-label": `Remove snapshot ${s.name}`,
      onclick: () => removeSnapshot(photo, s.name) }))));
  $("snapshots-title").hidden = snapshots.length === 0;
}

async function takeSnapshot(event) {
  event.preventDefault();
  const photo = app.photo();
  const field = $("snapshot-name");
  const name = field.value.trim();
  if (!photo || !name) return;
  try {
    await api.json("POST", `/v1/assets/${photo.id}/snapshots`, { body: { name }, headers: { "If-Match": `"r${photo.revision}"` } });
    field.value = "";
    app.toast(`Snapshot “${name}” of revision ${photo.revision}`);
    await app.reloadHistory();
  } catch (error) { app.showError(error); }
}

async function removeSnapshot(photo, name) {
  try {
    await api.json("DELETE", `/v1/assets/${photo.id}/snapshots/${encodeURIComponent(name)}`);
    app.toast(`Removed the snapshot “${name}”`);
    await app.reloadHistory();
  } catch (error) { app.showError(error); }
}

// --- Presets from an edit ---------------------------------------------------------

let presetDialog = null;

export async function openSavePreset() {
  const photo = app.photo();
  if (!photo) return;
  if (!presetDialog) {
    const name = el("input", { id: "save-preset-name", type: "text", maxlength: "64", pattern: "[A-Za-z0-9_\\-]{1,64}",
      placeholder: "Letters, digits, - and _", autocomplete: "off" });
    const amount = el("input", { id: "save-preset-amount", type: "range", min: "0", max: "200", step: "5", value: "100" });
    const amountText = el("output", { id: "save-preset-amount-value", text: "100 %" });
    amount.addEventListener("input", () => { amountText.textContent = `${amount.value} %`; });
    presetDialog = dialogOf("save-preset-dialog", "Save as preset",
      el("p", { id: "save-preset-from", class: "hint" }),
      el("label", { for: "save-preset-name", text: "Name" }), name,
      el("fieldset", { class: "group-list" }, el("legend", { text: "Settings" }), el("div", { id: "save-preset-groups" })),
      el("label", { for: "save-preset-amount", text: "Amount" }), el("div", { class: "amount-row" }, amount, amountText),
      el("p", { id: "save-preset-status", class: "summary", role: "status" }),
      el("div", { class: "dialog-actions" }, el("button", { type: "button", text: "Close", onclick: () => presetDialog.close() }),
        el("button", { id: "save-preset-go", type: "button", class: "primary", text: "Save", onclick: savePreset })));
  }
  $("save-preset-from").textContent = `From the saved edit of this photo (revision ${photo.revision}); unsaved changes are not in it.`;
  $("save-preset-status").textContent = "";
  $("save-preset-name").value = "";
  try { await groupChecklist($("save-preset-groups"), "preset-group"); } catch (error) { $("save-preset-status").textContent = describe(error); }
  presetDialog.showModal();
}

async function savePreset() {
  const photo = app.photo();
  const status = $("save-preset-status");
  const body = { name: $("save-preset-name").value.trim(), from: photo.id, groups: checkedGroups($("save-preset-groups")),
                 amount: Number($("save-preset-amount").value) / 100 };
  try {
    const { body: preset } = await api.json("POST", "/v1/presets", { body });
    app.addPresetOption(preset);
    status.replaceChildren(`Saved ${preset.name}: ${preset.chain || "no settings"}. `,
      el("button", { type: "button", class: "link", text: "Download .xmp", onclick: () => downloadPreset(preset.name) }));
    if (preset.notExported.length) status.append(` Not in it (no Lightroom equivalent): ${preset.notExported.join(", ")}.`);
  } catch (error) {
    status.textContent = describe(error);
  }
}

async function downloadPreset(name) {
  try {
    const response = await api.fetch(`/v1/presets/${encodeURIComponent(name)}/xmp`);
    if (!response.ok) throw new Error((await response.json().catch(() => ({}))).detail || `error ${response.status}`);
    download(await response.blob(), `${name}.xmp`);
  } catch (error) { app.showError(error); }
}

// --- Sync of the checked photos ---------------------------------------------------

let syncDialog = null;

/** The photos checked in the grid (export.js's check boxes), in grid order. */
function checked() {
  return [...document.querySelectorAll("#grid .tile")].filter((t) => t.querySelector(".export-pick")?.checked)
    .map((t) => ({ id: t.dataset.id, name: t.querySelector(".tile-name")?.textContent || t.dataset.id.slice(0, 8) }));
}

const syncButton = el("button", { id: "sync-selected", type: "button", hidden: true, onclick: () => openSync() });

function refreshSyncButton() {
  const count = checked().length;
  syncButton.hidden = count < 2;
  syncButton.textContent = `Sync ${count}…`;
  syncButton.title = `Sync the settings of one of the ${count} checked photos onto the others`;
}

async function openSync() {
  const photos = checked();
  if (photos.length < 2) return;
  if (!syncDialog) {
    syncDialog = dialogOf("sync-dialog", "Sync settings",
      el("label", { for: "sync-source", text: "Copy the settings of" }), el("select", { id: "sync-source" }),
      el("p", { id: "sync-targets", class: "hint" }),
      el("fieldset", { class: "group-list" }, el("legend", { text: "Settings to sync" }), el("div", { id: "sync-groups" })),
      el("p", { id: "sync-status", class: "summary", role: "status" }),
      el("div", { class: "dialog-actions" }, el("button", { type: "button", text: "Close", onclick: () => syncDialog.close() }),
        el("button", { id: "sync-go", type: "button", class: "primary", text: "Sync", onclick: sync })));
    $("sync-source").addEventListener("change", describeTargets);
  }
  $("sync-source").replaceChildren(...photos.map((p) => el("option", { value: p.id, text: p.name })));
  $("sync-status").textContent = "";
  describeTargets();
  try { await groupChecklist($("sync-groups"), "sync-group"); } catch (error) { $("sync-status").textContent = describe(error); }
  syncDialog.showModal();
}

function describeTargets() {
  const others = checked().filter((p) => p.id !== $("sync-source").value);
  $("sync-targets").textContent = `onto ${others.length} photo${others.length === 1 ? "" : "s"}: ${others.map((p) => p.name).join(", ")}`;
}

async function sync() {
  const source = $("sync-source").value;
  const targets = checked().map((p) => p.id).filter((id) => id !== source);
  const only = checkedGroups($("sync-groups"));
  const status = $("sync-status");
  if (!only.length) { status.textContent = "Choose at least one group of settings."; return; }
  status.textContent = "Syncing…";
  $("sync-go").disabled = true;
  try {
    // The API takes at most 200 targets a request: a larger selection goes in several.
    let synced = 0, groups = [];
    for (let start = 0; start < targets.length; start += 200) {
      const { body } = await api.json("POST", `/v1/assets/${source}/sync`, { body: { targets: targets.slice(start, start + 200), only } });
      synced += body.synced.length;
      groups = body.groups;
      if (targets.length > 200) status.textContent = `Syncing… ${synced} of ${targets.length}`;
    }
    status.textContent = `Synced ${groups.join(", ")} onto ${synced} photo${synced === 1 ? "" : "s"}.`;
    app.toast(status.textContent);
  } catch (error) {
    status.textContent = describe(error);
  } finally {
    $("sync-go").disabled = false;
  }
}

// --- Installing -----------------------------------------------------------------

/** Called once by app.js with what it lends (see `app` above). */
export function setUpVersions(hooks) {
  app = hooks;
  document.head.append(el("link", { rel: "stylesheet", href: "/web/versions.css" }));
  // Under the photo, beside the crop tool (the photo's bar is full).
  $("crop-open")?.after(el("button", { id: "duplicate", type: "button", text: "Virtual copy…",
    title: "Make a virtual copy of this photo (a new photo sharing its original)", onclick: openDuplicate }));
  $("photo-title")?.after(el("span", { id: "copy-of", class: "hint", hidden: true }));
  const history = document.querySelector("section.history");
  if (history) {
    history.append(
      el("form", { id: "snapshot-form", class: "snapshot-form", onsubmit: takeSnapshot },
        el("label", { for: "snapshot-name", class: "visually-hidden", text: "Snapshot name" }),
        el("input", { id: "snapshot-name", type: "text", maxlength: "200", placeholder: "Snapshot name", autocomplete: "off" }),
        el("button", { id: "snapshot-take", type: "submit", text: "Take snapshot" })),
      el("h3", { id: "snapshots-title", class: "snapshots-title", text: "Snapshots", hidden: true }),
      el("ul", { id: "snapshots", class: "snapshots", "aria-labelledby": "snapshots-title" }));
  }
  const preset = $("preset");
  if (preset && !$("preset-save")) {
    preset.append(el("option", { id: "preset-save", value: "__save__", text: "Save as preset…" }));
  }
  const barEnd = document.querySelector(".bar-end");
  if (barEnd) barEnd.prepend(syncButton);
  const grid = $("grid");
  if (grid) {
    grid.addEventListener("change", (event) => { if (event.target.matches(".export-pick")) refreshSyncButton(); });
    new MutationObserver((records) => {
      // A copy's tile that came or went (not one restack moved: removed and
      // added again) changes its master's count.
      const added = new Set(), removed = new Set();
      for (const record of records) {
        for (const node of record.addedNodes) if (node instanceof HTMLElement && node.dataset.master) added.add(node);
        for (const node of record.removedNodes) if (node instanceof HTMLElement && node.dataset.master) removed.add(node);
      }
      const masters = new Set([...added].filter((n) => !removed.has(n)).concat([...removed].filter((n) => !added.has(n)))
        .map((n) => n.dataset.master));
      restack();
      refreshSyncButton();
      for (const id of masters) recount(id);
    }).observe(grid, { childList: true });
  }
}
