/** The spec's error envelope (section 7.1), as /v2 and /portal/api answer it. */
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
