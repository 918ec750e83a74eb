import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from '../ui/ErrorNotice.js';

type Desk = ComponentType<{ query: URLSearchParams }>;

/** Loads the review desk's chunk on first visit, so the rest of the admin does not carry it. */
export function ReviewScreen({ query }: { query: URLSearchParams }) {
  const [desk, setDesk] = useState<{ Desk: Desk } | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    import('./ReviewDesk.js').then(({ ReviewDesk }) => setDesk({ Desk: ReviewDesk }), setError);
  }, []);
  if (error !== undefined) return <ErrorNotice error={error} title="The review desk could not load" />;
  if (!desk)
    return (
      <p class="loading" role="status">
        Loading…
      </p>
    );
  return <desk.Desk query={query} />;
}
