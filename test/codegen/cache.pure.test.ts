import { afterEach, describe, expect, test } from "vitest";
import { cacheKey, cacheRead, cacheWrite } from "../../codegen/cache.ts";
import { formatFiles, formatKey } from "../../codegen/format.ts";
import { checkOpenrpcDocuments } from "../../codegen/openrpc-check.ts";

// Issue 32 item 4: formatting and the OpenRPC meta-schema check are cached by the SHA-256 of what they read, so
// a one-method change formats and checks only what changed; the cache never changes an answer.
afterEach(() => {
  delete process.env["FZ_CODEGEN_CACHE"];
});

const file = (n: number) => ({ path: `generated/cache-probe-${n}.ts`, content: `export const  probe${n}=${n}\n` });

describe("the format cache", () => {
  test("the same files format to the same text with the cache on and off", async () => {
    const unique = Date.now();
    const files = [file(unique), file(unique + 1), { path: "generated/data.json", content: "{ }" }];
    process.env["FZ_CODEGEN_CACHE"] = "0";
    const off = await formatFiles(files);
    delete process.env["FZ_CODEGEN_CACHE"];
    const first = await formatFiles(files);
    const second = await formatFiles(files);
    expect(first).toEqual(off);
    expect(second).toEqual(off);
    expect(off[0]?.content).toBe(`export const probe${unique} = ${unique};\n`);
    expect(off[2]?.content).toBe("{ }"); // not TypeScript under generated/: untouched
  });

  test("a hit is answered from the cache without formatting; a changed text is another key", async () => {
    const text = `export const  planted=${Date.now()}\n`;
    cacheWrite("format", formatKey(text), "// the cached answer\n");
    const [hit] = await formatFiles([{ path: "generated/planted.ts", content: text }]);
    expect(hit?.content).toBe("// the cached answer\n");
    const [miss] = await formatFiles([{ path: "generated/planted.ts", content: `${text}\n` }]);
    expect(miss?.content).toMatch(/^export const planted = \d+;\n$/);
  });
});

describe("the cache store", () => {
  test("write then read; another key or area misses; FZ_CODEGEN_CACHE=0 reads and writes nothing", () => {
    const key = cacheKey("salt", `text ${Date.now()}`);
    expect(cacheRead("probe", key)).toBeNull();
    cacheWrite("probe", key, "value");
    expect(cacheRead("probe", key)).toBe("value");
    expect(cacheRead("other", key)).toBeNull();
    expect(cacheKey("salt", "a")).not.toBe(cacheKey("salt2", "a"));
    process.env["FZ_CODEGEN_CACHE"] = "0";
    expect(cacheRead("probe", key)).toBeNull();
    const off = cacheKey("salt", `off ${Date.now()}`);
    cacheWrite("probe", off, "x");
    delete process.env["FZ_CODEGEN_CACHE"];
    expect(cacheRead("probe", off)).toBeNull();
  });
});

describe("the OpenRPC check cache", () => {
  const doc = (title: string) => ({
    openrpc: "1.3.2",
    info: { title, version: "1.0.0" },
    methods: [{ name: "x.get", params: [], result: { name: "r", schema: { type: "object" } } }],
  });

  test("a valid document passes twice; an invalid one is reported every time (failures are never cached)", async () => {
    const valid = { file: "a.json", doc: doc(`valid ${Date.now()}`) };
    expect(await checkOpenrpcDocuments([valid])).toEqual([]);
    expect(await checkOpenrpcDocuments([valid])).toEqual([]);
    const broken = { file: "b.json", doc: { ...doc(`broken ${Date.now()}`), methods: "none" } as never };
    const first = await checkOpenrpcDocuments([valid, broken]);
    const again = await checkOpenrpcDocuments([valid, broken]);
    expect(first.map((d) => d.file)).toEqual(["b.json"]);
    expect(again).toEqual(first);
  });
});
