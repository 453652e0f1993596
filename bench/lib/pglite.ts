/**
 * Our server on the embedded default (PGlite, a fresh data directory), under a share of the bench's load: its
 * resident memory after start and after the load, and its req/s for reference (no targets: the ratios are taken on
 * PostgreSQL, where the baselines run). Once per bench, after the rounds.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Child } from "./children.ts";
import { benchKeys } from "./keys.ts";
import { describe, type Figures, type LoadSettings, type LoadSpec, runLoad } from "./load.ts";
import { serverMemory } from "./proc.ts";
import { call, registerUser } from "./setup.ts";

export interface PgliteInput {
  /** Starts our server with these extra environment variables. */
  startApp(env: Record<string, string>): Promise<Child>;
  settings: LoadSettings;
  trivialBody: string;
  batchBody: string;
  batchSize: number;
  log(line: string): void;
}

export interface PgliteFigures {
  memory: {
    afterStartMiB: number;
    afterLoadMiB: number;
    /** VmHWM after the load: the highest resident memory of the server's life. */
    peakMiB: number;
    treeAfterStartMiB: number;
    treeAfterLoadMiB: number;
  };
  runs: Record<string, Figures>;
}

const LIST_BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "digitalresident.list", params: { limit: 10 } });

export async function pgliteLoad(input: PgliteInput): Promise<PgliteFigures> {
  const dataDir = mkdtempSync(join(tmpdir(), "freezone-bench-pglite-"));
  const app = await input.startApp({ DATABASE_URL: "", DATABASE_SCHEMA: "", PGLITE_DIR: join(dataDir, "data") });
  try {
    const rpcUrl = `${app.url}/rpc`;
    const user = await registerUser(rpcUrl);
    // "After start" as in the cold start: right after the first registration.
    const started = serverMemory(app.pid, app.port);
    const keys = await benchKeys(app.url);
    const session = { authorization: `Bearer ${user.token}` };
    const scriptKey = { "x-api-key": keys.script };
    const sample = async (body: string, headers: Record<string, string> = {}) => {
      const answer = await call(rpcUrl, body, headers);
      if (answer.status !== 200 || answer.text.includes('"error"')) {
        throw new Error(`our server on PGlite answers an error: ${answer.text.slice(0, 500)}`);
      }
      return answer.text;
    };
    const spec = (name: string, body: string, headers: Record<string, string>, expectBody: string): LoadSpec => ({
      name,
      server: app,
      path: "/rpc",
      body,
      headers,
      expectBody,
    });
    const specs: Record<string, LoadSpec & { callsPerRequest?: number }> = {
      trivial: spec("PGlite: trivial", input.trivialBody, {}, await sample(input.trivialBody)),
      scriptKey: spec(
        "PGlite: trivial, script key",
        input.trivialBody,
        scriptKey,
        await sample(input.trivialBody, scriptKey),
      ),
      batch: {
        ...spec(`PGlite: batch x${input.batchSize}`, input.batchBody, {}, await sample(input.batchBody)),
        callsPerRequest: input.batchSize,
      },
      list: spec("PGlite: digitalresident.list", LIST_BODY, session, await sample(LIST_BODY, session)),
    };
    const runs: Record<string, Figures> = {};
    for (const [key, s] of Object.entries(specs)) {
      runs[key] = await runLoad(s, input.settings);
      input.log(describe(runs[key]));
    }
    const loaded = serverMemory(app.pid, app.port);
    return {
      memory: {
        afterStartMiB: started.rssMiB,
        afterLoadMiB: loaded.rssMiB,
        peakMiB: loaded.peakRssMiB,
        treeAfterStartMiB: started.treeRssMiB,
        treeAfterLoadMiB: loaded.treeRssMiB,
      },
      runs,
    };
  } finally {
    await app.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
