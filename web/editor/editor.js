// The playground's code editor: CodeMirror 6 with line numbers, WAT
// highlighting, undo history and search, made and driven by the page's Rust
// code (`web/src/code_editor.rs`) through the global `SymplayEditor`.
// CodeMirror draws only the lines in view, so a module of megabytes opens
// without freezing the page.
import { Annotation, Compartment, EditorState, Prec } from '@codemirror/state';
import {
  EditorView, drawSelection, highlightActiveLine, highlightActiveLineGutter,
  highlightSpecialChars, keymap, lineNumbers, placeholder,
} from '@codemirror/view';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import {
  StreamLanguage, bracketMatching, defaultHighlightStyle, syntaxHighlighting,
} from '@codemirror/language';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { wast } from '@codemirror/legacy-modes/mode/wast';
import { oneDark } from '@codemirror/theme-one-dark';

/// Marks the page's own changes of the text, which are not edits to report.
const fromPage = Annotation.define();

/// The dark theme follows the system's setting, as the page does.
const darkScheme = window.matchMedia('(prefers-color-scheme: dark)');
const theme = () => (darkScheme.matches ? oneDark : []);
/// Each editor's listener of that setting, removed with the editor.
const schemeListeners = new WeakMap();

/// An editor in `parent` holding `text`, showing `hint` when empty.
/// `onEdit(text, atOnce)` gets the text after each edit, `atOnce` for a
/// paste or a drop (a module coming in, not typing); `onLeave()` when the
/// editor loses the focus.
export function create(parent, text, hint, onEdit, onLeave) {
  const reportEdits = EditorView.updateListener.of((update) => {
    if (!update.docChanged || update.transactions.some((t) => t.annotation(fromPage))) {
      return;
    }
    const atOnce = update.transactions.some((t) => t.isUserEvent('input.paste') || t.isUserEvent('input.drop'));
    onEdit(update.state.doc.toString(), atOnce);
  });
  const themes = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: text,
      extensions: [
        // Ctrl+Enter runs (the page hears it): no blank line.
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => true }])),
        placeholder(hint),
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightSpecialChars(),
        history(),
        drawSelection(),
        bracketMatching(),
        highlightActiveLine(),
        highlightSelectionMatches(),
        search({ top: true }),
        keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
        StreamLanguage.define(wast),
        syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        EditorView.contentAttributes.of({ 'aria-label': 'module text', spellcheck: 'false' }),
        EditorView.domEventHandlers({
          blur: () => { onLeave(); },
          // A dropped file is a module for the page, not text to insert.
          drop: (event) => event.dataTransfer?.files.length > 0,
        }),
        reportEdits,
        themes.of(theme()),
      ],
    }),
  });
  const listener = () => view.dispatch({ effects: themes.reconfigure(theme()) });
  darkScheme.addEventListener('change', listener);
  schemeListeners.set(view, listener);
  return view;
}

/// Puts `text` in the editor, as the page's change (not reported as an edit).
export function setText(view, text) {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    annotations: fromPage.of(true),
  });
}

/// The text of the editor inside `element` (for tests, which read it as a
/// person reads the screen, but whole).
export function textIn(element) {
  const editor = element?.querySelector('.cm-editor');
  return editor ? EditorView.findFromDOM(editor)?.state.doc.toString() : undefined;
}

export function destroy(view) {
  darkScheme.removeEventListener('change', schemeListeners.get(view));
  view.destroy();
}
