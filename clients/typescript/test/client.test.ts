// The generated TypeScript client (clients/typescript/src, typescript-fetch)
// against a real `photoedit serve` that scripts/test-clients started with a
// token and a signing key on an empty library. Compiled with tsc, run by
// Node's test runner (Node 18+, its built-in fetch), each check a subtest:
//
//   PHOTOEDIT_BASE_URL=… PHOTOEDIT_TOKEN=… PHOTOEDIT_SAMPLES=samples node --test out/test/
//
// scripts/test-clients runs it against the package as installed from its
// `npm pack` tarball (the import below then names the package); without
// PHOTOEDIT_BASE_URL the test is skipped (`npm test` with no server).
//
// Upload (a name with spaces), a listing whose `where` holds spaces (sent
// both as the generator writes queries, %20, and form-encoded with `+`),
// an edit with If-Match and the 412 read as a typed Problem, a signed
// render URL fetched without a token, content editing (input, the
// editor's own render, commit) and the change feed.
import { test, type TestContext } from "node:test";
import {
    Configuration, EditsApi, FeedApi, OperationsApi, PhotosApi, RendersApi, ResponseError,
    ProblemFromJSON, Problem, RenderURLFormatEnum,
} from "../src";

const baseURL = process.env.PHOTOEDIT_BASE_URL ?? "";
const token = process.env.PHOTOEDIT_TOKEN ?? "";
const samples = process.env.PHOTOEDIT_SAMPLES ?? "samples";
let t: TestContext;

/** One check: a subtest of its own, failing with `what` when `ok` is false. */
async function check(ok: boolean, what: string): Promise<boolean> {
    await t.test(what, () => {
        if (!ok) throw new Error(`failed: ${what}`);
    });
    return ok;
}

/** The typed problem of a failed call (the generated client throws ResponseError). */
async function problemOf(call: Promise<unknown>): Promise<Problem | null> {
    try {
        await call;
        return null;
    } catch (error) {
        if (!(error instanceof ResponseError)) throw error;
        return ProblemFromJSON(await error.response.json());
    }
}

function jpeg(bytes: Uint8Array): boolean {
    return bytes.length > 2 && bytes[0] === 0xff && bytes[1] === 0xd8;
}

async function main(): Promise<void> {
    const configuration = new Configuration({ basePath: baseURL, accessToken: token });
    // The same, with queries form-encoded as browsers write them (`+` for a space).
    const formEncoded = new Configuration({
        basePath: baseURL, accessToken: token,
        queryParamsStringify: (params) => new URLSearchParams(params as Record<string, string>).toString(),
    });
    const photos = new PhotosApi(configuration);
    const edits = new EditsApi(configuration);
    const renders = new RendersApi(configuration);
    const feed = new FeedApi(configuration);

    const capabilities = await new OperationsApi(configuration).getCapabilities();
    await check(capabilities.urlSigning && capabilities.tokens, `capabilities: signs URLs, needs tokens (${JSON.stringify(capabilities)})`);

    // --- Upload.
    const fs = require("fs");
    const bytes = fs.readFileSync(`${samples}/coffee.jpg`);
    const photo = await photos.uploadAsset({ filename: "Beach Day 2024.jpg", body: new Blob([bytes], { type: "image/jpeg" }) });
    await check(photo.originalFilename === "Beach Day 2024.jpg" && photo.revision === 0, `upload keeps the name (${photo.originalFilename})`);
    const other = await new PhotosApi(formEncoded).uploadAsset({ filename: "a b+c.jpg", body: new Blob([fs.readFileSync(`${samples}/rotated-exif.jpg`)], { type: "image/jpeg" }) });
    await check(other.originalFilename === "a b+c.jpg", `a form-encoded name keeps its space and plus (${other.originalFilename})`);

    // --- Listing: default call, then a where with spaces in both encodings.
    const all = await photos.listAssets();
    await check(all.assets.length === 2, `listAssets() as generated lists both photos (${all.assets.length})`);
    const where = 'name="Beach Day 2024.jpg" or width >= 100000';
    const found = await photos.listAssets({ where });
    await check(found.assets.length === 1 && found.assets[0].id === photo.id, "where with spaces (%20) finds the photo");
    const foundForm = await new PhotosApi(formEncoded).listAssets({ where });
    await check(foundForm.assets.length === 1 && foundForm.assets[0].id === photo.id, "where with spaces (+) finds the photo");

    // --- Edit with If-Match; a stale one is a typed 412.
    const edited = await edits.editAsset({ id: photo.id, ifMatch: photo.etag, editAssetRequest: { chain: "exposure=-1.5,crop=1:1" } });
    await check(edited.revision === 1 && (edited.chain ?? "").includes("exposure"), `edit with If-Match: revision 1 (${edited.chain})`);
    const stale = await problemOf(edits.editAsset({ id: photo.id, ifMatch: photo.etag, editAssetRequest: { chain: "exposure=1" } }));
    await check(stale !== null && stale.status === 412 && stale.code === "stale-revision" && stale.currentRevision === 1,
          `a stale If-Match is a typed 412 stale-revision (${JSON.stringify(stale)})`);
    const lut = await problemOf(edits.editAsset({ id: photo.id, ifMatch: edited.etag, editAssetRequest: { chain: "lut=nope.cube" } }));
    await check(lut !== null && lut.status === 400 && lut.code === "unknown-lut" && !lut.detail.includes("/"),
          `a missing LUT is 400 unknown-lut naming no path (${JSON.stringify(lut)})`);

    // --- A signed render URL, fetched with no token.
    const signed = await renders.renderURL({ id: photo.id, w: 128, format: RenderURLFormatEnum.Jpeg });
    const fetched = await fetch(baseURL + signed.url);
    const rendered = new Uint8Array(await fetched.arrayBuffer());
    await check(fetched.status === 200 && fetched.headers.get("content-type") === "image/jpeg" && jpeg(rendered),
          `the signed URL renders without a token (${fetched.status})`);
    const unsigned = await fetch(`${baseURL}/v1/assets/${photo.id}/render?w=128`);
    await check(unsigned.status === 401, `the same render without signature or token is 401 (${unsigned.status})`);

    // --- Content editing: the editing input, the editor's render, the commit.
    const input = await edits.editingInput({ id: photo.id, editingInputRequest: {
        formats: [{ formatIdentifier: "com.example.ts-editor", formatVersions: ["1.0"] }] } });
    await check(input.revision === 1 && input.base === "render:1", `editing input at revision 1 on the current render (${input.base})`);
    const base = await fetch(baseURL + input.baseImage.url, { headers: { Authorization: `Bearer ${token}` } });
    const baseBytes = new Uint8Array(await base.arrayBuffer());
    await check(base.status === 200 && jpeg(baseBytes), `the base image loads with the token (${base.status})`);
    // This editor has no JPEG codec of its own in Node: its render is the
    // base image as it loaded it (an editor that changes only metadata-like
    // adjustment data), committed with its own adjustment data.
    const committed = await edits.commitEditingOutput({
        id: photo.id, ifMatch: input.etag, base: input.base,
        adjustmentData: { formatIdentifier: "com.example.ts-editor", formatVersion: "1.0", data: "eyJzdGFycyI6IDV9" },
        render: new Blob([baseBytes], { type: "image/jpeg" }),
    });
    await check(committed.revision === 2 && committed.adjustmentData?.formatIdentifier === "com.example.ts-editor",
          `the editor's output is committed: revision 2 (${committed.adjustmentData?.formatIdentifier})`);
    const twice = await problemOf(edits.commitEditingOutput({
        id: photo.id, ifMatch: input.etag, base: input.base,
        adjustmentData: { formatIdentifier: "com.example.ts-editor", formatVersion: "1.0", data: "e30=" },
        render: new Blob([baseBytes], { type: "image/jpeg" }),
    }));
    await check(twice !== null && twice.status === 412, `committing on the old revision again is 412 (${twice?.code})`);
    const resources = await fetch(`${baseURL}/v1/assets/${photo.id}/resources/fullSizePhoto`, { headers: { Authorization: `Bearer ${token}` } });
    const stored = new Uint8Array(await resources.arrayBuffer());
    await check(resources.status === 200 && stored.length === baseBytes.length && stored.every((b, i) => b === baseBytes[i]),
          `the photo's full-size render is the editor's JPEG, byte for byte (${stored.length} bytes)`);

    // --- The change feed.
    const changes = await feed.listChanges({ since: 0 });
    const kinds = changes.changes.filter((c) => c.id === photo.id).map((c) => c.kind);
    await check(kinds.includes("insert") && kinds.includes("update") && !changes.more && changes.next === changes.latest,
          `the change feed has the photo's insert and updates (${kinds})`);
    const later = await feed.listChanges({ since: changes.latest });
    await check(later.changes.length === 0, "nothing after the latest sequence");

}

test("the typescript client against a running photoedit serve", { skip: baseURL ? false : "PHOTOEDIT_BASE_URL is not set" },
     async (context) => {
    t = context;
    await main();
});
