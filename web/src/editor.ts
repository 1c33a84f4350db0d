// The exercise editor: CodeMirror 6 with the C++ mode (CUDA is C++ with a few keywords).
import { cpp } from "@codemirror/lang-cpp";
import { EditorView, basicSetup } from "codemirror";

export function createEditor(
  parent: HTMLElement,
  doc: string,
  onChange: (text: string) => void,
): EditorView {
  return new EditorView({
    doc,
    parent,
    extensions: [
      basicSetup,
      cpp(),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) onChange(u.state.doc.toString());
      }),
    ],
  });
}

/** Selects line `n` (1-based) of the editor and scrolls it into view (a diagnosis' line link). */
export function showLine(view: EditorView, n: number): void {
  if (n < 1 || n > view.state.doc.lines) return;
  const line = view.state.doc.line(n);
  view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
  view.focus();
}
