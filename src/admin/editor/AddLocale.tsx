import { useState } from 'preact/hooks';
import type { ContentEntry, LocaleUpdateData } from '../../client/index.js';
import { ownWrite } from '../state/live.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';

interface Props {
  entry: ContentEntry;
  locale: string;
  defaultLocale: string;
  onAdded(): void;
}

/** A locale the item does not have yet: create it inheriting the default locale's content, or as a copy of it. */
export function AddLocale({ entry, locale, defaultLocale, onAdded }: Props) {
  const source = entry.locales[defaultLocale];
  const [how, setHow] = useState<'inherit' | 'copy'>('inherit');
  const [pathname, setPathname] = useState(
    source?.pathname ? `/${locale}${source.pathname === '/' ? '' : source.pathname}` : '',
  );
  const { busy, error, run } = useAction();
  const title = source?.meta.title ?? entry.id;

  function add(event: Event) {
    event.preventDefault();
    const data: LocaleUpdateData =
      how === 'inherit'
        ? { inherit: true, meta: { ...source?.meta } as LocaleUpdateData['meta'] }
        : { meta: { ...source?.meta } as LocaleUpdateData['meta'], content: source?.content ?? {} };
    if (entry.kind === 'page') data.pathname = pathname;
    else if (source?.name) data.name = source.name;
    void run(async () => {
      await ownWrite(() => client.content.update(entry.id, locale, data));
      onAdded();
    });
  }

  return (
    <form class="group" onSubmit={add} aria-labelledby="add-locale-title">
      <h2 id="add-locale-title">
        “{title}” has no {locale} version yet
      </h2>
      <fieldset class="choices">
        <legend>Start the {locale} version</legend>
        <label>
          <input type="radio" name="how" checked={how === 'inherit'} onChange={() => setHow('inherit')} />
          Inherit the content of {defaultLocale} (it follows {defaultLocale}; you translate the meta)
        </label>
        <label>
          <input type="radio" name="how" checked={how === 'copy'} onChange={() => setHow('copy')} />
          Start as a copy of {defaultLocale} (translate everything)
        </label>
      </fieldset>
      {entry.kind === 'page' && (
        <div class="field">
          <label for="new-locale-pathname">Pathname in {locale}</label>
          <input
            id="new-locale-pathname"
            class="mono"
            value={pathname}
            required
            onInput={(event) => setPathname(event.currentTarget.value)}
          />
        </div>
      )}
      <button type="submit" class="button button--primary" disabled={busy}>
        {busy ? 'Adding…' : `Add ${locale}`}
      </button>
      {error !== undefined && <ErrorNotice error={error} title={`The ${locale} locale could not be added`} />}
    </form>
  );
}
