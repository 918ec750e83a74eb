import { useState } from 'preact/hooks';
import type { ContentEntry } from '../../client/index.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';

interface Props {
  entry: ContentEntry;
  locale: string;
  defaultLocale: string;
  etag: string;
  title: string;
  onDeleted(what: 'locale' | 'item'): void;
}

/** Deleting a locale or the whole item, each behind a confirmation that names what goes. */
export function DangerZone({ entry, locale, defaultLocale, etag, title, onDeleted }: Props) {
  const [asking, setAsking] = useState<'locale' | 'item'>();
  const { busy, error, run, dismiss } = useAction();
  const locales = Object.keys(entry.locales);
  const canDeleteLocale = locale !== defaultLocale || locales.length === 1;
  const record = entry.locales[locale];
  const address = record?.pathname ?? record?.name;

  const remove = (what: 'locale' | 'item') =>
    run(async () => {
      if (what === 'locale') await client.content.delete(entry.id, { locale, etag });
      else await client.content.delete(entry.id, { etag: entry.locales[defaultLocale]?.etag ?? etag });
      onDeleted(what);
    });

  return (
    <section class="danger" aria-labelledby="danger-title">
      <h2 id="danger-title">Delete</h2>
      {!asking && (
        <div class="actions">
          {canDeleteLocale && locales.length > 1 && (
            <button type="button" class="button button--danger" onClick={() => setAsking('locale')}>
              Delete the {locale} locale…
            </button>
          )}
          <button type="button" class="button button--danger" onClick={() => setAsking('item')}>
            Delete this {entry.kind === 'data' ? 'entry' : entry.kind}…
          </button>
          {!canDeleteLocale && <p class="hint">The default locale ({defaultLocale}) goes only with the whole item.</p>}
        </div>
      )}
      {asking && (
        <div class="confirm" role="alertdialog" aria-labelledby="confirm-text">
          <p id="confirm-text">
            {asking === 'locale' ? (
              <>
                Delete the <b>{locale}</b> locale of “{title}”{address ? ` (${address})` : ''}? Its meta, content and
                publication dates go; the other locales ({locales.filter((code) => code !== locale).join(', ')}) stay.
              </>
            ) : (
              <>
                Delete “{title}” ({entry.id}) with all its locales: <b>{locales.join(', ')}</b>? {locales.length}{' '}
                {locales.length === 1 ? 'file goes' : 'files go'}; git history keeps them.
              </>
            )}
          </p>
          <div class="actions">
            <button type="button" class="button button--danger" disabled={busy} onClick={() => remove(asking)}>
              {asking === 'locale'
                ? `Delete ${locale}`
                : `Delete ${locales.length === 1 ? 'it' : `all ${locales.length} locales`}`}
            </button>
            <button type="button" class="button" disabled={busy} onClick={() => setAsking(undefined)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {error !== undefined && <ErrorNotice error={error} title="The delete failed" onDismiss={dismiss} />}
    </section>
  );
}
