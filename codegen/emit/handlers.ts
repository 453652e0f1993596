import { HEADER, paramsTypeName } from "../derive.ts";
import type { MethodModel, ServiceModel, SpecModel } from "../model.ts";
import { kebabCase, tsTypeName } from "../naming.ts";
import type { GeneratedFile } from "../write.ts";

export function handlersInterfaceName(service: ServiceModel): string {
  return `${service.name}Handlers`;
}

function docComment(m: MethodModel): string {
  const text = [
    `\`${m.name}\`${m.summary ? `: ${m.summary}` : ""}`,
    `x-auth: ${m.auth}${m.internal ? " (internal)" : ""}${m.target ? `, target ${m.target.record}` : ""}`,
  ];
  return `  /** ${text.join(" — ").replaceAll("*/", "* /")} */`;
}

function emitService(service: ServiceModel): GeneratedFile {
  const types = new Set<string>();
  const targeted = service.methods.some((m) => m.target);
  const lines = service.methods.map((m) => {
    const params = tsTypeName(paramsTypeName(m));
    const result = tsTypeName(m.result);
    types.add(params);
    types.add(result);
    // The dispatcher loaded and authorized the target: the handler reads it as `ctx.target.row`.
    const ctx = m.target
      ? `Targeted<Ctx, RowOf[${JSON.stringify(m.target.record)}]${m.target.optional ? " | null" : ""}>`
      : "Ctx";
    return `${docComment(m)}\n  ${m.handlerName}(ctx: ${ctx}, params: ${params}): ${result} | Promise<${result}>;`;
  });
  const content = [
    HEADER,
    ...(targeted
      ? ['import type { RowOf } from "../entities.ts";', 'import type { Targeted } from "../policy.ts";']
      : []),
    `import type { ${[...types].sort().join(", ")} } from "../types.ts";`,
    "",
    `/** ${service.name} ${service.version}: one method per operation; \`Ctx\` is the runtime's request context. */`,
    `export interface ${handlersInterfaceName(service)}<Ctx> {`,
    lines.join("\n"),
    "}",
    "",
  ].join("\n");
  return { path: `generated/handlers/${kebabCase(service.name)}.ts`, content };
}

/** One interface per service, plus the map of all services the registry binds. */
export function emitHandlers(model: SpecModel): GeneratedFile[] {
  const files = model.services.map(emitService);
  const index = [
    HEADER,
    ...model.services.map((s) => `import type { ${handlersInterfaceName(s)} } from "./${kebabCase(s.name)}.ts";`),
    "",
    ...model.services.map((s) => `export type { ${handlersInterfaceName(s)} } from "./${kebabCase(s.name)}.ts";`),
    "",
    "/** Every service's handlers, keyed as the registry binds them. */",
    "export interface ServiceHandlers<Ctx> {",
    ...model.services.map((s) => `  ${s.key}: ${handlersInterfaceName(s)}<Ctx>;`),
    "}",
    "",
  ].join("\n");
  return [...files, { path: "generated/handlers/index.ts", content: index }];
}
