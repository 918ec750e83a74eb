import { useEffect, useState } from 'preact/hooks';
import type { Availability } from '../../client/index.js';

export type Check =
  | { state: 'idle' | 'checking' | 'available' }
  | { state: 'taken'; by: string }
  | { state: 'error'; error: unknown };

const DELAY_MS = 300;

/**
 * A live "is this pathname / name free?" check while the user types: asks shortly after the last
 * change (`key` names what is asked), and only the latest answer counts. No `ask`: nothing to check.
 */
export function useAvailability(ask: (() => Promise<Availability>) | undefined, key: string): Check {
  const [check, setCheck] = useState<Check>({ state: 'idle' });
  useEffect(() => {
    if (!ask) {
      setCheck({ state: 'idle' });
      return;
    }
    setCheck({ state: 'checking' });
    let current = true;
    const timer = setTimeout(() => {
      ask().then(
        (answer) => {
          if (current) setCheck(answer.available ? { state: 'available' } : { state: 'taken', by: answer.existingId });
        },
        (error: unknown) => {
          if (current) setCheck({ state: 'error', error });
        },
      );
    }, DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key]);
  return check;
}
