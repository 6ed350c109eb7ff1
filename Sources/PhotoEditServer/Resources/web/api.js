// The photoedit HTTP API v1 as the web editor uses it: requests with the
// tab's token (asked for once, kept in sessionStorage), problem+json errors,
// render URLs (signed when the server has keys), uploads with progress, and
// the change feed's event stream (read with fetch so it can carry the token,
// resumed with Last-Event-ID).

const TOKEN_KEY = "photoedit.token";

/** An error answered by the API (application/problem+json) or the network. */
export class ApiError extends Error {
  constructor(status, code, detail, problem = {}) {
    super(detail);
    this.status = status;
    this.code = code;
    this.detail = detail;
    this.problem = problem;
  }
}

/** One line for the user: the API's own detail, with its code. */
export function describe(error) {
  if (error instanceof ApiError) {
    if (error.status === 0) return `Cannot reach the server: ${error.detail}`;
    return `${error.detail} (${error.status} ${error.code})`;
  }
  return String(error && error.message ? error.message : error);
}

async function problemOf(response) {
  let problem = {};
  const type = response.headers.get("Content-Type") || "";
  try {
    if (type.includes("json")) problem = await response.json();
    else problem = { detail: (await response.text()).slice(0, 200) };
  } catch { /* an empty or broken body: the status says enough */ }
  return new ApiError(response.status, problem.code || `http-${response.status}`,
                      problem.detail || response.statusText || "request failed", problem);
}

export const api = {
  token: sessionStorage.getItem(TOKEN_KEY),
  /** Called when the server says 401: resolves with a token (or rejects). */
  askToken: null,
  /** Whether any request needed a token (the server has tokens). */
  needsToken: false,

  setToken(token) {
    this.token = token || null;
    if (token) sessionStorage.setItem(TOKEN_KEY, token); else sessionStorage.removeItem(TOKEN_KEY);
  },

  headers(extra = {}) {
    const headers = { ...extra };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    return headers;
  },

  /** fetch() with the token; a 401 asks for a token once and retries. */
  async fetch(path, options = {}, retried = false) {
    let response;
    try {
      response = await fetch(path, { ...options, headers: this.headers(options.headers) });
    } catch (error) {
      if (error.name === "AbortError") throw error;
      throw new ApiError(0, "network", error.message || "network error");
    }
    if (response.status === 401) {
      this.needsToken = true;
      const problem = await problemOf(response);
      if (!retried && this.askToken) {
        if (this.token) this.setToken(null);
        await this.askToken(problem.code === "invalid-token" ? "That token is not valid." : "");
        return this.fetch(path, options, true);
      }
      throw problem;
    }
    if (this.token) this.needsToken = true;
    return response;
  },

  /** A JSON request; errors throw ApiError. Returns {body, response}. */
  async json(method, path, { body, headers = {}, signal } = {}) {
    // Always revalidated: a photo's ETag covers its revision and its
    // metadata (favorite, hidden, albums), so a 304 is never stale.
    const init = { method, headers: { Accept: "application/json", ...headers }, signal, cache: "no-cache" };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers["Content-Type"] = "application/json";
    }
    const response = await this.fetch(path, init);
    if (!response.ok) throw await problemOf(response);
    const text = await response.text();
    return { body: text ? JSON.parse(text) : null, response };
  },

  get(path, options) { return this.json("GET", path, options).then((r) => r.body); },

  /** Adds a Lightroom preset (.xmp File) to the library as NAME: PUT /v1/presets/NAME; resolves with the preset. */
  async uploadPreset(name, file) {
    const response = await this.fetch(`/v1/presets/${encodeURIComponent(name)}`, {
      method: "PUT", headers: { Accept: "application/json", "Content-Type": "application/rdf+xml" }, body: file,
    });
    if (!response.ok) throw await problemOf(response);
    return response.json();
  },

  // --- Renders ---------------------------------------------------------

  /** "signed" (the server signs render URLs), "open" (no keys, no token needed), "blob" (no keys, token needed). */
  renderMode: null,
  capabilities: null,
  urls: new Map(),

  /**
   * What the server was started with (GET /v1/capabilities), asked once:
   * whether it signs render URLs decides how renders are loaded, so a
   * server without signing keys is never asked for one.
   */
  async serverCapabilities() {
    this.capabilities ??= this.get("/v1/capabilities").catch((error) => { this.capabilities = null; throw error; });
    return this.capabilities;
  },

  /**
   * A URL an <img> can load for a render of the photo at revision `rev`
   * (immutable while it is current): a signed URL when the server has
   * signing keys, else the plain render URL (no token needed) or an object
   * URL of the render fetched with the token.
   */
  async renderURL(id, params) {
    const query = new URLSearchParams(params).toString();
    const key = `${id}?${query}`;
    const cached = this.urls.get(key);
    if (cached && cached.expires > Date.now() + 60_000) return cached.url;
    if (this.renderMode === null) {
      const capabilities = await this.serverCapabilities();
      this.renderMode = capabilities.urlSigning ? "signed" : (capabilities.tokens || this.needsToken) ? "blob" : "open";
    }
    let url = null, expires = Infinity;
    if (this.renderMode === "signed") ({ url, expires } = await this.mint(id, query));
    if (this.renderMode === "open") url = `/v1/assets/${id}/render?${query}`;
    if (!url) {
      const response = await this.fetch(`/v1/assets/${id}/render?${query}`);
      if (!response.ok) throw await problemOf(response);
      url = URL.createObjectURL(await response.blob());
    }
    this.urls.set(key, { url, expires });
    return url;
  },

  /** A signed render URL from the server: {url, expires (ms)}. */
  async mint(id, query) {
    const signed = await this.get(`/v1/assets/${id}/render-url?${query}&ttl=86400`);
    return { url: signed.url, expires: Date.parse(signed.expires) || Date.now() + 3_600_000 };
  },

  /** Forgets the cached URLs of a photo (after it changed). */
  forget(id) {
    for (const [key, value] of this.urls) {
      if (key.startsWith(`${id}?`)) {
        if (value.url.startsWith("blob:")) URL.revokeObjectURL(value.url);
        this.urls.delete(key);
      }
    }
  },

  /** A preview of an unsaved chain: a Blob (JPEG). */
  async preview(id, chain, width, signal) {
    const query = new URLSearchParams({ chain, w: String(width) });
    const response = await this.fetch(`/v1/assets/${id}/preview?${query}`, { signal });
    if (!response.ok) throw await problemOf(response);
    return response.blob();
  },

  // --- Uploads ---------------------------------------------------------

  /**
   * Uploads one file (XMLHttpRequest: fetch has no upload progress).
   * onProgress(fraction); resolves with {asset, existed}.
   */
  upload(file, onProgress) {
    const send = (retried) => new Promise((resolve, reject) => {
      const request = new XMLHttpRequest();
      request.open("POST", `/v1/assets?filename=${encodeURIComponent(file.name)}`);
      if (this.token) request.setRequestHeader("Authorization", `Bearer ${this.token}`);
      request.setRequestHeader("Content-Type", "application/octet-stream");
      request.upload.onprogress = (event) => { if (event.lengthComputable) onProgress(event.loaded / event.total); };
      request.onerror = () => reject(new ApiError(0, "network", "the upload was interrupted"));
      request.onload = async () => {
        let body = {};
        try { body = JSON.parse(request.responseText || "{}"); } catch { /* not JSON */ }
        if (request.status === 401 && !retried && this.askToken) {
          this.needsToken = true;
          if (this.token) this.setToken(null);
          try { await this.askToken(""); resolve(await send(true)); } catch (error) { reject(error); }
          return;
        }
        if (request.status >= 200 && request.status < 300) resolve({ asset: body, existed: body.existed === true });
        else reject(new ApiError(request.status, body.code || `http-${request.status}`, body.detail || request.statusText, body));
      };
      request.send(file);
    });
    return send(false);
  },

  // --- Change feed -----------------------------------------------------

  /**
   * Follows /v1/changes/stream: onChange(set) for each change set,
   * onState("live"|"reconnecting"). Reconnects with Last-Event-ID after a
   * drop. Returns a function that stops it.
   */
  follow(onChange, onState) {
    let lastID = null;
    let stopped = false;
    let controller = null;
    const run = async () => {
      let delay = 1000;
      while (!stopped) {
        if (lastID === null) {
          // Start from the feed's latest sequence number, so a drop before
          // the first event still resumes where this page began.
          try { lastID = String((await this.get("/v1/changes?limit=1")).latest); } catch { /* retried below */ }
        }
        controller = new AbortController();
        try {
          const headers = { Accept: "text/event-stream" };
          if (lastID !== null) headers["Last-Event-ID"] = lastID;
          const response = await this.fetch("/v1/changes/stream", { headers, signal: controller.signal });
          if (!response.ok) throw await problemOf(response);
          onState("live");
          delay = 1000;
          const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value.replace(/\r\n?/g, "\n");
            let end;
            while ((end = buffer.indexOf("\n\n")) >= 0) {
              const block = buffer.slice(0, end);
              buffer = buffer.slice(end + 2);
              const event = { id: null, type: "message", data: [] };
              for (const line of block.split("\n")) {
                if (line.startsWith(":")) continue;
                const colon = line.indexOf(":");
                const field = colon < 0 ? line : line.slice(0, colon);
                const text = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
                if (field === "id") event.id = text;
                else if (field === "event") event.type = text;
                else if (field === "data") event.data.push(text);
                else if (field === "retry" && /^\d+$/.test(text)) delay = Number(text);
              }
              if (event.id !== null) lastID = event.id;
              if (event.type === "change" && event.data.length) {
                try { onChange(JSON.parse(event.data.join("\n"))); } catch (error) { console.error(error); }
              }
            }
          }
        } catch (error) {
          if (stopped) return;
          if (error instanceof ApiError && (error.status === 401 || error.status === 403)) { onState("offline"); return; }
        }
        if (stopped) return;
        onState("reconnecting");
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 30_000);
      }
    };
    run();
    return () => { stopped = true; if (controller) controller.abort(); };
  },
};
