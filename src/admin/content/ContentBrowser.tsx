import { useEffect, useMemo, useState } from 'preact/hooks';
import { changeCount } from '../state/live.js';
import { editorHref, href, navigate, route } from '../state/router.js';
import { localeCode, siteLocales, siteName } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { LocaleChip, PublicationLegend } from '../ui/LocaleChip.js';
import { narrow } from '../ui/media.js';
import { VirtualList } from '../ui/VirtualList.js';
import { collectionsFor, type Filters, filtersOf, loadRows, queryOf, type Row } from './rows.js';

const KIND_WORDS = { page: 'Pages', fragment: 'Fragments & blocks', data: 'Data' } as const;

function ContentRow({ row, locale }: { row: Row; locale: string }) {
  const open = row.item.locales[locale] ? locale : (row.locales.find((code) => row.item.locales[code]) ?? locale);
  return (
    <div class="row">
      <div class="row__main">
        <a class="row__title" href={editorHref(row.item.id, open)}>
          {row.title}
        </a>
        <span class="row__address">{row.address}</span>
      </div>
      <div class="row__badges">
        <span class="badge">{row.item.type}</span>
        {row.scope && <span class={`badge badge--${row.scope}`}>{row.scope}</span>}
        {row.item.kind !== 'page' && <span class="badge badge--quiet">{row.item.collection}</span>}
      </div>
      <div class="row__chips">
        {row.locales.map((code) => (
          <LocaleChip key={code} locale={code} record={row.item.locales[code]} />
        ))}
      </div>
    </div>
  );
}

function Select({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: string;
  options: [string, string][];
  onChange(value: string): void;
}) {
  return (
    <label class="field field--inline">
      <span>{label}</span>
      <select value={value} onChange={(event) => onChange(event.currentTarget.value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ContentBrowser() {
  const current = route.value;
  const filters = filtersOf(current.screen === 'content' ? current.query : new URLSearchParams());
  const site = siteName.value;
  const locale = localeCode.value;
  const [rows, setRows] = useState<Row[] | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [collections, setCollections] = useState<string[]>([]);
  const live = changeCount.value;

  const set = (change: Partial<Filters>) =>
    navigate(href('/content', queryOf({ ...filters, ...change })), { replace: true });
  const listKey = JSON.stringify({ ...filters, q: '' });

  useEffect(() => {
    let cancelled = false;
    loadRows(site, locale, filters).then(
      (loaded) => {
        if (cancelled) return;
        setRows(loaded);
        setError(undefined);
      },
      (failure: unknown) => {
        if (!cancelled) setError(failure);
      },
    );
    return () => {
      cancelled = true;
    };
  }, [listKey, site, locale, live]);

  useEffect(() => {
    collectionsFor(filters.kind, site).then(
      (answer) => setCollections(answer.collections),
      () => setCollections([]),
    );
  }, [filters.kind, site]);

  const search = filters.q.trim().toLowerCase();
  const shown = useMemo(
    () => (rows && search ? rows.filter((row) => row.haystack.includes(search)) : rows),
    [rows, search],
  );
  const activeFilters = [
    filters.collection,
    filters.type,
    filters.published,
    filters.localization,
    filters.missing,
    filters.review,
  ].filter(Boolean).length;
  const types =
    filters.kind === 'data' ? ['json'] : filters.kind === 'fragment' ? ['visual', 'mdx'] : ['visual', 'mdx', 'json'];

  return (
    <section class="screen screen--list" aria-labelledby="list-title">
      <div class="list-head">
        <h1 id="list-title">
          {KIND_WORDS[filters.kind]}
          {filters.kind === 'page' && site ? ` of ${site}` : ''}
        </h1>
        <a class="button" href={href('/new', { kind: filters.kind, collection: filters.collection || undefined })}>
          New {filters.kind === 'fragment' ? 'fragment' : filters.kind === 'data' ? 'data entry' : 'page'}
        </a>
      </div>
      <fieldset class="tabs" aria-label="Kind">
        {(['page', 'fragment', 'data'] as const).map((kind) => (
          <button
            key={kind}
            type="button"
            class="tab"
            aria-pressed={filters.kind === kind}
            onClick={() => set({ kind, collection: '', type: '' })}
          >
            {KIND_WORDS[kind]}
          </button>
        ))}
      </fieldset>
      <search class="filters">
        <label class="field field--search">
          <span>Search</span>
          <input
            type="search"
            value={filters.q}
            placeholder="Title, pathname or name"
            onInput={(event) => set({ q: event.currentTarget.value })}
          />
        </label>
        <details class="filters__more" open={!narrow.value || activeFilters > 0}>
          <summary>Filters{activeFilters > 0 ? ` (${activeFilters} on)` : ''}</summary>
          <div class="filters__fields">
            <Select
              label="Collection"
              value={filters.collection}
              onChange={(collection) => set({ collection })}
              options={[['', 'All'], ...collections.map((name): [string, string] => [name, name])]}
            />
            <Select
              label="Type"
              value={filters.type}
              onChange={(type) => set({ type })}
              options={[['', 'All'], ...types.map((type): [string, string] => [type, type])]}
            />
            <Select
              label="Published"
              value={filters.published}
              onChange={(published) => set({ published })}
              options={[
                ['', 'Any'],
                ['true', 'In at least one locale'],
                ['false', 'In no locale'],
              ]}
            />
            <Select
              label="Translation"
              value={filters.localization}
              onChange={(localization) => set({ localization })}
              options={[
                ['', 'Any'],
                ['complete', 'All locales'],
                ['partial', 'Some locales'],
                ['one', 'One locale'],
              ]}
            />
            <Select
              label="Missing locale"
              value={filters.missing}
              onChange={(missing) => set({ missing })}
              options={[['', 'None'], ...siteLocales.value.map((code): [string, string] => [code, code])]}
            />
            {locale !== siteLocales.value[0] && (
              <label class="field field--check">
                <input
                  type="checkbox"
                  checked={filters.review}
                  onChange={(event) => set({ review: event.currentTarget.checked })}
                />
                <span>Needs review in {locale}</span>
              </label>
            )}
          </div>
        </details>
      </search>
      {error !== undefined && <ErrorNotice error={error} title="The list could not be loaded" />}
      <div class="list-status">
        <p class="count" role="status">
          {shown === undefined
            ? 'Loading…'
            : `${shown.length} ${shown.length === 1 ? 'item' : 'items'}${rows && shown.length !== rows.length ? ` of ${rows.length}` : ''}`}
          {filters.review && ' (stale in this locale: the default locale changed since they were reviewed)'}
        </p>
        <PublicationLegend />
      </div>
      {shown && shown.length === 0 && (
        <p class="empty">
          Nothing matches. <a href={href('/new', { kind: filters.kind })}>Create one</a> or clear the filters.
        </p>
      )}
      {shown && shown.length > 0 && (
        <VirtualList
          items={shown}
          rowHeight={narrow.value ? 104 : 60}
          label="Content items"
          keyOf={(row) => row.item.id}
        >
          {(row) => <ContentRow row={row} locale={locale} />}
        </VirtualList>
      )}
    </section>
  );
}
