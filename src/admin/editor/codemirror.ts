// The code editor, its own chunk: CodeEditor.tsx loads it with import() on first use.

import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { json } from '@codemirror/lang-json';
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightSpecialChars, keymap } from '@codemirror/view';
import { tags } from '@lezer/highlight';

export interface CodeEditorOptions {
  doc: string;
  language: 'markdown' | 'json';
  readOnly: boolean;
  label: string;
  describedBy?: string;
  onChange(text: string): void;
}

export interface CodeEditorHandle {
  setDoc(text: string): void;
  focus(): void;
  destroy(): void;
}

/** CodeMirror's "minimal setup", spelled out, with a highlight style in the admin's colours. */
const minimalSetup = [
  highlightSpecialChars(),
  history(),
  drawSelection(),
  syntaxHighlighting(
    HighlightStyle.define([
      // The theme's colours, so that the highlighting reads in light and dark alike.
      { tag: tags.heading, fontWeight: 'bold', color: 'var(--accent)' },
      { tag: tags.emphasis, fontStyle: 'italic' },
      { tag: tags.strong, fontWeight: 'bold' },
      { tag: [tags.link, tags.url], color: 'var(--accent)', textDecoration: 'underline' },
      { tag: [tags.processingInstruction, tags.meta, tags.quote, tags.comment], color: 'var(--muted)' },
      { tag: [tags.string, tags.monospace], color: 'var(--ok)' },
      { tag: [tags.number, tags.bool, tags.null], color: 'var(--warn)' },
      { tag: [tags.propertyName, tags.tagName], color: 'var(--accent)' },
      { tag: tags.invalid, color: 'var(--danger)' },
    ]),
  ),
  keymap.of([...defaultKeymap, ...historyKeymap]),
];

const theme = EditorView.theme({
  '&': {
    backgroundColor: 'var(--field)',
    color: 'var(--text)',
    border: '1px solid var(--border)',
    borderRadius: 'var(--radius)',
  },
  '&.cm-focused': { outline: '3px solid var(--focus)', outlineOffset: '1px' },
  '.cm-content': { fontFamily: 'var(--mono)', fontSize: '0.9rem', minHeight: '16rem', caretColor: 'var(--text)' },
  '.cm-scroller': { maxHeight: '70vh' },
  '.cm-gutters': { backgroundColor: 'var(--surface)', color: 'var(--muted)', border: 'none' },
});

export function createCodeEditor(parent: HTMLElement, options: CodeEditorOptions): CodeEditorHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        minimalSetup,
        options.language === 'markdown' ? markdown() : json(),
        EditorView.lineWrapping,
        theme,
        EditorState.readOnly.of(options.readOnly),
        EditorView.editable.of(!options.readOnly),
        EditorView.contentAttributes.of({
          'aria-label': options.label,
          'aria-multiline': 'true',
          ...(options.describedBy ? { 'aria-describedby': options.describedBy } : {}),
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  return {
    setDoc(text) {
      const current = view.state.doc.toString();
      if (current !== text) view.dispatch({ changes: { from: 0, to: current.length, insert: text } });
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
