// The few Node APIs the test uses (Debian has no @types/node package for
// tsc 4.8; the npm registry is not used). Node 18+ provides fetch, FormData
// and Blob itself: their types come from the DOM library.
declare const process: { argv: string[]; env: Record<string, string | undefined>; exitCode?: number };
declare function require(name: "fs"): { readFileSync(path: string): Uint8Array };

declare module "node:test" {
    /** A running test: subtests run in order, each awaited. */
    export interface TestContext {
        test(name: string, fn: (context: TestContext) => void | Promise<void>): Promise<void>;
    }
    export function test(name: string, options: { skip?: boolean | string },
                         fn: (context: TestContext) => void | Promise<void>): Promise<void>;
}
