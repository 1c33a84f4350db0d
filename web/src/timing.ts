// Redraw timing: each explainer's update is wrapped so the page records how long the last
// redraw took (document.body.dataset.redrawMs); the e2e tests read it (target: < 16 ms).
export function timedRedraw(f: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    const t0 = performance.now();
    running = f();
    try {
      await running;
    } finally {
      document.body.dataset.redrawMs = (performance.now() - t0).toFixed(2);
      document.body.dataset.redraws = String(Number(document.body.dataset.redraws ?? 0) + 1);
      running = null;
    }
    if (again) {
      again = false;
      await run();
    }
  };
  return run;
}
