import type { QuireEvent } from './types.js';

export type ChangeListener = (event: QuireEvent) => void;

/** Every change the services see, handed to whoever listens (the open `/events` streams). */
export function createChangeFeed() {
  const listeners = new Set<ChangeListener>();
  return {
    announce(event: QuireEvent): void {
      for (const listener of listeners) {
        try {
          listener(event);
        } catch (error) {
          console.warn(`[astro-quire] a change listener failed: ${(error as Error).message}`);
        }
      }
    },
    /** Returns the function that stops listening. */
    onChange(listener: ChangeListener): () => void {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** How many listen: disk changes are looked for eagerly only while someone does. */
    get listeners(): number {
      return listeners.size;
    },
  };
}

export type ChangeFeed = ReturnType<typeof createChangeFeed>;
