// Appended to the emscripten ES module (--extern-post-js): instantiate once (top-level await),
// then export the two functions by name, so a page or node does
//   import { model, catalog } from "./memlab_models.mjs";
//   JSON.parse(model("coalescing", JSON.stringify({ pattern: "strided", stride: 2 })));
const memlabModels = await createMemlabModels();
export function model(name, paramsJson) {
  return memlabModels.model(String(name), paramsJson === undefined ? "" : String(paramsJson));
}
export function catalog() {
  return memlabModels.catalog();
}
