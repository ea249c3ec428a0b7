/** The spec's error envelope (section 7.1), as both /v2 and /dashboard/api answer it. */
export interface ErrorEnvelope {
  code: string;
  message: string;
  context?: Record<string, unknown>;
}

export class RequestFailed extends Error {
  constructor(
    readonly status: number,
    readonly envelope: ErrorEnvelope,
  ) {
    super(envelope.message);
  }

  get code(): string {
    return this.envelope.code;
  }
}

export function envelopeOf(status: number, body: unknown): ErrorEnvelope {
  if (body && typeof body === 'object' && typeof (body as ErrorEnvelope).code === 'string') return body as ErrorEnvelope;
  return { code: status === 401 ? 'UNAUTHENTICATED' : 'UNKNOWN', message: `The request failed with status ${status}.` };
}

/** A readable line for an error, with the envelope's field messages when it has them. */
export function describeError(error: unknown): string {
  if (!(error instanceof RequestFailed)) return error instanceof Error ? error.message : String(error);
  const fields = Object.entries(error.envelope.context ?? {})
    .map(([field, detail]) => {
      const message = detail && typeof detail === 'object' ? (detail as { message?: unknown }).message : undefined;
      return typeof message === 'string' ? `${field}: ${message}` : undefined;
    })
    .filter((line): line is string => line !== undefined);
  return [`${error.envelope.message} (${error.code})`, ...fields].join(' — ');
}
