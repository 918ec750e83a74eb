import { signal } from '@preact/signals';
import { client } from './session.js';

/** A change the server announces on `/events` (the shape admin-server's `QuireEvent` has). */
export type LiveEvent =
  | {
      kind: 'content';
      id: string;
      locale: string | null;
      etag: string | null;
      by: string | null;
      action: 'created' | 'updated' | 'deleted';
    }
  | { kind: 'asset'; path: string | null; action: string }
  | { kind: 'git'; action: string };
export type ContentEvent = Extract<LiveEvent, { kind: 'content' }>;

interface EventHandlers {
  onEvent(event: LiveEvent): void;
  onOpen?(): void;
  onError?(error: unknown): void;
}
type Subscribe = (handlers: EventHandlers, options: { signal: AbortSignal }) => () => void;

/** 'unavailable' when this server or client has no `/events`: the screens then refresh only on their own actions. */
export const liveStatus = signal<'connecting' | 'live' | 'reconnecting' | 'unavailable'>('connecting');
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

export function startLive() {
  // The events client is added alongside this app; an older client without it leaves the admin working without live updates.
  const subscribe = (client as unknown as { events?: { subscribe?: Subscribe } }).events?.subscribe;
  if (typeof subscribe !== 'function') {
    liveStatus.value = 'unavailable';
    return;
  }
  const controller = new AbortController();
  subscribe(
    {
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
    },
    { signal: controller.signal },
  );
}
