// Hash routes (TEAM.md contract 3): #/, #/coalescing, ..., #/lesson/<name>, #/exercise/<name>,
// #/claims[/<run id>].
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
};

/** "#/lesson/matmul" -> {page: "lesson", arg: "matmul"}; "#/" -> {page: "hierarchy"}. */
export function parseHash(hash: string): { page: string; arg: string } {
  const path = hash.replace(/^#\/?/, "").split("?")[0] ?? "";
  const [page = "", ...rest] = path.split("/");
  return { page: page || "hierarchy", arg: decodeURIComponent(rest.join("/")) };
}
