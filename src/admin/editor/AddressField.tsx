import { useEffect, useState } from 'preact/hooks';
import type { ContentEntry } from '../../client/index.js';
import { ownWrite } from '../state/live.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';

interface Props {
  entry: ContentEntry;
  locale: string;
  saved: string;
  value: string;
  etag: string;
  onChange(value: string): void;
  /** After a move: the server's new state should be read. */
  onMoved(message: string): void;
}

type Check = { state: 'idle' | 'checking' | 'available' } | { state: 'taken'; by: string } | { state: 'error'; error: unknown };

/** A page's pathname with a live availability check and "Move" (which keeps a redirect); a fragment's or entry's name. */
export function AddressField({ entry, locale, saved, value, etag, onChange, onMoved }: Props) {
  const isPage = entry.kind === 'page';
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  const [moving, setMoving] = useState(false);
  const [moveError, setMoveError] = useState<unknown>();
  const changed = value !== saved;

  useEffect(() => {
    if (!isPage || !changed || !entry.site) {
      setCheck({ state: 'idle' });
      return;
    }
    setCheck({ state: 'checking' });
    const timer = setTimeout(() => {
      client.sites.pathnameAvailable(entry.site!, value, { locale, excludeId: entry.id }).then(
        (answer) => setCheck(answer.available ? { state: 'available' } : { state: 'taken', by: answer.existingId }),
        (error: unknown) => setCheck({ state: 'error', error }),
      );
    }, 300);
    return () => clearTimeout(timer);
  }, [value, changed]);

  async function move() {
    setMoving(true);
    setMoveError(undefined);
    try {
      const result = await ownWrite(() => client.sites.move(entry.site!, { id: entry.id, locale, pathname: value, etag }));
      onMoved(`Moved from ${result.previousPathname} to ${value}. A redirect from ${result.previousPathname} is kept.`);
    } catch (error) {
      setMoveError(error);
    } finally {
      setMoving(false);
    }
  }

  if (!isPage) {
    return (
      <div class="field">
        <label for="address">Name</label>
        <input id="address" value={value} onInput={(event) => onChange(event.currentTarget.value)} />
      </div>
    );
  }
  return (
    <div class="field">
      <label for="address">Pathname</label>
      <div class="inline-form">
        <input id="address" class="mono" value={value} aria-describedby="address-status" onInput={(event) => onChange(event.currentTarget.value)} />
        <button type="button" class="button" disabled={!changed || check.state !== 'available' || moving} onClick={move}>
          {moving ? 'Moving…' : 'Move'}
        </button>
      </div>
      <p id="address-status" class={check.state === 'taken' || check.state === 'error' ? 'problem' : 'hint'} aria-live="polite">
        {!changed && 'Change the pathname, then Move: a redirect from the old pathname is kept.'}
        {changed && check.state === 'checking' && 'Checking…'}
        {changed && check.state === 'available' && `${value} is free. Move keeps a redirect from ${saved}.`}
        {changed && check.state === 'taken' && `${value} is taken by ${check.by}.`}
        {changed && check.state === 'error' && 'This pathname cannot be used (see below).'}
      </p>
      {check.state === 'error' && <ErrorNotice error={check.error} title="Pathname check failed" />}
      {moveError !== undefined && <ErrorNotice error={moveError} title="The move failed" onDismiss={() => setMoveError(undefined)} />}
    </div>
  );
}
