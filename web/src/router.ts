// Hash routes (TEAM.md contract 3): #/, #/coalescing, ..., #/lesson/<name>, #/exercise/<name>,
// #/claims[/<run id>], #/summary[/<run id>] (a report without a hash opens there); the class lab's
// #/join[/<code>], #/queue, #/class (the teacher).
import type { App } from "./app";
import * as hierarchy from "./pages/hierarchy";
import * as coalescing from "./pages/coalescing";
import * as banks from "./pages/banks";
import * as sync from "./pages/sync";
import * as alloc from "./pages/alloc";
import * as streams from "./pages/streams";
import * as lesson from "./pages/lesson";
import * as results from "./pages/results";
import * as compare from "./pages/compare";
import * as run from "./pages/run";
import * as exercises from "./pages/exercises";
import * as exercise from "./pages/exercise";
import * as claims from "./pages/claims";
import * as summary from "./pages/summary";
import * as join from "./pages/join";
import * as queue from "./pages/queue";
import * as klass from "./pages/class";
import { EXPLAINERS } from "./claims";

/** The page of "#/": the first explainer (the memory hierarchy table). */
export const HOME = EXPLAINERS[0]!;

export interface Page {
  title: string;
  render(
    root: HTMLElement,
    app: App,
    arg: string,
  ): void | (() => void) | Promise<void | (() => void)>;
}

export const routes: Record<string, Page> = {
  hierarchy,
  coalescing,
  banks,
  sync,
  alloc,
  streams,
  lesson,
  results,
  compare,
  run,
  exercises,
  exercise,
  claims,
  summary,
  join,
  queue,
  class: klass,
};

/** "#/lesson/<name>" -> {page: "lesson", arg: "<name>"}; "#/" -> {page: HOME}. */
export function parseHash(hash: string): { page: string; arg: string } {
  const path = hash.replace(/^#\/?/, "").split("?")[0] ?? "";
  const [page = "", ...rest] = path.split("/");
  return { page: page || HOME, arg: decodeURIComponent(rest.join("/")) };
}
