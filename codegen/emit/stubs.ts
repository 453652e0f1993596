import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { IndentationText, type ObjectLiteralExpression, Project, QuoteKind, SyntaxKind } from "ts-morph";
import type { ServiceModel, SpecModel } from "../model.ts";
import { kebabCase } from "../naming.ts";
import { type GeneratedFile, readIfExists } from "../write.ts";
import { handlersInterfaceName } from "./handlers.ts";

const SERVICES_DIR = "src/services";

function newServiceFile(service: ServiceModel): string {
  return [
    `import type { ${handlersInterfaceName(service)} } from "../../generated/handlers/index.ts";`,
    'import type { RpcContext } from "../rpc/context.ts";',
    'import { RpcError } from "../rpc/errors.ts";',
    "",
    `/** ${service.name}: hand-written handlers; codegen adds a stub for each new method and never rewrites code. */`,
    `export const ${service.key}: ${handlersInterfaceName(service)}<RpcContext> = {};`,
    "",
  ].join("\n");
}

function objectLiteral(project: Project, path: string, text: string, variable: string): ObjectLiteralExpression | null {
  const file = project.createSourceFile(path, text, { overwrite: true });
  const decl = file.getVariableDeclaration(variable);
  return decl?.getInitializerIfKind(SyntaxKind.ObjectLiteralExpression) ?? null;
}

function withStubs(project: Project, service: ServiceModel, existing: string | null): string {
  const path = `${SERVICES_DIR}/${kebabCase(service.name)}.ts`;
  const text = existing ?? newServiceFile(service);
  const literal = objectLiteral(project, path, text, service.key);
  if (!literal) return text;
  const present = new Set(
    literal
      .getProperties()
      .map((p) =>
        p.isKind(SyntaxKind.ShorthandPropertyAssignment) ||
        p.isKind(SyntaxKind.MethodDeclaration) ||
        p.isKind(SyntaxKind.PropertyAssignment)
          ? p.getName()
          : "",
      ),
  );
  const missing = service.methods.filter((m) => !present.has(m.handlerName));
  if (missing.length === 0) return text;
  const file = literal.getSourceFile();
  const importsRpcError = file
    .getImportDeclarations()
    .some((d) => d.getNamedImports().some((n) => (n.getAliasNode()?.getText() ?? n.getName()) === "RpcError"));
  // The stubs throw RpcError: a hand-written file that never needed it gets the import with its first stub.
  if (!importsRpcError) file.addImportDeclaration({ namedImports: ["RpcError"], moduleSpecifier: "../rpc/errors.ts" });
  for (const m of missing) {
    literal.addMethod({
      name: m.handlerName,
      isAsync: true,
      parameters: [{ name: "_ctx" }, { name: "_params" }],
      statements: [`throw RpcError.notImplemented(${JSON.stringify(m.name)});`],
    });
  }
  return file.getFullText();
}

function withIndex(project: Project, model: SpecModel, existing: string | null): string {
  const path = `${SERVICES_DIR}/index.ts`;
  const text =
    existing ??
    [
      'import type { ServiceHandlers } from "../../generated/handlers/index.ts";',
      'import type { RpcContext } from "../rpc/context.ts";',
      "",
      "/** Every service's hand-written handlers, as the generated registry binds them. */",
      "export const services: ServiceHandlers<RpcContext> = {};",
      "",
    ].join("\n");
  const literal = objectLiteral(project, path, text, "services");
  if (!literal) return text;
  const file = literal.getSourceFile();
  const present = new Set(
    literal
      .getProperties()
      .map((p) =>
        p.isKind(SyntaxKind.ShorthandPropertyAssignment) || p.isKind(SyntaxKind.PropertyAssignment) ? p.getName() : "",
      ),
  );
  for (const service of model.services) {
    if (present.has(service.key)) continue;
    file.addImportDeclaration({ namedImports: [service.key], moduleSpecifier: `./${kebabCase(service.name)}.ts` });
    literal.addShorthandPropertyAssignment({ name: service.key });
  }
  return file.getFullText();
}

/**
 * A file codegen changed, with its imports in the order the project's Biome settings want (the RpcError import or a
 * new service's import lands where organizeImports puts it), so what codegen writes passes `npm run lint` as written
 * (issue 32 item 2). Only Biome's import organizer runs (formatter and linter off): every other hand-written byte
 * stays. Runs only for files that gained a stub or an import, so an ordinary run spawns nothing.
 */
function asBiomeWrites(root: string, path: string, text: string): string {
  const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
  const onlyImports = ["--formatter-enabled=false", "--linter-enabled=false"];
  return execFileSync(process.execPath, [biome, "check", "--write", ...onlyImports, `--stdin-file-path=${path}`], {
    cwd: root,
    input: text,
    encoding: "utf8",
    stdio: ["pipe", "pipe", "pipe"],
  });
}

/** Adds a not-implemented stub for every method without a hand-written handler; existing code is kept byte for byte. */
export function emitStubs(model: SpecModel, root: string): GeneratedFile[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      quoteKind: QuoteKind.Double,
      useTrailingCommas: true,
      indentationText: IndentationText.TwoSpaces,
    },
  });
  const changed = (path: string, existing: string | null, content: string) =>
    content === existing ? content : asBiomeWrites(root, path, content);
  const files = model.services.map((service) => {
    const path = `${SERVICES_DIR}/${kebabCase(service.name)}.ts`;
    const existing = readIfExists(join(root, path));
    return { path, content: changed(path, existing, withStubs(project, service, existing)) };
  });
  const indexPath = `${SERVICES_DIR}/index.ts`;
  const index = readIfExists(join(root, indexPath));
  files.push({ path: indexPath, content: changed(indexPath, index, withIndex(project, model, index)) });
  return files;
}
