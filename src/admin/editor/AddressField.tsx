import type { ContentEntry } from '../../client/index.js';
import { ownWrite } from '../state/live.js';
import { client } from '../state/session.js';
import { ErrorNotice } from '../ui/ErrorNotice.js';
import { useAction } from '../ui/use-action.js';
import { useAvailability } from '../ui/use-availability.js';

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

/** A page's pathname with a live availability check and "Move" (which keeps a redirect); a fragment's or entry's name. */
export function AddressField({ entry, locale, saved, value, etag, onChange, onMoved }: Props) {
  const isPage = entry.kind === 'page';
  const { busy: moving, error: moveError, run, dismiss } = useAction();
  const changed = value !== saved;
  const check = useAvailability(
    isPage && changed && entry.site
      ? () => client.sites.pathnameAvailable(entry.site!, value, { locale, excludeId: entry.id })
      : undefined,
    changed ? value : '',
  );

  const move = () =>
    run(async () => {
      const result = await ownWrite(() =>
        client.sites.move(entry.site!, { id: entry.id, locale, pathname: value, etag }),
      );
      onMoved(`Moved from ${result.previousPathname} to ${value}. A redirect from ${result.previousPathname} is kept.`);
    });

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
        <input
          id="address"
          class="mono"
          value={value}
          aria-describedby="address-status"
          onInput={(event) => onChange(event.currentTarget.value)}
        />
        <button
          type="button"
          class="button"
          disabled={!changed || check.state !== 'available' || moving}
          onClick={move}
        >
          {moving ? 'Moving…' : 'Move'}
        </button>
      </div>
      <p
        id="address-status"
        class={check.state === 'taken' || check.state === 'error' ? 'problem' : 'hint'}
        aria-live="polite"
      >
        {!changed && 'Change the pathname, then Move: a redirect from the old pathname is kept.'}
        {changed && check.state === 'checking' && 'Checking…'}
        {changed && check.state === 'available' && `${value} is free. Move keeps a redirect from ${saved}.`}
        {changed && check.state === 'taken' && `${value} is taken by ${check.by}.`}
        {changed && check.state === 'error' && 'This pathname cannot be used (see below).'}
      </p>
      {check.state === 'error' && <ErrorNotice error={check.error} title="Pathname check failed" />}
      {moveError !== undefined && <ErrorNotice error={moveError} title="The move failed" onDismiss={dismiss} />}
    </div>
  );
}
