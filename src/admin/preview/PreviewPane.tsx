import './preview.css';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ContentEntry } from '../../client/index.js';
import { previewUrl } from '../../sites/preview-url.js';
import { config, sites } from '../state/session.js';

/** Whether the pane is open, kept across items: a closed pane loads nothing. */
const OPEN_KEY = 'quire:preview-open';

/** The site's content layer picks a saved file up a moment after the save answers: one more reload then. */
const SETTLE_MS = 1500;

interface Props {
  entry: ContentEntry;
  locale: string;
  /** Changes on every save (the locale's `modified`): the frame reloads. */
  version: string;
}

/**
 * The real page on the running site, in a frame, reloaded after each save; nothing for what has
 * no page. Closed until the editor opens it (then it stays open), since each load renders a page.
 */
export function PreviewPane({ entry, locale, version }: Props) {
  const frame = useRef<HTMLIFrameElement>(null);
  const [open, setOpen] = useState(localStorage.getItem(OPEN_KEY) === '1');
  const url = previewUrl(entry, locale, sites.value, config.preview, location.origin);
  const title = String(entry.locales[locale]?.meta.title ?? entry.id);

  const shown = useRef(version);
  useEffect(() => {
    if (shown.current === version) return;
    shown.current = version;
    const reload = () => {
      if (frame.current && url) frame.current.src = url;
    };
    reload();
    const timer = setTimeout(reload, SETTLE_MS);
    return () => clearTimeout(timer);
  }, [url, version]);

  if (!url) return null;
  return (
    <details
      class="preview"
      open={open}
      onToggle={(event) => {
        const now = event.currentTarget.open;
        setOpen(now);
        localStorage.setItem(OPEN_KEY, now ? '1' : '0');
      }}
    >
      <summary>
        Preview <span class="muted">of {url}</span>
      </summary>
      <p class="hint">
        The page as the running site shows it; it reloads after each save.{' '}
        <a href={url} target="_blank" rel="noopener">
          Open in a new tab
        </a>
      </p>
      {open && <iframe ref={frame} class="preview__frame" title={`Preview of ${title} (${locale})`} src={url} />}
    </details>
  );
}
