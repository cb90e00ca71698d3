// At most `limit` tasks at once, and at most `maxWaiting` more queued in order; beyond that a task is refused at once
// instead of piling up (each waiting caller holds a request open).
export class GateFullError extends Error {
  override name = 'GateFullError';
}

export class ConcurrencyGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly limit: number,
    readonly maxWaiting: number,
  ) {}

  /** Runs `task` when a slot is free; throws GateFullError when every slot and every waiting place is taken. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) {
      if (this.waiting.length >= this.maxWaiting) throw new GateFullError(`${this.limit} running and ${this.maxWaiting} waiting`);
      // The slot is handed over by the task that ends (running stays counted), so no newcomer can overtake the queue.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
