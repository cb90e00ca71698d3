// The CLI's errors: how a command fails, and so its exit code (cli/main.ts).

/** A mistake in how the command was called: exit code 2. */
export class CliUsageError extends Error {}

/** A failure worth one readable line on stderr (no stack): exit code 1. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly transient = false,
  ) {
    super(message);
  }
}
