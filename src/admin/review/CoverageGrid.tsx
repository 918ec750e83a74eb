import { useEffect, useState } from 'preact/hooks';
import { changeCount } from '../state/live.js';
import { editorHref, href, navigate } from '../state/router.js';
import { siteName } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { CELL_STATES, CELL_WORDS, type CellState, type Coverage, loadCoverage, type Scope } from './coverage.js';

/** Rows drawn at most: a filter narrows a larger set. */
const MAX_ROWS = 500;
const SCOPE_WORDS: Record<Scope, string> = { page: 'Pages', fragment: 'Fragments', data: 'Data' };

/** What is missing or outdated where: items × locales, each cell coloured (and named) by its state. */
export function CoverageGrid({ query }: { query: URLSearchParams }) {
  const site = siteName.value;
  const scopeParam = query.get('scope');
  const scope: Scope = scopeParam === 'fragment' || scopeParam === 'data' ? scopeParam : 'page';
  const only = (query.get('state') ?? '') as CellState | '';
  const [coverage, setCoverage] = useState<Coverage | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const changes = changeCount.value;

  useEffect(() => {
    let cancelled = false;
    loadCoverage(site, scope).then(
      (loaded) => !cancelled && setCoverage(loaded),
      (failure) => !cancelled && setError(failure),
    );
    return () => {
      cancelled = true;
    };
  }, [site, scope, changes]);

  const go = (update: Record<string, string>) =>
    navigate(
      href('/review', {
        view: 'coverage',
        scope: scope === 'page' ? undefined : scope,
        state: only || undefined,
        ...update,
      }),
      { replace: true },
    );

  const rows = coverage?.rows.filter((row) => !only || row.cells.includes(only)) ?? [];
  return (
    <section aria-labelledby="coverage-title">
      <h2 id="coverage-title">Coverage</h2>
      <div class="filters">
        <label class="field field--inline">
          <span>Show</span>
          <select value={scope} onChange={(event) => go({ scope: event.currentTarget.value })}>
            {Object.entries(SCOPE_WORDS).map(([value, words]) => (
              <option key={value} value={value}>
                {words}
              </option>
            ))}
          </select>
        </label>
        <label class="field field--inline">
          <span>With a cell</span>
          <select value={only} onChange={(event) => go({ state: event.currentTarget.value })}>
            <option value="">any state</option>
            {CELL_STATES.map((state) => (
              <option key={state} value={state}>
                {CELL_WORDS[state]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {error !== undefined && <ErrorNotice error={error} title="The coverage could not load" />}
      {coverage && (
        <div class="coverage__scroll">
          <table class="coverage">
            <caption>
              {SCOPE_WORDS[scope]} × locales ({rows.length} items
              {rows.length > MAX_ROWS && `, the first ${MAX_ROWS} shown`})
            </caption>
            <thead>
              <tr>
                <th scope="col">Item</th>
                {coverage.locales.map((locale) => (
                  <th scope="col" key={locale}>
                    {locale}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.slice(0, MAX_ROWS).map((row) => (
                <tr key={row.item.id}>
                  <th scope="row">{row.title}</th>
                  {row.cells.map((state, position) => {
                    const locale = coverage.locales[position]!;
                    return (
                      <td key={locale} class={`coverage__cell coverage__cell--${state}`} data-state={state}>
                        <a
                          href={editorHref(row.item.id, locale)}
                          aria-label={`${row.title}, ${locale}: ${CELL_WORDS[state]}`}
                        >
                          {CELL_WORDS[state]}
                        </a>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Totals</th>
                {coverage.totals.map((counts, position) => (
                  <td key={coverage.locales[position]}>
                    {CELL_STATES.filter((state) => counts[state] > 0)
                      .map((state) => `${counts[state]} ${CELL_WORDS[state]}`)
                      .join(', ') || '—'}
                  </td>
                ))}
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
