// Unsaved edits are not lost silently, and a page of several sections saves as one. The forms of a page report whether
// they hold an edit (useUnsavedChanges); the page's scope asks before the merchant leaves for another page of the
// console (react-router's blocker) and lets the browser ask before a reload or a closed tab (beforeunload). A navigation
// that follows a save (`state.saved`) is not asked about.
//
// A section that saves through the page's save bar (useSaveSection) also gives how to check, send and drop its edit.
// The bar appears on the first change and saves every section holding one: all are checked first, and nothing is sent
// while one of them has a problem; then each sends its edit in the page's order, stopping at the first the server
// refuses (its problem shown beside its field, the sections not sent yet keeping their edits).
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { useBlocker } from 'react-router';
import { useConfirm } from './confirm';

/** How the save bar saves one section's edit. */
export interface SaveSection {
  /** Its place in the page: sections are checked and sent in this order. */
  order: number;
  /** Checks the edit here, marking its problems; false: the bar sends nothing. */
  check: () => boolean;
  /** Sends the edit; false when the server refused it (the section shows why). */
  save: () => Promise<boolean>;
  /** Back to what is saved. */
  discard: () => void;
}

interface Scope {
  report: (key: symbol, dirty: boolean, section?: { current: SaveSection }) => void;
  saveAll: () => void;
}
const UnsavedContext = createContext<Scope | null>(null);

type Entry = { current: SaveSection } | null;

export function UnsavedChangesScope({ children, saveBar = false }: { children: ReactNode; saveBar?: boolean }) {
  const [dirty, setDirty] = useState<ReadonlyMap<symbol, Entry>>(new Map());
  const report = useCallback<Scope['report']>(
    (key, isDirty, section) =>
      setDirty((keys) => {
        if (keys.has(key) === isDirty) return keys;
        const next = new Map(keys);
        if (isDirty) next.set(key, section ?? null);
        else next.delete(key);
        return next;
      }),
    [],
  );
  const bar = useSaveBar(dirty);
  const scope = useMemo<Scope>(() => ({ report, saveAll: bar.saveAll }), [report, bar.saveAll]);
  return (
    <UnsavedContext.Provider value={scope}>
      {children}
      {saveBar && <SaveBar {...bar} dirty={dirty.size > 0} />}
      <LeaveGuard dirty={dirty.size > 0} />
    </UnsavedContext.Provider>
  );
}

/** A form's part: whether it holds an edit not saved yet. */
export function useUnsavedChanges(dirty: boolean, section?: { current: SaveSection }): void {
  const scope = useContext(UnsavedContext);
  const [key] = useState(() => Symbol('form'));
  useEffect(() => scope?.report(key, dirty, section), [scope, key, dirty, section]);
  useEffect(() => () => scope?.report(key, false), [scope, key]);
}

/** A section saved by the page's save bar: its edit, and how to check, send and drop it (read at save time). */
export function useSaveSection(dirty: boolean, section: SaveSection): void {
  const ref = useRef(section);
  ref.current = section;
  useUnsavedChanges(dirty, ref);
}

/** Saves every section of the page that holds an edit (a form's Enter, Ctrl+S). */
export function useSaveAll(): () => void {
  const scope = useContext(UnsavedContext);
  return scope?.saveAll ?? (() => {});
}

type Outcome = { ok: true } | { ok: false; message: string } | null;

function useSaveBar(dirty: ReadonlyMap<symbol, Entry>) {
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const latest = useRef(dirty);
  latest.current = dirty;
  const busy = useRef(false);
  const sections = useCallback(
    () =>
      [...latest.current.values()]
        .filter((entry): entry is { current: SaveSection } => entry !== null)
        .map((entry) => entry.current)
        .sort((a, b) => a.order - b.order),
    [],
  );

  const saveAll = useCallback(async () => {
    const edits = sections();
    if (edits.length === 0 || busy.current) return;
    // Every section checked (each marks its own problems), nothing sent while one has a problem.
    if (!edits.map((s) => s.check()).every(Boolean)) {
      setOutcome({ ok: false, message: 'Not saved: correct the fields marked.' });
      focusFirstProblem();
      return;
    }
    busy.current = true;
    setSaving(true);
    setOutcome(null);
    try {
      for (const section of edits) {
        if (!(await section.save())) {
          setOutcome({ ok: false, message: 'Not saved: correct the fields marked.' });
          focusFirstProblem();
          return;
        }
      }
      setOutcome({ ok: true });
    } finally {
      busy.current = false;
      setSaving(false);
    }
  }, [sections]);

  const discardAll = () => {
    for (const section of sections()) section.discard();
    setOutcome(null);
  };
  const clearOutcome = useCallback(() => setOutcome(null), []);
  return { saving, outcome, saveAll, discardAll, clearOutcome };
}

function focusFirstProblem() {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"], fieldset.invalid input')?.focus());
}

function SaveBar({ dirty, saving, outcome, saveAll, discardAll, clearOutcome }: ReturnType<typeof useSaveBar> & { dirty: boolean }) {
  const { confirm, dialog } = useConfirm();
  // The first change after a save replaces its "Saved." with the bar. (Not "changed while saved": the sections report
  // that they are saved after the bar has heard so from their saves.)
  const wasDirty = useRef(dirty);
  useEffect(() => {
    if (dirty && !wasDirty.current) clearOutcome();
    wasDirty.current = dirty;
  }, [dirty, clearOutcome]);
  useEffect(() => {
    if (!dirty) return;
    const save = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void saveAll();
      }
    };
    window.addEventListener('keydown', save);
    return () => window.removeEventListener('keydown', save);
  }, [dirty, saveAll]);

  if (!dirty) {
    return outcome?.ok ? (
      <div className="save-bar saved" role="status">
        Saved.
      </div>
    ) : null;
  }
  return (
    <section className="save-bar" aria-label="Unsaved changes">
      {dialog}
      <p>{outcome && !outcome.ok ? <strong role="alert">{outcome.message}</strong> : 'Unsaved changes'}</p>
      <div className="actions">
        <button
          type="button"
          className="button secondary"
          disabled={saving}
          onClick={async () => {
            if (await confirm('Discard every change not saved on this page?', { yes: 'Discard changes', no: 'Keep editing' })) discardAll();
          }}
        >
          Discard
        </button>
        <button type="button" className="button primary" disabled={saving} onClick={() => void saveAll()}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </section>
  );
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
