// Errors as a merchant reads them. Both envelopes carry a sentence: the PIM's `error`, the connector's `message`.
// Validation messages name their field (`field 'variants[0].price' must be …`): fieldErrors() puts each beside its input.

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a successful answer, or an ApiError with the server's own words. Use with the typed client:
 * `const products = unwrap(await api.GET('/api/products', …))`.
 */
export function unwrap<T>(answer: Answer<T>): NonNullable<T> {
  if (answer.response.ok && answer.data !== undefined) return answer.data as NonNullable<T>;
  throw toApiError(answer.error, answer.response);
}

export function toApiError(body: unknown, response: Response): ApiError {
  const b = (body ?? {}) as { error?: unknown; message?: unknown; code?: unknown };
  const text = typeof b.error === 'string' ? b.error : typeof b.message === 'string' ? b.message : null;
  const code = typeof b.code === 'string' ? b.code : null;
  if (text) return new ApiError(text, response.status, code);
  if (response.status === 429) return new ApiError('Too many requests: wait a moment and try again.', 429);
  if (response.status >= 500)
    return new ApiError(`The server could not answer (HTTP ${response.status}). Try again; if it persists, check the server's log.`, response.status);
  return new ApiError(`The request failed (HTTP ${response.status}).`, response.status);
}

/** A message for any thrown value (network failures included), never swallowed. */
export function messageOf(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof TypeError) return 'The server cannot be reached: check your connection and that Pimbridge is running.';
  if (err instanceof Error) return err.message;
  return String(err);
}

/** `field 'a.b' …` → { 'a.b': message }; a message that names no field is left to the page's banner. */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  const match = /field '([^']+)'/.exec(err.message);
  return match ? { [match[1]]: err.message } : {};
}

/**
 * The server's `field 'sku': another variant has it` or `field 'code' must match …`, shown beside the field its label
 * already names: without the developer's field name, first letter up (`Another variant has it`, `Must match …`).
 */
export function besideField(message: string): string {
  const text = message.replace(/^field '[^']+'(?::\s*|\s+)/, '');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
