import { signal } from '@preact/signals';
import type { QuireEvent } from '../../client/index.js';
import { client } from './session.js';

export type ContentEvent = Extract<QuireEvent, { kind: 'content' }>;

export const liveStatus = signal<'connecting' | 'live' | 'reconnecting'>('connecting');
/** Bumped on every change and on every (re)connect: lists that read it refetch. */
export const changeCount = signal(0);
/** The latest content change, for the editor's "changed by" banner. */
export const lastContentEvent = signal<ContentEvent | undefined>(undefined);

const REFRESH_DELAY_MS = 250;
let refreshTimer: ReturnType<typeof setTimeout> | undefined;
/** A burst of changes (a git pull touching a hundred files) makes one refresh, not a hundred. */
function changed() {
  if (refreshTimer !== undefined) return;
  refreshTimer = setTimeout(() => {
    refreshTimer = undefined;
    changeCount.value++;
  }, REFRESH_DELAY_MS);
}

/** Etags this tab wrote, and how many of its writes are still on their way. */
const ownEtags = new Set<string>();
let writesInFlight = 0;

/**
 * Runs one of this tab's writes. Its event may arrive before its answer, so while a write is in
 * flight events are not taken as someone else's change; afterwards its etag says it was ours.
 */
export async function ownWrite<T extends { etag: string }>(write: () => Promise<T>): Promise<T> {
  writesInFlight++;
  try {
    const result = await write();
    ownEtags.add(result.etag);
    return result;
  } finally {
    writesInFlight--;
  }
}

/** Whether a content event is someone else's change (not one of this tab's writes). */
export const isForeign = (event: ContentEvent) => writesInFlight === 0 && !(event.etag && ownEtags.has(event.etag));

/** Listens for the whole life of the page: the client reconnects by itself after a drop. */
export function startLive() {
  client.events.subscribe({
    onOpen() {
      liveStatus.value = 'live';
      changed();
    },
    onEvent(event) {
      if (event.kind === 'content') lastContentEvent.value = event;
      changed();
    },
    onError() {
      liveStatus.value = 'reconnecting';
    },
  });
}
