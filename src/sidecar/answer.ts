/**
 * What a handler of the sidecar answers, before the app turns it into a
 * Response: a status, a JSON body (already serialized, as the tree's files
 * are) and extra headers. The DRF messages of spec section 6.2 live here.
 */
import { relative } from 'node:path';
import { formatContentError, sortContentErrors } from '../errors.ts';
import type { Model } from '../model/types.ts';
import { serializeFile, type JsonValue } from '../output/serialize.ts';
import type { EditOutcome } from '../session/session.ts';
import { errorBody, NOT_FOUND } from '../api/answers.ts';

export interface Answer {
  status: number;
  /** Serialized JSON with a trailing newline; absent for 204. */
  body?: string;
  headers?: Record<string, string>;
}

export const MESSAGES = {
  notAuthenticated: 'Authentication credentials were not provided.',
  permissionDenied: 'You do not have permission to perform this action.',
  cannotDeleteTranslation: 'Can not delete translation',
  bodyTooLarge: 'Request body too large.',
  serverError: 'A server error occurred.',
} as const;

export function json(status: number, value: JsonValue, headers?: Record<string, string>): Answer {
  return { status, body: serializeFile(value), ...(headers ? { headers } : {}) };
}

export function detail(status: number, text: string, headers?: Record<string, string>): Answer {
  return { status, body: errorBody(text), ...(headers ? { headers } : {}) };
}

export const notFound = (): Answer => detail(404, NOT_FOUND);

export const noContent = (): Answer => ({ status: 204 });

/** A 400 with DRF's field errors (`{"name":["This field is required."]}`) or a bare list of messages. */
export function invalid(errors: JsonValue): Answer {
  return json(400, errors);
}

/**
 * The answer to a queued edit: a refusal as the plan worded it; content the
 * edit would make invalid as a 400 listing every error (files relative to the
 * content folder); otherwise what `applied` makes of the model after the edit.
 */
export function answerEdit(outcome: EditOutcome<Answer>, contentDir: string, applied: (model: Model) => Answer): Answer {
  if (outcome.status === 'refused') return outcome.result;
  if (outcome.status === 'applied') return applied(outcome.model);
  const messages = sortContentErrors(outcome.errors).map((error) =>
    formatContentError({ ...error, file: relative(contentDir, error.file) }),
  );
  return invalid({ non_field_errors: messages });
}
