import { useEffect, useRef, useState } from 'preact/hooks';
import type { CodeEditorHandle } from './codemirror.js';

interface Props {
  value: string;
  onChange(text: string): void;
  language: 'markdown' | 'json';
  label: string;
  readOnly?: boolean;
  describedBy?: string;
}

/**
 * CodeMirror, loaded on first use. Until its chunk arrives (or if it cannot load) a plain
 * textarea edits the same text, so the editor is usable at once.
 */
export function CodeEditor({ value, onChange, language, label, readOnly = false, describedBy }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const handle = useRef<CodeEditorHandle | undefined>(undefined);
  const latest = useRef({ value, onChange });
  latest.current = { value, onChange };
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    import('./codemirror.js').then(
      ({ createCodeEditor }) => {
        if (cancelled || !host.current) return;
        handle.current = createCodeEditor(host.current, {
          doc: latest.current.value,
          language,
          readOnly,
          label,
          describedBy,
          onChange: (text) => latest.current.onChange(text),
        });
        setReady(true);
      },
      () => {
        /* the textarea stays */
      },
    );
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = undefined;
      setReady(false);
    };
  }, [language, readOnly]);

  useEffect(() => {
    handle.current?.setDoc(value);
  }, [value]);

  return (
    <div class="code">
      {!ready && (
        <textarea
          class="code__fallback"
          aria-label={label}
          aria-describedby={describedBy}
          value={value}
          readOnly={readOnly}
          rows={16}
          spellcheck={false}
          onInput={(event) => onChange(event.currentTarget.value)}
        />
      )}
      <div ref={host} hidden={!ready} />
    </div>
  );
}
