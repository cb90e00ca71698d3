// Unsaved edits are not lost silently: the forms of a page report whether they hold an edit (useUnsavedChanges), and
// the page's scope asks before the merchant leaves for another page of the console (react-router's blocker) and lets
// the browser ask before a reload or a closed tab (beforeunload). A navigation that follows a save (`state.saved`) is
// not asked about.
import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { useBlocker } from 'react-router';
import { useConfirm } from './confirm';

type Report = (key: symbol, dirty: boolean) => void;
const UnsavedContext = createContext<Report | null>(null);

export function UnsavedChangesScope({ children }: { children: ReactNode }) {
  const [dirty, setDirty] = useState<ReadonlySet<symbol>>(new Set());
  const report = useCallback<Report>(
    (key, isDirty) =>
      setDirty((keys) => {
        if (keys.has(key) === isDirty) return keys;
        const next = new Set(keys);
        if (isDirty) next.add(key);
        else next.delete(key);
        return next;
      }),
    [],
  );
  return (
    <UnsavedContext.Provider value={report}>
      {children}
      <LeaveGuard dirty={dirty.size > 0} />
    </UnsavedContext.Provider>
  );
}

/** A form's part: whether it holds an edit not saved yet. */
export function useUnsavedChanges(dirty: boolean): void {
  const report = useContext(UnsavedContext);
  const [key] = useState(() => Symbol('form'));
  useEffect(() => report?.(key, dirty), [report, key, dirty]);
  useEffect(() => () => report?.(key, false), [report, key]);
}

function LeaveGuard({ dirty }: { dirty: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && currentLocation.pathname !== nextLocation.pathname && !(nextLocation.state as { saved?: boolean } | null)?.saved,
  );
  const { confirm, dialog } = useConfirm();
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    void confirm('This page has changes that are not saved. Leave it and lose them?', { yes: 'Leave without saving', no: 'Stay on this page' }).then((leave) =>
      leave ? blocker.proceed() : blocker.reset(),
    );
  }, [blocker, confirm]);
  useEffect(() => {
    if (!dirty) return;
    // The browser shows its own question; the text cannot be chosen.
    const ask = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [dirty]);
  return dialog;
}
