/**
 * Ready-made toolsets for the key form: the server's own list (src/mcp/toolsets.ts, also the README's table), so the
 * console, the README and the discovery tests name the same sets. The module is plain data: Vite bundles it.
 */
export { TOOLSETS, type Toolset } from "../../src/mcp/toolsets.ts";
