import { useEffect, useRef, useState } from 'preact/hooks';
import type { AssetEntry } from '../../client/index.js';
import { MediaLibrary } from './MediaLibrary.js';

interface Props {
  /** Names the field in the button's accessible name, e.g. "ogImage". */
  field: string;
  /** What the button says. @default 'Choose' */
  label?: string;
  disabled?: boolean;
  onChoose(asset: AssetEntry): void;
}

/**
 * A button opening the media library in picking mode in a modal dialog: each file has a "Choose"
 * button; uploads work there too. The dialog is rendered only while open.
 */
export function AssetPicker({ field, label = 'Choose', disabled, onChoose }: Props) {
  const [open, setOpen] = useState(false);
  const [folder, setFolder] = useState('/');
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (open) dialog.current?.showModal();
  }, [open]);

  return (
    <>
      <button
        type="button"
        class="button button--small"
        disabled={disabled}
        aria-label={`${label} a file for ${field}`}
        onClick={() => setOpen(true)}
      >
        {label}…
      </button>
      {open && (
        <dialog ref={dialog} class="picker-dialog" aria-labelledby="picker-title" onClose={() => setOpen(false)}>
          <div class="picker-dialog__head">
            <h2 id="picker-title">Choose a file for {field}</h2>
            <button type="button" class="button button--quiet" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
          </div>
          <MediaLibrary
            folder={folder}
            onFolder={setFolder}
            onPick={(asset) => {
              onChoose(asset);
              dialog.current?.close();
            }}
          />
        </dialog>
      )}
    </>
  );
}
