import { ApiError } from '../../domain/errors';

/**
 * A request body read as text (the server parses every content type itself), as JSON: empty is
 * `{}`, anything else malformed a VALIDATION refusal saying where it broke and nothing more.
 */
export function parseJsonBody(raw: unknown): unknown {
  const text = typeof raw === 'string' ? raw : '';
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    // The parser's own message quotes the body, which may hold a card number: keep only where it broke.
    const position = /position (\d+)/.exec((error as Error).message)?.[1];
    throw ApiError.validation(
      { body: { type: 'FORMAT', message: position ? `Malformed JSON at position ${position}.` : 'Malformed JSON.' } },
      'The request body is not valid JSON.',
    );
  }
}
