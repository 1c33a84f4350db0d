// One JS file, one CSS file and index.html: `memlab serve` embeds them and `memlab report`
// inlines them into one self-contained HTML file, so nothing may be split into chunks or
// loaded from a URL the report cannot inline. The WebAssembly models are not bundled: the server
// serves them under /wasm/ and the report inlines them as base64 blocks (src/models.ts).
import { defineConfig } from "vitest/config";
import { devWasm } from "./scripts/dev-wasm-plugin.ts";

export default defineConfig({
  plugins: [devWasm()],
  base: "./",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    assetsInlineLimit: 100_000_000,
    cssCodeSplit: false,
    modulePreload: false,
    chunkSizeWarningLimit: 2000,
    rollupOptions: {
      output: {
        entryFileNames: "assets/memlab.js",
        assetFileNames: "assets/memlab[extname]",
        codeSplitting: false,
      },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    environment: "node",
  },
});
