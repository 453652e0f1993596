/**
 * HOOK for ready-made toolsets (issue 19, "Agents with hundreds of tools"). The server-side list is meant to live
 * in src/mcp/toolsets.ts (`TOOLSETS: {name, description, patterns}[]`), added on another branch. Until it is
 * merged, the key form reads this small local list; once it is, generate toolsets.json from TOOLSETS (or import
 * it here) so the console and the README name the same sets.
 */
import list from "./toolsets.json";

export interface Toolset {
  name: string;
  description: string;
  patterns: string[];
}

export const TOOLSETS: Toolset[] = list;
