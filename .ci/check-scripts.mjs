// Check the scripts in static/ with TypeScript, each one alone with only the
// files it names: `/// <reference path="core.js" />` for every script whose
// part of window.scorekeeper it uses (and the bundle order of web/assets.py
// puts those first: tests/test_script_order.py). Using another script's
// function without naming that script fails here, as does a type error.
// The browser runs the files as written: nothing is built.
//
// Usage: node .ci/check-scripts.mjs   (after `npm ci`; exit status 1 on errors)
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const configPath = path.join(root, "tsconfig.json");
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n")); },
});
// Only the files a script names directly: what those name in turn stays out.
const options = { ...parsed.options, noResolve: true };
const declarations = parsed.fileNames.filter((f) => f.endsWith(".d.ts"));
const scripts = parsed.fileNames.filter((f) => f.endsWith(".js"));

// One parse of each file (the DOM's types above all) for every program.
const host = ts.createCompilerHost(options);
const parse = host.getSourceFile;
const parsedFiles = new Map();
host.getSourceFile = (name, language, onError, fresh) => {
  if (!parsedFiles.has(name)) { parsedFiles.set(name, parse.call(host, name, language, onError, fresh)); }
  return parsedFiles.get(name);
};

/** The scripts `file` names in its `/// <reference path>` lines. */
function named(file) {
  const text = fs.readFileSync(file, "utf8");
  return ts.preProcessFile(text, true, true).referencedFiles.map(
    (ref) => path.resolve(path.dirname(file), ref.fileName).split(path.sep).join("/"));
}

const format = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => root,
  getNewLine: () => "\n",
};
let errors = 0;
for (const script of scripts) {
  const wanted = named(script);
  const missing = wanted.filter((f) => !scripts.includes(f));
  for (const f of missing) {
    console.error(`${path.relative(root, script)}: names ${path.relative(root, f)}, not a script in static/`);
    errors += 1;
  }
  const program = ts.createProgram({
    rootNames: [...declarations, ...wanted.filter((f) => !missing.includes(f)), script],
    options,
    host,
  });
  const file = program.getSourceFile(script);
  const found = [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ];
  if (found.length) {
    console.error(ts.formatDiagnostics(found, format).trimEnd());
    errors += found.length;
  }
}
console.log(`${scripts.length} scripts checked, each with only the scripts it names: ${errors} error(s)`);
process.exit(errors ? 1 : 0);
