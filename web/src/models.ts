// The C++ models compiled to WebAssembly (branch arch-model: memlab_models.mjs exporting
// model(name, paramsJson) -> JSON string and catalog()). Every figure an explainer shows comes
// from here; nothing in TypeScript re-implements a model.
//
// Where the module comes from:
//   report mode: <script type="application/octet-stream" id="memlab-wasm/<file>"
//                data-encoding="base64"> blocks inlined by `memlab report`;
//   serve mode:  ./wasm/memlab_models.mjs served by `memlab serve`.
// Fallback (no module built): POST /api/model/<name> in serve mode.
import { apiGet, apiPost, ApiError } from "./api";
import type { Mode } from "./mode";

export type Json = Record<string, unknown>;

export interface ModelOutput<R = Json> {
  model: string;
  params: Json;
  result: R;
}

export class ModelError extends Error {
  constructor(
    message: string,
    public parameter: string,
  ) {
    super(message);
  }
}

export interface Models {
  /** `memlab model NAME --json` for params keyed by the CLI long option names. */
  run<R = Json>(name: string, params: Json): Promise<ModelOutput<R>>;
  source: "wasm" | "api" | "none";
}

interface RawModule {
  model(name: string, paramsJson: string): string | Json;
  catalog?(): string | Json;
}

function decodeBase64(text: string): Uint8Array {
  const bin = atob(text.replace(/\s+/g, ""));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Turns `memlab model` CLI-style params into argv (the development stand-in's interface). */
export function paramsToArgv(name: string, params: Json): string[] {
  const argv = ["memlab", "model", name];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null || v === false) continue;
    const flag = `--${k.replace(/_/g, "-")}`;
    if (v === true) argv.push(flag);
    else argv.push(flag, String(v));
  }
  argv.push("--json");
  return argv;
}

type Factory = (opts: Record<string, unknown>) => Promise<Record<string, unknown>>;

async function adapt(mod: Record<string, unknown>, wasmBinary?: Uint8Array): Promise<RawModule> {
  if (typeof mod.model === "function") {
    if (mod.ready instanceof Promise) await mod.ready;
    return mod as unknown as RawModule;
  }
  const factory = (mod.default ?? mod.createModels) as Factory | undefined;
  if (typeof factory !== "function") throw new Error("memlab_models: no model() export");
  let printed: string[] = [];
  const M = await factory({
    ...(wasmBinary ? { wasmBinary } : {}),
    print: (s: string) => printed.push(s),
    printErr: (s: string) => printed.push(s),
  });
  if (typeof M.model === "function") return M as unknown as RawModule;
  const cwrap = M.cwrap as
    ((n: string, r: string, a: string[]) => (...x: unknown[]) => unknown) | undefined;
  if (cwrap && typeof M._model === "function") {
    const model = cwrap("model", "string", ["string", "string"]) as RawModule["model"];
    const catalog =
      typeof M._catalog === "function"
        ? (cwrap("catalog", "string", []) as () => string)
        : undefined;
    return { model, catalog };
  }
  if (cwrap && typeof M._run_model_cli === "function") {
    // Development stand-in: `memlab model NAME ... --json` compiled as a whole.
    const run = M._run_model_cli as (argc: number, argv: number) => number;
    const malloc = M._malloc as (n: number) => number;
    const stringToUTF8 = M.stringToUTF8 as (s: string, p: number, n: number) => void;
    const heap = () => M.HEAP32 as Int32Array | undefined;
    return {
      model(name, paramsJson) {
        const argv = paramsToArgv(name, JSON.parse(paramsJson) as Json);
        const ptrs = argv.map((a) => {
          const n = a.length * 4 + 1;
          const p = malloc(n);
          stringToUTF8(a, p, n);
          return p;
        });
        const arr = malloc(4 * ptrs.length);
        const h32 = heap() ?? new Int32Array((M.wasmMemory as WebAssembly.Memory).buffer);
        ptrs.forEach((p, i) => (h32[arr / 4 + i] = p));
        printed = [];
        run(argv.length, arr);
        return printed.join("\n");
      },
    };
  }
  throw new Error("memlab_models: unknown module shape");
}

function wrap(raw: RawModule): Models {
  return {
    source: "wasm",
    async run<R>(name: string, params: Json) {
      const out = raw.model(name, JSON.stringify(params));
      const j = (typeof out === "string" ? JSON.parse(out) : out) as Json;
      if (typeof j.error === "string") {
        throw new ModelError(j.error, typeof j.parameter === "string" ? j.parameter : "");
      }
      return j as unknown as ModelOutput<R>;
    },
  };
}

async function fromReport(doc: Document): Promise<Models | null> {
  const blocks = [...doc.querySelectorAll<HTMLScriptElement>('script[id^="memlab-wasm/"]')];
  const js = blocks.find((b) => /\.m?js$/.test(b.id));
  if (!js) return null;
  const wasm = blocks.find((b) => b.id.endsWith(".wasm"));
  const code = new TextDecoder().decode(decodeBase64(js.textContent ?? ""));
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const mod = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  return wrap(await adapt(mod, wasm ? decodeBase64(wasm.textContent ?? "") : undefined));
}

async function fromServer(): Promise<Models | null> {
  const url = new URL("wasm/memlab_models.mjs", document.baseURI).toString();
  try {
    const mod = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
    return wrap(await adapt(mod));
  } catch (e) {
    console.info("memlab: no WebAssembly models, using the server's /api/model", e);
    return null;
  }
}

function viaApi(): Models {
  return {
    source: "api",
    async run<R>(name: string, params: Json) {
      try {
        return await apiPost<ModelOutput<R>>(`api/model/${encodeURIComponent(name)}`, params);
      } catch (e) {
        if (e instanceof ApiError) throw new ModelError(e.message, e.parameter);
        throw e;
      }
    },
  };
}

const none: Models = {
  source: "none",
  run() {
    return Promise.reject(new ModelError("the models are not available in this page", ""));
  },
};

export async function loadModels(mode: Mode, doc: Document = document): Promise<Models> {
  try {
    if (mode === "report") return (await fromReport(doc)) ?? none;
    return (await fromServer()) ?? viaApi();
  } catch (e) {
    console.warn("memlab: loading the models failed", e);
    return mode === "serve" ? viaApi() : none;
  }
}

export async function modelCatalog(): Promise<unknown> {
  return apiGet("api/models");
}

/** Models that load in the background; run() waits for them. */
export function lazyModels(mode: Mode): Models {
  const loading = loadModels(mode);
  const m: Models = {
    source: "none",
    async run<R>(name: string, params: Json) {
      return (await loading).run<R>(name, params);
    },
  };
  void loading.then((l) => (m.source = l.source));
  return m;
}
