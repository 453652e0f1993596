// Types of tools/build.mjs (plain JavaScript: `npm start` checks staleness without a TypeScript loader).
export const ROOT: string;
export const DIST: string;
export function isStale(root?: string): boolean;
export function build(options?: { log?: (line: string) => void }): Promise<number>;
export function buildConsole(options?: { outDir?: string }): Promise<void>;
