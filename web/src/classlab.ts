// The class lab (docs/class-lab.md): who this browser is (GET /api/me), the queue, a learner's
// attempts and the teacher's overview, as plain data. The pages (pages/join, queue, class) draw
// these; the functions here turn the server's JSON into rows and are tested without a DOM.
// A server without /api/me (an older memlab, or `memlab serve` without --class) is the owner's
// one-person lab: everything as before.

export type Role = "owner" | "teacher" | "learner";

export interface Me {
  role: Role;
  name?: string;
  learner_id?: string | number | null;
  class?: { name?: string; code?: string } | null;
  expires_at?: string;
}

/** What GET /api/me told: me (null: no class lab here), or that the token was refused (401). */
export interface Who {
  me: Me | null;
  signedOut: boolean;
}

/** From /api/me's status and body: 404/405 (no such route) -> the one-person lab. */
export function whoFrom(status: number, body: unknown): Who {
  if (status === 401) return { me: null, signedOut: true };
  if (status !== 200 || !body || typeof body !== "object") return { me: null, signedOut: false };
  const b = body as Me;
  const role: Role = b.role === "teacher" || b.role === "learner" ? b.role : "owner";
  return { me: { ...b, role }, signedOut: false };
}

export function isClass(me: Me | null): boolean {
  return me !== null && me.role !== "owner";
}

/** Teacher or owner: may pause the queue, cancel any job, reserve the GPU. */
export function mayControl(me: Me | null): boolean {
  return me === null || me.role !== "learner";
}

/**
 * The navigation for a role: the one-person lab (no /api/me) as before; the owner also sees the
 * queue; a learner sees no run page (runs are the teacher's) and the queue; the teacher the class.
 */
export function navFor(all: string[], me: Me | null): string[] {
  if (me === null) return all;
  const extra = me.role === "teacher" ? ["#/queue", "#/class"] : ["#/queue"];
  const base = me.role === "learner" ? all.filter((h) => h !== "#/run") : all;
  return [...base, ...extra];
}

// ---- The queue (GET /api/queue)

export interface QueueJob {
  id: string | number;
  kind: string;
  owner: string;
  state: string;
  position?: number | null;
  eta_s?: number | null;
  mine?: boolean;
}

export interface QueueJson {
  paused: boolean;
  reserved: { by: string; until: string } | null;
  jobs: QueueJob[];
}

export interface QueueRow {
  id: string;
  kind: string;
  owner: string;
  state: string;
  place: string;
  eta_s: number | null;
  mine: boolean;
  /** Whether this browser may cancel it: its own, or any for the teacher; not once it ended. */
  cancellable: boolean;
}

const LIVE = new Set(["queued", "running"]);

/** The queue's rows: running first, then by place; one's own marked. */
export function queueRows(q: QueueJson, me: Me | null): QueueRow[] {
  const rank = (j: QueueJob) => (j.state === "running" ? -1 : (j.position ?? 1e9));
  return [...(q.jobs ?? [])]
    .sort((a, b) => rank(a) - rank(b))
    .map((j) => ({
      id: String(j.id),
      kind: j.kind,
      owner: j.owner,
      state: j.state,
      place: j.state === "queued" && j.position != null ? String(j.position) : "",
      eta_s: j.eta_s ?? null,
      mine: j.mine === true,
      cancellable: LIVE.has(j.state) && (j.mine === true || mayControl(me)),
    }));
}

// ---- Attempts (GET /api/attempts?exercise=E, /api/attempts/<id>)

export interface AttemptJson {
  id: string | number;
  learner?: string;
  exercise: string;
  status: string;
  message?: string;
  created_at: string;
  median_ms?: number | null;
  achieved?: number | null;
  target_met?: boolean | null;
  build?: string;
  device?: string;
  source?: string;
  result?: unknown;
}

// ---- The teacher's overview (GET /api/class/overview)

export interface Best {
  median_ms?: number | null;
  achieved?: number | null;
  target?: number | null;
}

export interface OverviewExercise {
  exercise: string;
  lesson?: string;
  learners: {
    name: string;
    passed: boolean;
    first_passed_at?: string | null;
    attempts: number;
    best?: Best | null;
  }[];
  failures?: Record<string, number>;
  most_common?: {
    status: string;
    count: number;
    example?: { attempt_id: string | number; learner: string; message?: string } | null;
  } | null;
  /** Optional (see docs/class-lab.md): the lesson's variants at the measured point. */
  variants?: { variant: string; median_ms: number }[];
}

export interface OverviewLearner {
  name: string;
  learner_id: string | number;
  attempts: number;
  passed: string[];
  lessons: { lesson: string; passed: number; total: number }[];
}

export interface Overview {
  exercises: OverviewExercise[];
  learners: OverviewLearner[];
}

export interface LearnerRow {
  name: string;
  passed: boolean;
  when: string;
  attempts: number;
  median_ms: number | null;
  achieved: number | null;
  target: number | null;
  met: boolean | null;
}

/** An exercise's learners: who passed first (earliest first), then the others by name. */
export function exerciseRows(ex: OverviewExercise): LearnerRow[] {
  const rows = (ex.learners ?? []).map((l) => {
    const achieved = l.best?.achieved ?? null;
    const target = l.best?.target ?? null;
    return {
      name: l.name,
      passed: l.passed,
      when: l.first_passed_at ?? "",
      attempts: l.attempts,
      median_ms: l.best?.median_ms ?? null,
      achieved,
      target,
      met: achieved !== null && target !== null ? achieved >= target : null,
    };
  });
  return rows.sort((a, b) =>
    a.passed !== b.passed
      ? a.passed
        ? -1
        : 1
      : a.passed && a.when !== b.when
        ? a.when < b.when
          ? -1
          : 1
        : a.name.localeCompare(b.name),
  );
}

export interface Bar {
  label: string;
  value: number;
  kind: "passed" | "failed" | "variant";
}

/** The bars of an exercise's chart: each learner's best time, then the lesson's variants. */
export function bestBars(ex: OverviewExercise): Bar[] {
  const learners: Bar[] = exerciseRows(ex)
    .filter((r) => r.median_ms !== null && r.median_ms > 0)
    .map((r) => ({ label: r.name, value: r.median_ms!, kind: r.passed ? "passed" : "failed" }));
  const variants: Bar[] = (ex.variants ?? [])
    .filter((v) => v.median_ms > 0)
    .map((v) => ({ label: v.variant, value: v.median_ms, kind: "variant" }));
  return [...learners, ...variants];
}

/** The failures by kind, most frequent first (ties by name). */
export function failureCounts(ex: OverviewExercise): [string, number][] {
  return Object.entries(ex.failures ?? {})
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** A status's message key, for the statuses the exercise engine reports; others are shown raw. */
export const FAILURE_KINDS = [
  "compile_error",
  "wrong_result",
  "target_missed",
  "timeout",
  "race",
  "sanitizer",
  "launch_error",
  "crash",
  "no_device",
  "internal",
];

export function statusKey(status: string): string | null {
  return status === "passed" || FAILURE_KINDS.includes(status) ? `class.status.${status}` : null;
}

/** A learner's progress through the lessons: fraction done overall and per lesson. */
export function progressOf(l: OverviewLearner): {
  done: number;
  total: number;
  lessons: { lesson: string; passed: number; total: number }[];
} {
  const lessons = [...(l.lessons ?? [])].sort((a, b) => a.lesson.localeCompare(b.lesson));
  return {
    done: lessons.reduce((n, x) => n + Math.min(x.passed, x.total), 0),
    total: lessons.reduce((n, x) => n + x.total, 0),
    lessons,
  };
}

/** CSV/JSON exports: the file name the download gets. */
export function exportName(className: string | undefined, ext: "csv" | "json", now: Date): string {
  const base = (className ?? "class").replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  return `${base || "class"}-attempts-${now.toISOString().slice(0, 10)}.${ext}`;
}

/** "2026-12-02T09:15:00Z" in the reader's language (an unparsable string stays as it is). */
export function when(iso: string | null | undefined, locale: string): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale, {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "UTC",
    timeZoneName: "short",
  });
}
