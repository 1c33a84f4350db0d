// `vite dev` only: serves /wasm/* from $MEMLAB_WASM_DIR (the memlab_wasm build output) and
// proxies nothing else; the production bundle never contains the models (see src/models.ts).
import { readFileSync, existsSync } from "node:fs";
import { join, basename } from "node:path";
import type { Plugin } from "vite";

export function devWasm(): Plugin {
  return {
    name: "memlab-dev-wasm",
    apply: "serve",
    configureServer(server) {
      const dir = process.env.MEMLAB_WASM_DIR;
      server.middlewares.use((req, res, next) => {
        if (!dir || !req.url?.startsWith("/wasm/")) return next();
        const file = join(dir, basename(req.url.split("?")[0]!));
        if (!existsSync(file)) return next();
        res.setHeader(
          "Content-Type",
          file.endsWith(".wasm") ? "application/wasm" : "text/javascript",
        );
        res.end(readFileSync(file));
      });
    },
  };
}
