import type { LocaleRecord } from '../../client/index.js';
import { inheritanceOf } from '../content/status.js';
import { ownWrite } from '../state/live.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';

interface Props {
  id: string;
  locale: string;
  record: LocaleRecord;
  /** The etag the editor is looking at: every transition is sent with it. */
  etag: string;
  onDone(message: string): void;
}

const EXPLAIN = {
  inherited: 'This locale shows the content of {from} and follows its changes. Its meta and pathname are its own.',
  stale:
    '{from} changed since this locale was last reviewed. Check that the translation still fits, then mark it reviewed.',
  customized: 'This locale has its own content; changes to {from} no longer reach it.',
} as const;

/** The inheritance state of a non-default locale and the three transitions. */
export function InheritancePanel({ id, locale, record, etag, onDone }: Props) {
  const { busy, error, run: start, dismiss } = useAction();
  const state = inheritanceOf(record);
  if (state === 'own' || state === 'missing' || !record.inheritance) return null;
  const from = record.inheritance.from;

  const run = (action: 'markReviewed' | 'breakInheritance' | 'revertToInherited', done: string) =>
    start(async () => {
      await ownWrite(() => client.content[action](id, locale, etag));
      onDone(done);
    });

  return (
    <section class={`panel panel--${state}`} aria-labelledby="inheritance-title">
      <h2 id="inheritance-title">
        Inheritance:{' '}
        <span class={`state state--${state}`}>{state === 'stale' ? 'inherited, needs review' : state}</span>
      </h2>
      <p>{EXPLAIN[state].replace('{from}', from)}</p>
      <div class="actions">
        {state === 'stale' && (
          <button
            type="button"
            class="button button--primary"
            disabled={busy}
            onClick={() => run('markReviewed', `${locale} marked reviewed.`)}
          >
            Mark reviewed
          </button>
        )}
        {state !== 'customized' && (
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() => run('breakInheritance', `${locale} now has its own copy of the content: translate away.`)}
          >
            Break inheritance
          </button>
        )}
        {state === 'customized' && (
          <button
            type="button"
            class="button"
            disabled={busy}
            onClick={() =>
              run('revertToInherited', `${locale} inherits the content of ${from} again; its meta and pathname stay.`)
            }
          >
            Revert to inherited
          </button>
        )}
      </div>
      {error !== undefined && <ErrorNotice error={error} title="The inheritance change failed" onDismiss={dismiss} />}
    </section>
  );
}
