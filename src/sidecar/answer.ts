/**
 * What a handler of the sidecar answers, before the app turns it into a
 * Response: a status, a JSON body (already serialized, as the tree's files
 * are) or an error (written in the tree's flavour when the answer is sent),
 * and extra headers. DRF's error messages and codes live in api/answers.ts.
 */
import { relative } from 'node:path';
import { formatContentError, sortContentErrors } from '../errors.ts';
import type { Release } from '../model/releases.ts';
import type { Model } from '../model/types.ts';
import { serializeFile, type JsonValue } from '../output/serialize.ts';
import type { EditOutcome } from '../session/session.ts';
import {
  errorCode,
  errorText,
  NOT_FOUND,
  validationErrorText,
  type ApiError,
} from '../api/answers.ts';

export interface Answer {
  status: number;
  /** Serialized JSON with a trailing newline; absent for 204 and for errors. */
  body?: string;
  /** An error: one message with DRF's code, or DRF's field errors (`validation`). */
  error?: { code: string; detail: string } | { validation: JsonValue };
  headers?: Record<string, string>;
}

export function json(status: number, value: JsonValue, headers?: Record<string, string>): Answer {
  return { status, body: serializeFile(value), ...(headers ? { headers } : {}) };
}

/** An error of one message; its code follows from the status unless given (DRF's exception codes). */
export function detail(
  status: number,
  text: string,
  headers?: Record<string, string>,
  code = errorCode(status),
): Answer {
  return { status, error: { code, detail: text }, ...(headers ? { headers } : {}) };
}

/** One of the errors of api/answers.ts#ERRORS as an answer. */
export function errorAnswer(error: ApiError, headers?: Record<string, string>): Answer {
  return detail(error.status, error.detail, headers, error.code);
}

/** The body of an answer in a flavour: its JSON, or its error written as that flavour writes errors. */
export function bodyOf(answer: Answer, version: Release): string | undefined {
  const error = answer.error;
  if (!error) return answer.body;
  if ('validation' in error) return validationErrorText(version, error.validation);
  return errorText(version, { status: answer.status, ...error });
}

export const notFound = (): Answer => detail(404, NOT_FOUND);

export const noContent = (): Answer => ({ status: 204 });

/** A 400 with DRF's field errors (`{"name":["This field is required."]}`) or a bare list of messages. */
export function invalid(errors: JsonValue): Answer {
  return { status: 400, error: { validation: errors } };
}

// --- internal ---

/**
 * The answer to a queued edit: a refusal as the plan worded it; content the
 * edit would make invalid as a 400 listing every error (files relative to the
 * content folder); otherwise what `applied` makes of the model after the edit.
 */
export function answerEdit(
  outcome: EditOutcome<Answer>,
  contentDir: string,
  applied: (model: Model) => Answer,
): Answer {
  if (outcome.status === 'refused') return outcome.result;
  if (outcome.status === 'applied') return applied(outcome.model);
  const messages = sortContentErrors(outcome.errors).map((error) =>
    formatContentError({ ...error, file: relative(contentDir, error.file) }),
  );
  return invalid({ non_field_errors: messages });
}
