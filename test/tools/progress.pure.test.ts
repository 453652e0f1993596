import { describe, expect, it } from "vitest";
import { progress } from "../../tools/progress.ts";

function sink(isTTY: boolean) {
  const chunks: string[] = [];
  return { stream: { isTTY, write: (text: string) => chunks.push(text) }, chunks };
}

describe("progress", () => {
  it("prints a line per quarter and a summary when not on a terminal", () => {
    const { stream, chunks } = sink(false);
    let clock = 0;
    const bar = progress("codegen", 8, { stream, enabled: true, now: () => clock });
    for (let i = 0; i < 8; i++) bar.tick();
    clock = 1500;
    bar.done("8 files");
    expect(chunks).toEqual([
      "codegen [###                     ] 12% 1/8\n",
      "codegen [######                  ] 25% 2/8\n",
      "codegen [############            ] 50% 4/8\n",
      "codegen [##################      ] 75% 6/8\n",
      "codegen: 8 files in 1.5 s\n",
    ]);
  });

  it("redraws one line on a terminal", () => {
    const { stream, chunks } = sink(true);
    const bar = progress("seed", 2, { stream, enabled: true, now: () => 0 });
    bar.tick(1, "residents");
    bar.tick();
    bar.done();
    expect(chunks).toEqual([
      "\r\u001b[2Kseed [############            ] 50% 1/2 residents",
      "\r\u001b[2Kseed [########################] 100% 2/2",
      "\r\u001b[2Kseed: 2 done in 0.0 s\n",
    ]);
  });

  it("writes nothing when disabled", () => {
    const { stream, chunks } = sink(false);
    const bar = progress("x", 1, { stream, enabled: false });
    bar.tick();
    bar.done();
    expect(chunks).toEqual([]);
  });
});
