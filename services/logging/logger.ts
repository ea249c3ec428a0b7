import pino, { type DestinationStream, type Logger } from 'pino';
import { redactSecrets } from '../../domain/log-redaction';
import { prettyLine } from './pretty-line';

export type { Logger } from 'pino';

export type LogFormat = 'json' | 'pretty';

export interface LoggerOptions {
  /** Which process writes the line: `api` or `worker` (the `name` field). */
  name: string;
  level?: string;
  format?: LogFormat;
  /** Where the lines go; standard output by default. Tests pass a collector. */
  destination?: DestinationStream;
}

/** LOG_FORMAT (`json` or `pretty`); unset, JSON lines when NODE_ENV=production and one readable line per entry otherwise. */
export function logFormatFromEnv(env: NodeJS.ProcessEnv = process.env): LogFormat {
  const format = env.LOG_FORMAT ?? (env.NODE_ENV === 'production' ? 'json' : 'pretty');
  if (format === 'json' || format === 'pretty') return format;
  throw new Error(`LOG_FORMAT must be json or pretty, not ${format} (docs/configuration.md).`);
}

function prettyOver(destination: DestinationStream): DestinationStream {
  return { write: (line: string) => destination.write(prettyLine(line)) };
}

/**
 * The platform's one logger (pino, the logger Fastify uses): JSON lines or readable lines, every
 * line passed through the secret redaction of domain/log-redaction.ts after serialization, so
 * nothing logged anywhere can print a key, a webhook secret or a card number.
 */
export function createLogger(options: LoggerOptions): Logger {
  const destination = options.destination ?? pino.destination({ fd: 1, sync: true });
  const format = options.format ?? logFormatFromEnv();
  return pino(
    {
      name: options.name,
      level: options.level ?? process.env.LOG_LEVEL ?? 'info',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      // Structured fields are removed by name before serialization; the line-level redaction below catches the rest.
      redact: { paths: ['authorization', '*.authorization', '*.headers.authorization', 'card_number', '*.card_number', 'secret', '*.secret'], censor: '[REDACTED]' },
      serializers: {
        // Signed file links carry their signature in the query string: log the path only.
        req: (request: { method: string; url: string; ip?: string }) => ({ method: request.method, url: request.url.split('?')[0], remote_address: request.ip }),
        res: (reply: { statusCode: number }) => ({ status: reply.statusCode }),
      },
      hooks: { streamWrite: redactSecrets },
    },
    format === 'pretty' ? prettyOver(destination) : destination,
  );
}
