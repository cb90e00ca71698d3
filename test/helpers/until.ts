// The one way a test waits for something: a check polled against a deadline (never a sleep standing in for an
// assertion, nor a sleep to let a clock tick over).

/**
 * Thrown by a check to stop waiting at once (the process waited on has exited, the state can no longer come): `until`
 * fails with it, untried, or with its `cause` when it has one (a failed assertion, as it was).
 */
export class StopWaiting extends Error {
  override name = 'StopWaiting';
}

/** What `until` throws when the deadline passes first. */
export class TimedOut extends Error {
  override name = 'TimedOut';
}

/** Runs `assertion` inside a check: when it fails, the wait ends at once with that failure instead of trying again. */
export function mustHold(assertion: () => void): void {
  try {
    assertion();
  } catch (err) {
    throw new StopWaiting('an assertion failed while waiting', { cause: err });
  }
}

/**
 * Polls `check` every `everyMs` until it returns a truthy value, which is returned. A check that throws is tried
 * again (its error is kept for the report), unless it throws StopWaiting. After `timeoutMs`, throws TimedOut naming
 * `what` and the last error.
 */
export async function until<T>(what: string, check: () => Promise<T> | T, timeoutMs = 20_000, everyMs = 25): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<T>;
    } catch (err) {
      if (err instanceof StopWaiting) throw err.cause ?? err;
      last = err;
    }
    if (Date.now() > deadline) throw new TimedOut(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
