import { stableJson, wireSchemas } from "../derive.ts";
import type { JsonSchema, MethodModel, SpecModel } from "../model.ts";
import { reachableSchemas } from "../schema-walk.ts";
import type { GeneratedFile } from "../write.ts";

function errorsOf(m: MethodModel, model: SpecModel): JsonSchema[] {
  const codeOf = new Map(model.errorCodes.flatMap((c) => c.variants.map((v) => [v, c] as const)));
  return Object.entries(m.errors).flatMap(([type, variants]) =>
    variants.map((variant) => {
      const code = codeOf.get(variant);
      return { code: code?.code ?? -32006, message: `${type}.${variant}`, data: { type, variant } };
    }),
  );
}

function methodObject(m: MethodModel, model: SpecModel): JsonSchema {
  const policy: JsonSchema = { "x-auth": m.auth };
  if (m.internal) policy["x-internal"] = true;
  if (m.target) {
    const { company: _company, ...target } = m.target;
    policy["x-target"] = Object.fromEntries(Object.entries(target).filter(([, v]) => v !== null && v !== false));
  }
  if (m.actsAs)
    policy["x-acts-as"] = Object.fromEntries(Object.entries(m.actsAs).filter(([, v]) => v !== null && v !== false));
  if (m.callerBinding) policy["x-caller-binding"] = m.callerBinding;
  if (m.password) policy["x-password"] = m.password;
  if (m.audit) policy["x-audit"] = m.audit;
  const aliasNote = m.aliases.length > 0 ? `\n\nAlso callable as ${m.aliases.map((a) => `\`${a}\``).join(", ")}.` : "";
  return {
    name: m.name,
    ...(m.summary ? { summary: m.summary } : {}),
    description: `${m.description}${aliasNote}`.trim() || m.name,
    tags: [{ name: m.owner }],
    paramStructure: "by-name",
    params: m.params.map((p) => ({
      name: p.name,
      required: p.required,
      ...(p.description ? { description: p.description } : {}),
      schema: p.schema,
    })),
    result: { name: "result", schema: { $ref: `#/components/schemas/${m.result}` } },
    errors: errorsOf(m, model),
    ...policy,
    "x-mcp": servedMcp(m),
    ...(m.aliases.length > 0 ? { "x-alias": m.aliases } : {}),
  };
}

export function openrpcDocument(
  model: SpecModel,
  doc: { title: string; url: string },
  methods: MethodModel[],
  services: string[],
  extra: string[] = [],
): JsonSchema {
  const schemas = wireSchemas(model);
  const methodObjects = methods.map((m) => methodObject(m, model));
  const names = [
    ...reachableSchemas([...methodObjects, ...extra.map((n) => ({ $ref: `#/components/schemas/${n}` }))], schemas),
  ].sort();
  const versions = model.services
    .filter((s) => services.includes(s.name))
    .map((s) => ({ service: s.name, version: s.version }));
  return {
    openrpc: "1.3.2",
    info: {
      title: doc.title,
      version: model.schemaVersion,
      description: `JSON-RPC 2.0 methods of the ${model.context} registry platform. Schema version ${model.schemaVersion}.`,
    },
    servers: [{ name: "rpc", url: doc.url }],
    methods: methodObjects,
    components: { schemas: Object.fromEntries(names.map((n) => [n, schemas[n]])) },
    "x-services": versions,
  };
}

/**
 * The `all` document names the whole wire vocabulary, not only what its methods reach: every served record's
 * public view (those without generic CRUD included) and every enumeration of spec/enums.json.
 */
function servedEverywhere(model: SpecModel): string[] {
  return [...model.records.filter((r) => r.served).map((r) => r.name), ...model.enums];
}

/** The `all` document: every method (served at `/rpc` and `/api/v1/openrpc.json`). */
export function servedDocument(model: SpecModel): JsonSchema {
  return openrpcDocument(
    model,
    { title: model.context, url: "http://localhost:8080/rpc" },
    model.methods,
    model.services.map((s) => s.name),
    servedEverywhere(model),
  );
}

/** The served OpenRPC documents: one per domain and one with every method. */
export function emitOpenrpc(model: SpecModel): GeneratedFile[] {
  const files = model.domains.map((d) => {
    const methods = model.methods.filter((m) => m.domain === d.name);
    const doc = openrpcDocument(
      model,
      { title: `${model.context} ${d.name}`, url: `http://localhost:8080/${model.context}/${d.name}/rpc` },
      methods,
      d.services,
    );
    return { path: `generated/openrpc/${d.name}.json`, content: stableJson(doc) };
  });
  return [...files, { path: "generated/openrpc/all.json", content: stableJson(servedDocument(model)) }];
}

/**
 * The x-mcp a client reads: the tool's name and hints, and `agentTool: false` where no agent key may call the
 * method; where the catalogue lists a tool (`listing`) is the server's own business.
 */
function servedMcp(m: MethodModel): Record<string, unknown> {
  const { listing: _listing, agentTool, ...hints } = m.mcp;
  return agentTool ? hints : { ...hints, agentTool };
}
