// The HTTP API of `memlab serve` (contract 2 in TEAM.md).
import { tokenHeaders } from "./token";

export class ApiError extends Error {
  constructor(
    message: string,
    public status: number,
    public parameter: string = "",
    public body: unknown = null,
  ) {
    super(message);
  }
}

function session(): Storage | null {
  try {
    return sessionStorage;
  } catch {
    return null;
  }
}

async function handle<T>(res: Response): Promise<T> {
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  if (!res.ok) {
    const b = (body ?? {}) as { error?: string; parameter?: string };
    throw new ApiError(b.error ?? `HTTP ${res.status}`, res.status, b.parameter ?? "", body);
  }
  return body as T;
}

/** GET with the token when the page has one (a job's state and a class lab's pages are the
 * token holder's; the lab's content needs none). */
export async function apiGet<T>(path: string): Promise<T> {
  const store = session();
  const headers: Record<string, string> = {
    Accept: "application/json",
    ...(store ? tokenHeaders(store) : {}),
  };
  return handle<T>(await fetch(path, { headers }));
}

export async function apiPost<T>(path: string, body: unknown, withToken = false): Promise<T> {
  const store = session();
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    Accept: "application/json",
    ...(withToken && store ? tokenHeaders(store) : {}),
  };
  return handle<T>(await fetch(path, { method: "POST", headers, body: JSON.stringify(body) }));
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
