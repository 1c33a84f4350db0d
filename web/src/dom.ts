// A tiny DOM helper: h("div", {class: "x"}, child, "text").
export type Child = Node | string | number | null | undefined | false | Child[];
export type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (typeof v === "function") el.addEventListener(k.replace(/^on/, ""), v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === "object" ? c : document.createTextNode(String(c)));
  }
}

export function clear(el: Element): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}

/** A <select> from [value, label] pairs. */
export function select(
  options: [string, string][],
  value: string,
  onChange: (v: string) => void,
  attrs: Attrs = {},
): HTMLSelectElement {
  const s = h("select", attrs);
  for (const [v, label] of options)
    s.append(h("option", { value: v, selected: v === value }, label));
  s.addEventListener("change", () => onChange(s.value));
  return s;
}

/** A number input; calls onChange with the parsed integer when it is valid. */
export function numberInput(
  value: number,
  min: number,
  max: number,
  onChange: (v: number) => void,
  attrs: Attrs = {},
): HTMLInputElement {
  const i = h("input", { type: "number", value, min, max, step: 1, ...attrs });
  i.addEventListener("input", () => {
    const v = Number(i.value);
    if (Number.isInteger(v) && v >= min && v <= max) onChange(v);
  });
  return i;
}

export function field(label: string, control: HTMLElement): HTMLLabelElement {
  return h("label", { class: "field" }, h("span", {}, label), control);
}

/** A figure box: label and value; data-fig names it for the tests. */
export function figure(name: string, label: string, value: string): HTMLElement {
  return h(
    "div",
    { class: "fig", "data-fig": name },
    h("div", { class: "fig-label" }, label),
    h("div", { class: "fig-value" }, value),
  );
}
