import type { LogLevel, LogMetadata, Logger } from '@temporalio/common';
import type { Logger as PinoLogger } from '../services/logging/logger';

const PINO_METHOD = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;

/**
 * The Temporal Runtime's logger written through the platform's logger, so the SDK's lines, the
 * activity context logger's (`log` of @temporalio/activity: workflowId, workflowType,
 * activityType, attempt on every line) and core's forwarded ones come out in the same JSON or
 * readable format as the API's.
 */
export class RuntimeLogger implements Logger {
  constructor(private readonly logger: PinoLogger) {}

  log(level: LogLevel, message: string, meta: LogMetadata = {}): void {
    // The task token completes the activity from outside: a capability, not something to keep in logs.
    const { error, taskToken: _taskToken, ...fields } = meta;
    // pino serializes an Error (message, stack) under `err` only.
    const entry = error instanceof Error ? { ...fields, err: error } : error === undefined ? fields : { ...fields, error };
    this.logger[PINO_METHOD[level]](entry, message);
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}
