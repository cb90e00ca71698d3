// SIGINT/SIGTERM → a graceful close, then exit; a close that hangs is cut short after 10 s. Shared by `serve` and
// `sandbox`.
export function closeOnSignals(close: () => Promise<void>, onSignal?: (signal: NodeJS.Signals) => void): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      onSignal?.(signal);
      const force = setTimeout(() => process.exit(1), 10_000).unref();
      close().then(
        () => {
          clearTimeout(force);
          process.exit(0);
        },
        () => process.exit(1),
      );
    });
  }
}
