// The course's claims and their verdicts (`memlab claims`, GET /api/claims, or the report's
// inlined "claims" of a run). Pure data logic here; the DOM is in pages/claims.ts.

export type Verdict =
  "holds" | "holds with a different number" | "does not hold" | "no record" | "not testable here";

export interface Claim {
  id: string;
  /** The explainer the claim belongs beside: hierarchy, coalescing, banks, sync, alloc, streams. */
  page: string;
  source: string;
  quote: string;
  test: string;
  rule: string;
  /** The claim's precondition ("one copy engine"); "" when it has none. */
  condition?: string;
  verdict?: Verdict;
  number?: number;
  measured?: string;
  evidence?: string;
  /** "not testable here": what this device has instead ("3 copy engines"). */
  reason?: string;
}

export interface Counts {
  holds: number;
  holds_different: number;
  does_not_hold: number;
  no_record: number;
  /** Claims whose precondition this device does not meet (absent in runs before issue 19). */
  not_testable?: number;
}

export interface ClaimsJson {
  claims: Claim[];
  counts?: Counts;
  levels?: { from_bytes: number; to_bytes: number; cycles: number }[];
  plan?: string;
  run?: string;
}

/** The explainers that show claims beside them (seed 001's pages); the first is the home page. */
export const EXPLAINERS = ["hierarchy", "coalescing", "banks", "sync", "alloc", "streams"];

const VERDICT_KEYS: Record<string, string> = {
  holds: "holds",
  "holds with a different number": "different",
  "does not hold": "fails",
  "no record": "norecord",
  "not testable here": "untestable",
};

/** A short key of a verdict for CSS classes and i18n ("claims.verdict.<key>"); "none" without. */
export function verdictKey(v: string | undefined): string {
  return v === undefined ? "none" : (VERDICT_KEYS[v] ?? "norecord");
}

/** Accepts what the API or the report gives; anything else is no claims (never throws). */
export function parseClaims(data: unknown): ClaimsJson {
  if (!data || typeof data !== "object") return { claims: [] };
  const o = data as Record<string, unknown>;
  if (!Array.isArray(o.claims)) return { claims: [] };
  const claims = o.claims
    .filter((c): c is Record<string, unknown> => !!c && typeof c === "object")
    .filter((c) => typeof c.id === "string" && typeof c.quote === "string")
    .map((c) => ({
      id: String(c.id),
      page: typeof c.page === "string" ? c.page : "",
      source: String(c.source ?? ""),
      quote: String(c.quote),
      test: String(c.test ?? ""),
      rule: String(c.rule ?? ""),
      verdict: typeof c.verdict === "string" ? (c.verdict as Verdict) : undefined,
      number: typeof c.number === "number" ? c.number : undefined,
      measured: typeof c.measured === "string" ? c.measured : undefined,
      evidence: typeof c.evidence === "string" ? c.evidence : undefined,
      condition: typeof c.condition === "string" && c.condition ? c.condition : undefined,
      reason: typeof c.reason === "string" && c.reason ? c.reason : undefined,
    }));
  return {
    claims,
    counts: (o.counts as Counts | undefined) ?? countVerdicts(claims),
    levels: Array.isArray(o.levels) ? (o.levels as ClaimsJson["levels"]) : undefined,
    plan: typeof o.plan === "string" ? o.plan : undefined,
    run: typeof o.run === "string" ? o.run : undefined,
  };
}

/** Verdict counts of the claims that have one (undefined when none has: the list without a run). */
export function countVerdicts(claims: Claim[]): Counts | undefined {
  if (!claims.some((c) => c.verdict)) return undefined;
  const n: Counts = {
    holds: 0,
    holds_different: 0,
    does_not_hold: 0,
    no_record: 0,
    not_testable: 0,
  };
  for (const c of claims) {
    const k = verdictKey(c.verdict);
    if (k === "holds") n.holds++;
    else if (k === "different") n.holds_different++;
    else if (k === "fails") n.does_not_hold++;
    else if (k === "untestable") n.not_testable = (n.not_testable ?? 0) + 1;
    else n.no_record++;
  }
  return n;
}

/** The claims that belong beside `page`, in the order of the table. */
export function claimsForPage(data: ClaimsJson, page: string): Claim[] {
  return data.claims.filter((c) => c.page === page);
}

/** Claims grouped by their page: the explainers' order, then the rest ("" last). */
export function groupByPage(data: ClaimsJson): [string, Claim[]][] {
  const order = [...EXPLAINERS, ""];
  const groups = new Map<string, Claim[]>();
  for (const c of data.claims) {
    const p = order.includes(c.page) ? c.page : "";
    if (!groups.has(p)) groups.set(p, []);
    groups.get(p)!.push(c);
  }
  return order.filter((p) => groups.has(p)).map((p) => [p, groups.get(p)!]);
}

/** "000_8337f15f37bac5ed.txt:45" -> {seed: "000", line: 45}; the seed file's number and line. */
export function sourceOf(source: string): { seed: string; line: number | null } {
  const m = /^(\d{3})_[0-9a-f]+\.txt:(\d+)$/.exec(source);
  return m ? { seed: m[1]!, line: Number(m[2]) } : { seed: source, line: null };
}

/** The hash of the explainer a claim belongs to ("#/" for the hierarchy table). */
export function pageHash(page: string): string | null {
  if (!EXPLAINERS.includes(page)) return null;
  return page === EXPLAINERS[0] ? "#/" : `#/${page}`;
}
