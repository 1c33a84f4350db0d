// The HTTP API of `memlab serve` (contract 2 in TEAM.md).
import { browserStores, tokenHeaders } from "./token";

export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public parameter: string = "",
    public body: unknown = null,
    /** Retry-After in seconds (429), or null. */
    public retryAfter: number | null = null,
  ) {
    super(message);
  }
}

/** The token's header when one is known (a class lab needs it on every route). */
function auth(): Record<string, string> {
  const { store, kept } = browserStores();
  return store ? tokenHeaders(store, kept) : {};
}

async function handle<T>(res: Response): Promise<T> {
  return (await handleStatus<T>(res)).body;
}

/** The answer's body and status (202 queued and 200 done differ for a check). */
async function handleStatus<T>(res: Response): Promise<{ status: number; body: T }> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const b = (body ?? {}) as { error?: string; parameter?: string };
    const retry = Number(res.headers.get("Retry-After"));
    throw new ApiError(
      b.error ?? `HTTP ${res.status}`,
      res.status,
      b.parameter ?? "",
      body,
      res.headers.has("Retry-After") && Number.isFinite(retry) ? retry : null,
    );
  }
  return { status: res.status, body: body as T };
}

export async function apiGet<T>(path: string): Promise<T> {
  return handle<T>(await fetch(path, { headers: { Accept: "application/json", ...auth() } }));
}

/** A GET whose answer is a file (the class's CSV/JSON export): the text, or an ApiError. */
export async function apiText(path: string): Promise<string> {
  const res = await fetch(path, { headers: auth() });
  if (!res.ok) await handle<unknown>(res);
  return res.text();
}

function postInit(body: unknown, withToken = true): RequestInit {
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json",
    ...(withToken ? auth() : {}),
  };
  return { method: "POST", headers, body: JSON.stringify(body ?? {}) };
}

/** POST, with the token unless `withToken` is false (#/join sends none). */
export async function apiPost<T>(path: string, body: unknown, withToken = true): Promise<T> {
  return handle<T>(await fetch(path, postInit(body, withToken)));
}

/** POST, answering the status too (a check: 202 queued, or 200 from a server without a queue). */
export async function apiPostStatus<T>(
  path: string,
  body: unknown,
): Promise<{ status: number; body: T }> {
  return handleStatus<T>(await fetch(path, postInit(body)));
}

export interface DeviceInfo {
  name: string;
  compute_capability?: string;
  sm_count?: number;
  regs_per_sm?: number;
  smem_per_sm_bytes?: number;
  smem_per_block_bytes?: number;
  smem_per_block_optin_bytes?: number;
  l2_bytes?: number;
  global_mem_bytes?: number;
  const_mem_bytes?: number;
  copy_engines?: number;
  peak_bandwidth_gbps?: number;
  peak_fp32_gflops?: number;
  [k: string]: unknown;
}

/** /api/info: {device: ...} or {device: null, reason}; also accepts the bare device object. */
export function deviceOf(info: unknown): DeviceInfo | null {
  if (!info || typeof info !== "object") return null;
  const o = info as Record<string, unknown>;
  if ("device" in o) return (o.device as DeviceInfo | null) ?? null;
  if (typeof o.name === "string") return o as DeviceInfo;
  return null;
}
