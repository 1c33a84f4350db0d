// One JS file, one CSS file and index.html: `memlab serve` embeds them and `memlab report`
// inlines them into one self-contained HTML file, so nothing may be split into chunks or
// loaded from a URL the report cannot inline. The WebAssembly models are not bundled: the server
// serves them under /wasm/ and the report inlines them as base64 blocks (src/models.ts).
import { defineConfig } from "vitest/config";
import type { Plugin } from "vite";
import { devWasm } from "./scripts/dev-wasm-plugin.ts";

// The report inlines the bundle into <script>: no "</script", "</head>" or "<!--" may appear in
// the JS text (DOMPurify carries "<head></head>" in a template literal). "<\/" and "<\!" mean the
// same inside JS strings, template literals and regular expressions.
function inlineSafe(): Plugin {
  return {
    name: "memlab-inline-safe",
    apply: "build",
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        chunk.code = chunk.code
          .replace(/<\/(script|head|body|html|style)/gi, "<\\/$1")
          .replace(/<!--/g, "<\\!--");
      }
    },
  };
}

export default defineConfig({
  plugins: [devWasm(), inlineSafe()],
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
