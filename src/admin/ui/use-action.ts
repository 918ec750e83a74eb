import { useState } from 'preact/hooks';

/** One user action against the API: whether it is running, and its error to show (the screen stays as it was). */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  }
  return { busy, error, run, dismiss: () => setError(undefined) };
}
