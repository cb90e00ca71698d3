// Confirmation before a destructive action, in a native <dialog> (focus trapped and Escape handled by the browser).
import { useCallback, useId, useRef, useState } from 'react';

interface ConfirmLabels {
  yes: string;
  no: string;
}
const DEFAULT_LABELS: ConfirmLabels = { yes: 'Yes, go ahead', no: 'Cancel' };

export function useConfirm() {
  const dialog = useRef<HTMLDialogElement>(null);
  const textId = useId();
  const [text, setText] = useState('');
  const [labels, setLabels] = useState<ConfirmLabels>(DEFAULT_LABELS);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback((message: string, buttons: Partial<ConfirmLabels> = {}) => {
    setText(message);
    setLabels({ ...DEFAULT_LABELS, ...buttons });
    dialog.current?.showModal();
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const close = (ok: boolean) => {
    dialog.current?.close();
    resolver.current?.(ok);
    resolver.current = null;
  };

  const element = (
    <dialog ref={dialog} className="confirm" aria-labelledby={textId} onCancel={() => close(false)}>
      <p id={textId}>{text}</p>
      <div className="actions">
        <button type="button" className="button secondary" onClick={() => close(false)}>
          {labels.no}
        </button>
        <button type="button" className="button danger" onClick={() => close(true)}>
          {labels.yes}
        </button>
      </div>
    </dialog>
  );
  return { confirm, dialog: element };
}
