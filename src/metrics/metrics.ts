import { Counter, collectDefaultMetrics, Registry } from "prom-client";
import type { Runtime } from "../rpc/runtime.ts";
import { CallStats, callSeriesText } from "./metrics-calls.ts";
import { registerStateGauges } from "./metrics-gauges.ts";

/** How an MCP tool call ended, as counted: the call log's status, with the approval request told apart. */
export type ToolCallOutcome = "ok" | "refused" | "approval_required" | "error";

/**
 * Process metrics (CPU, memory, event loop lag, GC) belong to the process, not to an app: one registry per process,
 * made on the first scrape (tests start many apps in one process; each app has its own registry for the rest).
 */
let processRegistry: Registry | null = null;

function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The metrics of one app (`GET /metrics`, docs/deploy.md "Metrics"): the JSON-RPC call series (written from plain
 * counts, src/app/metrics-calls.ts) and its own prom-client Registry for the rest.
 */
export class AppMetrics {
  readonly registry = new Registry();
  readonly calls: CallStats;
  private readonly toolCalls: Counter<"tool" | "status">;

  constructor(runtime: Runtime) {
    this.calls = new CallStats((name) => name === "rpc.discover" || runtime.registry.has(name));
    this.toolCalls = new Counter({
      name: "freezone_mcp_tool_calls_total",
      help: "MCP tool calls (on /mcp, and agent keys' calls on /rpc) per tool and status",
      labelNames: ["tool", "status"],
      registers: [this.registry],
    });
    registerStateGauges(runtime, this.registry);
  }

  toolCall(tool: string, status: ToolCallOutcome): void {
    this.toolCalls.inc({ tool, status });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text: the call series, this app's registry, then the process's. */
  async scrape(): Promise<string> {
    const registries = `${await this.registry.metrics()}\n${await processMetrics().metrics()}`;
    return `${callSeriesText(this.calls)}\n${registries}`;
  }
}

const byRuntime = new WeakMap<Runtime, AppMetrics>();

/** Creates the app's metrics; the endpoints and the MCP tool path find them by their runtime. */
export function startMetrics(runtime: Runtime): AppMetrics {
  const metrics = new AppMetrics(runtime);
  byRuntime.set(runtime, metrics);
  return metrics;
}

/** The runtime's metrics; null when the runtime was built without them. */
export function metricsOf(runtime: Runtime): AppMetrics | null {
  return byRuntime.get(runtime) ?? null;
}
