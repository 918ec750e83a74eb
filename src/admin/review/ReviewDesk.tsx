// The review desk, its own chunk: ReviewScreen.tsx loads it with import() when /review is opened.
import { useEffect, useState } from 'preact/hooks';
import type { Review } from '../../client/index.js';
import { changeCount, ownWrite } from '../state/live.js';
import { editorHref, href, navigate } from '../state/router.js';
import { client, localeCode, siteLocales, siteName } from '../state/session.js';
import { describeError, ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';
import { CoverageGrid } from './CoverageGrid.js';
import { DiffView } from './DiffView.js';
import { type BulkOutcome, loadQueue, markAllReviewed, type QueueEntry } from './queue.js';

const REASON_WORDS = { stale: 'stale', behind: 'source changed' } as const;

/** Typing in a field never moves through the queue. */
function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element && (['INPUT', 'SELECT', 'TEXTAREA'].includes(element.tagName) || element.isContentEditable);
}

function foundWhere(review: Review): string {
  const found = review.reviewed?.foundIn;
  if (!found) return '';
  if (found.source === 'current') return 'the current source';
  if (found.source === 'cache') return 'the local cache of uncommitted versions';
  return `commit ${found.commit.slice(0, 8)} of ${new Date(found.date).toLocaleString()}`;
}

const contentText = (review: Review, side: Review['translation']) =>
  review.type === 'mdx' ? (side.content.mdx ?? '') : JSON.stringify(side.content, null, 2);

function Counts({ counts, locale, site }: { counts: Map<string, QueueEntry[]>; locale: string; site: string }) {
  return (
    <nav class="review__locales" aria-label="Locales to review">
      <ul>
        {[...counts].map(([code, entries]) => {
          const stale = entries.filter((entry) => entry.reason === 'stale').length;
          return (
            <li key={code}>
              <a href={href('/review', { locale: code })} aria-current={code === locale ? 'page' : undefined}>
                <strong>{code}</strong> {stale} stale, {entries.length - stale} fallen behind
              </a>
            </li>
          );
        })}
      </ul>
      <span class="review__site">site {site}</span>
    </nav>
  );
}

function BulkReport({ outcomes }: { outcomes: BulkOutcome[] }) {
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  return (
    <div class="review__bulk-report" role="status">
      <p>
        {outcomes.length - failed.length} marked reviewed{failed.length > 0 && `, ${failed.length} not`}.
      </p>
      {failed.length > 0 && (
        <ul>
          {failed.map(({ entry, error }) => {
            const { code, message } = describeError(error);
            return (
              <li key={entry.id} class="review__bulk-failure">
                <strong>{entry.title}</strong>:{' '}
                {code === 'STALE_WRITE' ? 'changed since it was listed (412); review it again' : message}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}

function Detail({ review, title, onDone }: { review: Review; title: string; onDone(): void }) {
  const { busy, error, run, dismiss } = useAction();
  const { id, locale, state } = review;
  const act = (task: () => Promise<unknown>) =>
    run(async () => {
      await task();
      onDone();
    });
  return (
    <section class="review__detail" aria-labelledby="review-title">
      <h2 id="review-title">{title}</h2>
      <p class="review__address">{id}</p>
      <p class="review__summary">
        {locale} {state === 'inherited' ? 'inherits' : 'was customized from'} {review.from}.{' '}
        {review.reviewed
          ? `Reviewed against the source found in ${foundWhere(review)}.`
          : `The reviewed source cannot be shown: ${review.reason?.message ?? ''}`}
      </p>
      <div class="actions">
        <button
          type="button"
          class="button button--primary"
          disabled={busy}
          onClick={() => act(() => ownWrite(() => client.content.markReviewed(id, locale, review.translation.etag)))}
        >
          Mark reviewed
        </button>
        {state === 'inherited' ? (
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() =>
              run(async () => {
                await ownWrite(() => client.content.breakInheritance(id, locale, review.translation.etag));
                navigate(editorHref(id, locale));
              })
            }
          >
            Break inheritance and edit
          </button>
        ) : (
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() =>
              act(() => ownWrite(() => client.content.revertToInherited(id, locale, review.translation.etag)))
            }
          >
            Revert to inherited
          </button>
        )}
        <a class="button button--quiet" href={editorHref(id, locale)}>
          Open in editor
        </a>
      </div>
      {error !== undefined && <ErrorNotice error={error} title="The review action failed" onDismiss={dismiss} />}
      <div class="review__columns">
        <section aria-labelledby="changes-title">
          <h3 id="changes-title">What changed in {review.from}</h3>
          {review.diff ? <DiffView diff={review.diff} /> : <p>No reviewed version to compare with.</p>}
        </section>
        <section aria-labelledby="translation-title">
          <h3 id="translation-title">Translation ({locale})</h3>
          <pre class="review__translation">{contentText(review, review.translation)}</pre>
        </section>
      </div>
    </section>
  );
}

/** The translation review desk: what needs review per locale, and for one item exactly what changed. */
export function ReviewDesk({ query }: { query: URLSearchParams }) {
  const site = siteName.value;
  const locales = siteLocales.value.slice(1);
  const wanted = query.get('locale') ?? localeCode.value;
  const locale = locales.includes(wanted) ? wanted : (locales[0] ?? '');
  const [queues, setQueues] = useState<Map<string, QueueEntry[]>>(new Map());
  const [loadError, setLoadError] = useState<unknown>(undefined);
  const [refresh, setRefresh] = useState(0);
  const [review, setReview] = useState<Review | undefined>(undefined);
  // Each selected translation keeps the etag it had when it was picked: a change after that is reported, not overwritten.
  const [checked, setChecked] = useState<Map<string, QueueEntry>>(new Map());
  const [outcomes, setOutcomes] = useState<BulkOutcome[] | undefined>(undefined);
  const bulk = useAction();
  const changes = changeCount.value;
  const queue = queues.get(locale) ?? [];
  const selected = queue.find((entry) => entry.id === query.get('item')) ?? queue[0];

  useEffect(() => {
    let cancelled = false;
    Promise.all(locales.map(async (code) => [code, await loadQueue(site, code)] as const)).then(
      (loaded) => {
        if (cancelled) return;
        setQueues(new Map(loaded));
        setLoadError(undefined);
      },
      (error) => !cancelled && setLoadError(error),
    );
    return () => {
      cancelled = true;
    };
  }, [site, locales.join(','), refresh, changes]);

  useEffect(() => {
    if (!selected) return setReview(undefined);
    let cancelled = false;
    client.content.review(selected.id, locale).then(
      (answer) => !cancelled && setReview(answer),
      (error) => !cancelled && setLoadError(error),
    );
    return () => {
      cancelled = true;
    };
  }, [selected?.id, selected?.etag, locale]);

  const select = (entry: QueueEntry | undefined) =>
    entry && navigate(href('/review', { locale, item: entry.id }), { replace: true });
  const step = (by: number) => {
    if (queue.length === 0) return;
    const at = selected ? queue.indexOf(selected) : -1;
    select(queue[(at + by + queue.length) % queue.length]);
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.metaKey || event.ctrlKey || event.altKey || isTyping(event.target)) return;
      if (event.key === 'n' || event.key === 'j') step(1);
      else if (event.key === 'p' || event.key === 'k') step(-1);
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  });

  const toggle = (entry: QueueEntry) => {
    const next = new Map(checked);
    if (next.has(entry.id)) next.delete(entry.id);
    else next.set(entry.id, entry);
    setChecked(next);
  };

  const markChecked = () =>
    bulk.run(async () => {
      setOutcomes(await markAllReviewed([...checked.values()], ownWrite));
      setChecked(new Map());
      setRefresh((count) => count + 1);
    });

  if (locales.length === 0)
    return (
      <section class="screen">
        <h1>Translation review</h1>
        <p>Site {site} has only one locale: there is nothing to translate.</p>
      </section>
    );

  const coverage = query.get('view') === 'coverage';
  return (
    <section class="screen review">
      <h1>Translation review</h1>
      <Counts counts={queues} locale={locale} site={site} />
      <nav class="review__views" aria-label="Views">
        <a href={href('/review', { locale })} aria-current={coverage ? undefined : 'page'}>
          Queue
        </a>
        <a href={href('/review', { view: 'coverage' })} aria-current={coverage ? 'page' : undefined}>
          Coverage
        </a>
      </nav>
      {loadError !== undefined && <ErrorNotice error={loadError} title="The review queue could not load" />}
      {coverage ? (
        <CoverageGrid query={query} />
      ) : (
        <div class="review__layout">
          <div class="review__queue">
            <h2 id="queue-title">
              {locale}: {queue.length} to review
            </h2>
            <p class="review__hint">
              Keys: <kbd>n</kbd> next, <kbd>p</kbd> previous.
            </p>
            {queue.length > 0 && (
              <div class="actions">
                <button type="button" class="button" disabled={bulk.busy || checked.size === 0} onClick={markChecked}>
                  Mark {checked.size} selected reviewed
                </button>
                <button type="button" class="button button--quiet" onClick={() => step(1)}>
                  Next
                </button>
              </div>
            )}
            {outcomes && <BulkReport outcomes={outcomes} />}
            {bulk.error !== undefined && <ErrorNotice error={bulk.error} onDismiss={bulk.dismiss} />}
            <ul class="review__items" aria-labelledby="queue-title">
              {queue.map((entry) => (
                <li key={entry.id} class={entry === selected ? 'review__item review__item--selected' : 'review__item'}>
                  <input
                    type="checkbox"
                    id={`pick-${entry.id}`}
                    checked={checked.has(entry.id)}
                    onChange={() => toggle(entry)}
                    aria-label={`Select ${entry.title}`}
                  />
                  <a
                    href={href('/review', { locale, item: entry.id })}
                    aria-current={entry === selected ? 'true' : undefined}
                  >
                    {entry.title}
                  </a>
                  <span class={`badge review__reason--${entry.reason}`}>{REASON_WORDS[entry.reason]}</span>
                  <span class="review__address">{entry.address}</span>
                </li>
              ))}
            </ul>
            {queue.length === 0 && queues.size > 0 && <p>Nothing to review in {locale}.</p>}
          </div>
          {review && selected && review.id === selected.id && review.locale === locale && (
            <Detail review={review} title={selected.title} onDone={() => setRefresh((count) => count + 1)} />
          )}
        </div>
      )}
    </section>
  );
}
