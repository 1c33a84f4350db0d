// The check of a source through the one GPU queue, from inside the page (the real memlab serve):
// POST answers 202 with a job, GET /api/jobs/<id> (with the token) until it has ended.
export async function checkThroughQueue(p, token, exercise) {
  return p.evaluate(
    async ({ token, exercise }) => {
      const ex = await (await fetch(`api/exercises/${exercise}`)).json();
      const headers = { "Content-Type": "application/json", "X-Memlab-Token": token };
      const res = await fetch(`api/exercises/${exercise}/check`, {
        method: "POST",
        headers,
        body: JSON.stringify({ source: ex.starter }),
      });
      const queued = await res.json();
      let job = null;
      for (let i = 0; i < 600 && res.status === 202; i++) {
        job = await (await fetch(`api/jobs/${queued.job}`, { headers })).json();
        if (job.state !== "queued" && job.state !== "running") break;
        await new Promise((ok) => setTimeout(ok, 100));
      }
      return { status: res.status, queued, job };
    },
    { token, exercise },
  );
}
