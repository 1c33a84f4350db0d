// The roofline's point labels: points of one column (matmul's variants share an intensity) get
// labels at least a line apart, as near their points as the room allows.
import { describe, expect, it } from "vitest";
import { labelMargin, spreadLabels } from "../src/plots/charts";

const gaps = (pos: number[]) =>
  [...pos].sort((a, b) => a - b).flatMap((p, i, s) => (i ? [p - s[i - 1]!] : []));

describe("spreadLabels", () => {
  it("leaves labels that do not collide where their points are", () => {
    expect(spreadLabels([10, 40, 90], 11, 0, 300)).toEqual([10, 40, 90]);
  });

  it("pushes colliding labels apart, in the points' order, keeping the input's order", () => {
    // cublas, thread_tile_8x16, double_buffer at nearly one height (full.json.gz, 2026-12-01).
    const pos = spreadLabels([52, 50, 51], 11, 0, 300);
    expect(gaps(pos).every((g) => g >= 11 - 1e-9)).toBe(true);
    expect(Math.abs((pos[0]! + pos[1]! + pos[2]!) / 3 - 51)).toBeLessThan(1e-9); // centred on the points
    expect(pos[1]! < pos[2]! && pos[2]! < pos[0]!).toBe(true);
  });

  it("moves a run back up when it would leave the plot at the bottom", () => {
    const pos = spreadLabels([295, 296, 297, 298], 11, 0, 300);
    expect(Math.max(...pos)).toBe(300);
    expect(gaps(pos).every((g) => g >= 11 - 1e-9)).toBe(true);
  });

  it("never goes above the top, even where the room is too small", () => {
    const pos = spreadLabels([5, 5, 5, 5, 5], 11, 0, 20);
    expect(Math.min(...pos)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...pos)).toBeLessThanOrEqual(20);
  });
});

describe("labelMargin", () => {
  it("keeps the 130 px margin for short names and shows them whole", () => {
    const { marginRight, shown } = labelMargin(["copy", "cublas", "naive"], 680);
    expect(marginRight).toBe(130);
    expect(shown("cublas")).toBe("cublas");
  });

  it("widens the margin for matmul's longest names on a wide page", () => {
    // The names of a current matmul run (2026-12-08): 35 characters at most.
    const names = [
      "thread_tile_8x16",
      "thread_tile_8x16_snake_tail",
      "thread_tile_8x16_snake_tail_kalign",
    ];
    const { marginRight, shown } = labelMargin(names, 680);
    expect(marginRight).toBeGreaterThan(130);
    expect(marginRight).toBeLessThanOrEqual(0.4 * 680);
    for (const n of names) expect(shown(n)).toBe(n);
  });

  it("cuts what does not fit in 40% of a narrow plot, with an ellipsis", () => {
    const long = "thread_tile_8x16_snake_tail_kalign";
    const { marginRight, shown } = labelMargin([long, "cublas"], 400);
    expect(marginRight).toBe(160);
    expect(shown(long).endsWith("…")).toBe(true);
    expect(shown(long).length * 5.6 + 20).toBeLessThanOrEqual(marginRight + 5.6);
    expect(long.startsWith(shown(long).slice(0, -1))).toBe(true);
    expect(shown("cublas")).toBe("cublas");
  });
});
