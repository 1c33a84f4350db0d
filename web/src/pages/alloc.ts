// #/alloc : "allocate and copy" (seed 001): explicit cudaMalloc + cudaMemcpy against the
// alternatives (unified memory, mapped pinned memory), each with its pros and cons; the
// transfers lesson's measurements when a run is available.
import type { App } from "../app";
import { clear, h } from "../dom";
import { t } from "../i18n";
import { measureBox } from "../measure";
import { measuredPlot, measureRequest, runEvidence } from "./evidence";
import type { RunRecord } from "../records";

export const title = "alloc.title";

const CODE: Record<string, string> = {
  explicit: `float *h = (float*)malloc(bytes), *d;
cudaMalloc(&d, bytes);                              // VRAM
cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);    // explicit copy
kernel<<<grid, block>>>(d, n);
cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);    // back (waits for the kernel)
cudaFree(d); free(h);`,
  pinned: `float *h, *d;
cudaMallocHost(&h, bytes);                          // pinned (page-locked) host memory
cudaMalloc(&d, bytes);
cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream);   // DMA, asynchronous
kernel<<<grid, block, 0, stream>>>(d, n);
cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, stream);
cudaStreamSynchronize(stream);`,
  managed: `float *a;
cudaMallocManaged(&a, bytes);                       // one pointer for host and device
init(a, n);                                         // pages live on the host
kernel<<<grid, block>>>(a, n);                      // page faults migrate them to the GPU
cudaDeviceSynchronize();
use(a[0]);                                          // ... and back on first host access
cudaFree(a);`,
  mapped: `float *h, *d;
cudaHostAlloc(&h, bytes, cudaHostAllocMapped);      // pinned, mapped into the GPU's address space
cudaHostGetDevicePointer(&d, h, 0);
kernel<<<grid, block>>>(d, n);                      // every access crosses PCIe (zero-copy)
cudaDeviceSynchronize();`,
};

export function render(root: HTMLElement, app: App): void {
  const tabs = h("div", { class: "tabs", role: "tablist" });
  const body = h("div", { class: "tab-body" });
  const measured = h("div", { class: "chart" });
  // The lesson that draws GB/s against the transfer size.
  const query = { x: "size", y: "gbps", facet: "direction" };
  const fromRun = h("div", {});
  void runEvidence(app, query).then((box) => fromRun.append(box));
  function show(k: string): void {
    for (const b of tabs.querySelectorAll("button"))
      b.classList.toggle("active", b.dataset.k === k);
    clear(body);
    body.append(
      h("p", {}, t(`alloc.${k}.what`)),
      h("pre", { class: "code numbered" }, CODE[k]!),
      h(
        "div",
        { class: "proscons" },
        h(
          "div",
          { class: "pros" },
          h("h4", {}, "✅ " + t("alloc.pros")),
          h(
            "ul",
            {},
            t(`alloc.${k}.pros`)
              .split("|")
              .map((x) => h("li", {}, x)),
          ),
        ),
        h(
          "div",
          { class: "cons" },
          h("h4", {}, "⚠️ " + t("alloc.cons")),
          h(
            "ul",
            {},
            t(`alloc.${k}.cons`)
              .split("|")
              .map((x) => h("li", {}, x)),
          ),
        ),
      ),
    );
  }
  for (const k of Object.keys(CODE))
    tabs.append(
      h(
        "button",
        { type: "button", role: "tab", "data-k": k, onclick: () => show(k) },
        t(`alloc.${k}.name`),
      ),
    );
  root.append(
    h("h1", {}, t("alloc.title")),
    h("p", { class: "lead" }, t("alloc.lead")),
    tabs,
    body,
    h("p", { class: "explain" }, t("alloc.explain")),
    fromRun,
    measureBox(
      app,
      () => measureRequest(app, query, { size: [1 << 20, 1 << 26], direction: ["h2d"] }),
      (records: RunRecord[], run) => {
        clear(measured);
        measured.append(h("h3", {}, t("alloc.measured")));
        void measuredPlot(app, query, records, run).then((el) => measured.append(el));
      },
    ),
    measured,
  );
  show("explicit");
}
