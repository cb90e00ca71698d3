// The connector's envelope: {status: "success"|"partial", message, data} on success, {status: "error", message, code}
// on error. `code` is left out on success (the spec allows absent or null).
export interface SuccessEnvelope<T> {
  status: 'success' | 'partial';
  message: string;
  data: T;
}

export const success = <T>(message: string, data: T): SuccessEnvelope<T> => ({ status: 'success', message, data });

export interface ErrorEnvelope {
  status: 'error';
  message: string;
  code: string;
}
