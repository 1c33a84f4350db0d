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
