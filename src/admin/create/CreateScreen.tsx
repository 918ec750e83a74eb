import { useEffect, useState } from 'preact/hooks';
import type { CreateContentInput } from '../../client/index.js';
import { collectionsFor, type Kind } from '../content/rows.js';
import { editorHref, navigate, route } from '../state/router.js';
import { client, localesOf, siteName, siteNames } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';
import { useAvailability } from '../ui/use-availability.js';

type Type = CreateContentInput['type'];
const TYPES_BY_KIND: Record<Kind, Type[]> = {
  page: ['mdx', 'visual', 'json'],
  fragment: ['visual', 'mdx'],
  data: ['json'],
};
const STARTING_CONTENT: Record<Type, CreateContentInput['locales'][string]['content']> = {
  mdx: { mdx: '# New page\n\nWrite here.\n' },
  visual: { visualData: { root: { props: {} }, content: [] } },
  json: { data: {} },
};

/** Create a page, fragment or data entry in its first locale, then open it in the editor. */
export function CreateScreen() {
  const query = route.value.screen === 'new' ? route.value.query : new URLSearchParams();
  const initialKind = query.get('kind');
  const [kind, setKind] = useState<Kind>(initialKind === 'fragment' || initialKind === 'data' ? initialKind : 'page');
  const [site, setSite] = useState(siteName.value);
  const [global, setGlobal] = useState(true);
  const [collection, setCollection] = useState(query.get('collection') ?? '');
  const [collections, setCollections] = useState<string[]>([]);
  const [type, setType] = useState<Type>(kind === 'data' ? 'json' : 'mdx');
  const [address, setAddress] = useState('');
  const [title, setTitle] = useState('');
  const itemSite = kind === 'page' || (kind === 'fragment' && !global) ? site : undefined;
  const locales = localesOf(itemSite);
  const [locale, setLocale] = useState(locales[0] ?? 'en');
  const { busy, error, run } = useAction();

  useEffect(() => {
    if (!TYPES_BY_KIND[kind].includes(type)) setType(TYPES_BY_KIND[kind][0]!);
  }, [kind]);
  useEffect(() => {
    if (!locales.includes(locale)) setLocale(locales[0] ?? 'en');
  }, [itemSite]);
  useEffect(() => {
    collectionsFor(kind, site).then(
      (answer) => setCollections(answer.collections),
      () => setCollections([]),
    );
  }, [kind, site]);

  const ask = () =>
    kind === 'page'
      ? client.sites.pathnameAvailable(site, address, { locale })
      : kind === 'fragment'
        ? client.fragments.nameAvailable(address, { collection: collection || undefined, locale, site: itemSite })
        : client.data.nameAvailable(address, collection);
  const check = useAvailability(
    address.trim() && (kind === 'page' || collection) ? ask : undefined,
    JSON.stringify([kind, site, address, collection, locale, itemSite]),
  );

  function create(event: Event) {
    event.preventDefault();
    const input: CreateContentInput = {
      kind,
      site: itemSite,
      collection,
      type,
      name: kind === 'page' ? undefined : address,
      locales: {
        [locale]: {
          pathname: kind === 'page' ? address : undefined,
          meta: title ? { title } : undefined,
          content: STARTING_CONTENT[type],
        },
      },
    };
    void run(async () => {
      const created = await client.content.create(input);
      // Replace the "new" entry, so that Back goes to the list, not to an empty form.
      navigate(editorHref(created.id, locale), { replace: true });
    });
  }

  return (
    <section class="screen" aria-labelledby="create-title">
      <h1 id="create-title">New content</h1>
      <form class="group create" onSubmit={create}>
        <fieldset class="choices">
          <legend>Kind</legend>
          {(['page', 'fragment', 'data'] as const).map((option) => (
            <label key={option}>
              <input type="radio" name="kind" checked={kind === option} onChange={() => setKind(option)} />
              {option === 'page'
                ? 'Page (has a pathname on a site)'
                : option === 'fragment'
                  ? 'Fragment or block (reusable piece)'
                  : 'Data entry (structured JSON)'}
            </label>
          ))}
        </fieldset>
        {kind === 'fragment' && (
          <label class="field field--check">
            <input type="checkbox" checked={global} onChange={(event) => setGlobal(event.currentTarget.checked)} />
            <span>Global (every site); uncheck for a fragment of one site</span>
          </label>
        )}
        {(kind === 'page' || !global) && kind !== 'data' && (
          <div class="field">
            <label for="create-site">Site</label>
            <select id="create-site" value={site} onChange={(event) => setSite(event.currentTarget.value)}>
              {siteNames.value.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div class="field">
          <label for="create-collection">Collection</label>
          <input
            id="create-collection"
            list="create-collections"
            value={collection}
            required
            placeholder={kind === 'page' ? 'e.g. pages or blog' : 'e.g. components'}
            onInput={(event) => setCollection(event.currentTarget.value)}
          />
          <datalist id="create-collections">
            {collections.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        </div>
        <div class="field">
          <label for="create-type">Type</label>
          <select id="create-type" value={type} onChange={(event) => setType(event.currentTarget.value as Type)}>
            {TYPES_BY_KIND[kind].map((option) => (
              <option key={option} value={option}>
                {option === 'mdx' ? 'MDX (Markdown)' : option === 'visual' ? 'Visual (blocks)' : 'JSON'}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="create-address">{kind === 'page' ? 'Pathname' : 'Name'}</label>
          <input
            id="create-address"
            class="mono"
            value={address}
            required
            placeholder={kind === 'page' ? '/about/team' : 'footer'}
            aria-describedby="create-address-status"
            onInput={(event) => setAddress(event.currentTarget.value)}
          />
          <p
            id="create-address-status"
            class={check.state === 'taken' || check.state === 'error' ? 'problem' : 'hint'}
            aria-live="polite"
          >
            {check.state === 'checking' && 'Checking…'}
            {check.state === 'available' && `${address} is free.`}
            {check.state === 'taken' && `${address} is taken by ${check.by}.`}
            {check.state === 'error' && 'Not a valid value (see the message below).'}
          </p>
          {check.state === 'error' && <ErrorNotice error={check.error} title="Check failed" />}
        </div>
        <div class="field">
          <label for="create-title-input">Title</label>
          <input id="create-title-input" value={title} onInput={(event) => setTitle(event.currentTarget.value)} />
        </div>
        <div class="field">
          <label for="create-locale">First locale</label>
          <select id="create-locale" value={locale} onChange={(event) => setLocale(event.currentTarget.value)}>
            {locales.map((code, index) => (
              <option key={code} value={code}>
                {index === 0 ? `${code} (default)` : code}
              </option>
            ))}
          </select>
          <p class="hint">Other locales are added from the editor (inherited or as a copy).</p>
        </div>
        <button type="submit" class="button button--primary" disabled={busy || check.state === 'taken'}>
          {busy ? 'Creating…' : 'Create and edit'}
        </button>
        {error !== undefined && <ErrorNotice error={error} title="Not created" />}
      </form>
    </section>
  );
}
