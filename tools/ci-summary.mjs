// Sums vitest JSON reports into the one line CI reads: "N passed, N failed".
// A missing or unreadable report counts as one failure; so does every failed CI step.
import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const failedSteps = Number(args.pop() ?? "0");
let passed = 0;
let failed = 0;
for (const path of args) {
  try {
    const report = JSON.parse(readFileSync(path, "utf8"));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    if ((report.numTotalTests ?? 0) === 0) {
      console.log(`${path}: no test ran`);
      failed += 1;
    }
  } catch {
    console.log(`${path}: no report (the run crashed)`);
    failed += 1;
  }
}
const stepFailures = failedSteps > 0 && failed === 0 ? failedSteps : 0;
if (failedSteps > 0) console.log(`${failedSteps} CI step(s) failed`);
console.log(`${passed} passed, ${failed + stepFailures} failed`);
process.exit(failed + failedSteps > 0 ? 1 : 0);
