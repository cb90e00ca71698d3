// A promise per key that lives a while: concurrent callers share one load, a failed load is forgotten at once, and a
// value is loaded again after `ttlMs` (a shop's locations and publications change, rarely).
export class TtlCache<T> {
  private readonly entries = new Map<string, { value: Promise<T>; at: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.entries.get(key);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.value;
    const value = load();
    this.set(key, value);
    return value;
  }

  set(key: string, value: Promise<T>): void {
    const entry = { value, at: this.now() };
    this.entries.set(key, entry);
    value.catch(() => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
    });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
