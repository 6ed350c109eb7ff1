// The few Node globals the test uses (Debian has no @types/node package
// for tsc 4.8; the npm registry is not used). Node 20 provides fetch,
// FormData and Blob itself: their types come from the DOM library.
declare const process: { argv: string[]; exitCode?: number };
declare function require(name: "fs"): { readFileSync(path: string): Uint8Array };
