// Confirmation before a destructive action, in a native <dialog> (focus trapped and Escape handled by the browser).
import { useCallback, useRef, useState } from 'react';

export function useConfirm() {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback((message: string) => {
    setText(message);
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
    <dialog ref={dialog} className="confirm" aria-labelledby="confirm-text" onCancel={() => close(false)}>
      <p id="confirm-text">{text}</p>
      <div className="actions">
        <button type="button" className="button secondary" onClick={() => close(false)}>
          Cancel
        </button>
        <button type="button" className="button danger" onClick={() => close(true)}>
          Yes, go ahead
        </button>
      </div>
    </dialog>
  );
  return { confirm, dialog: element };
}
