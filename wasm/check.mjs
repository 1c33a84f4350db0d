// Used by tests/host/test_model_wasm.cpp: runs every case of a JSON file
// ([{"name": ..., "params": <JSON text>}, ...]) through the WebAssembly module and prints the
// answers, one JSON text per line, then the catalog.
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [modulePath, casesPath] = process.argv.slice(2);
const { model, catalog } = await import(pathToFileURL(modulePath).href);
const cases = JSON.parse(readFileSync(casesPath, "utf8"));
const lines = cases.map((c) => model(c.name, c.params));
lines.push(catalog());
process.stdout.write(lines.join("\n") + "\n");
