/**
 * How Weblate answers besides the resources themselves: the response headers
 * (Content-Type, Vary, Allow) and the JSON
 * error bodies, as DRF words them, in each flavour's form. Host
 * configuration, the preview and the sidecar all answer with these.
 */
import type { WeblateVersion } from '../model/defaults.ts';
import { hasTrait, type Release } from '../model/releases.ts';
import { serializeFile, type JsonValue } from '../output/serialize.ts';

export const JSON_TYPE = 'application/json';

/** DRF varies on Accept (two renderers); the snapshot answers JSON to every Accept. */
export const VARY = 'Accept';

export const NOT_FOUND = 'Not found.';
export const INVALID_PAGE = 'Invalid page.';

/** A DRF error body as the files are written: compact JSON and a newline. */
function errorBody(detail: string): string {
  return serializeFile({ detail });
}

/** The body of a 405, as DRF words it. */
export function methodNotAllowed(method: string): string {
  return `Method "${method}" not allowed.`;
}

/**
 * An error answer, as DRF raises it: the status, the exception's code and its
 * message. How the body reads depends on the flavour (errorText).
 */
export interface ApiError {
  status: number;
  code: string;
  detail: string;
}

/** The errors the snapshot, its hosts and the sidecar answer with, each with its status and DRF's code and message. */
export const ERRORS = {
  notFound: { status: 404, code: 'not_found', detail: NOT_FOUND },
  invalidPage: { status: 404, code: 'not_found', detail: INVALID_PAGE },
  notAuthenticated: {
    status: 401,
    code: 'not_authenticated',
    detail: 'Authentication credentials were not provided.',
  },
  permissionDenied: {
    status: 403,
    code: 'permission_denied',
    detail: 'You do not have permission to perform this action.',
  },
  cannotDeleteTranslation: {
    status: 403,
    code: 'permission_denied',
    detail: 'Can not delete translation',
  },
  bodyTooLarge: { status: 413, code: 'error', detail: 'Request body too large.' },
  uriTooLong: { status: 414, code: 'error', detail: 'Request-URI too long.' },
} as const satisfies Record<string, ApiError>;

/**
 * DRF's code of the exception each status is raised with (ParseError,
 * NotAuthenticated, PermissionDenied, NotFound, MethodNotAllowed,
 * UnsupportedMediaType); `error` for any other status.
 */
export function errorCode(status: number): string {
  return STATUS_CODES[status] ?? 'error';
}

/** The error of a read by its status and message (the code follows from the status). */
export function readError(status: 401 | 403 | 404 | 405, detail: string): ApiError {
  return { status, code: errorCode(status), detail };
}

/** A failure inside a request (a bug): DRF's message, or drf-standardized-errors' for an unhandled exception. */
export function serverError(version: Release): ApiError {
  return {
    status: 500,
    code: 'error',
    detail: hasTrait(version, 'standardizedErrors')
      ? 'Server Error (500)'
      : 'A server error occurred.',
  };
}

/** Weblate asks an anonymous client for credentials this way (DRF's TokenAuthentication keyword). */
export const AUTHENTICATE = { 'WWW-Authenticate': 'Token' } as const;

/** What Weblate answers an anonymous read it refuses: 401 (log in first) or 403. */
export function refusalError(status: 401 | 403): ApiError {
  return status === 401 ? ERRORS.notAuthenticated : ERRORS.permissionDenied;
}

/**
 * An error's body as its file or response holds it: DRF's `{"detail": …}`
 * (4.x to 5.9), or since Weblate 5.10 drf-standardized-errors' `{"type": …,
 * "errors": [{"code", "detail", "attr"}]}` (type `client_error` for a 4xx,
 * `server_error` above).
 */
export function errorText(version: Release, error: ApiError): string {
  if (!hasTrait(version, 'standardizedErrors')) return errorBody(error.detail);
  return serializeFile({
    type: error.status >= 500 ? 'server_error' : 'client_error',
    errors: [{ code: error.code, detail: error.detail, attr: null }],
  });
}

/**
 * A 400 of field errors, as DRF words them: `{"name":["This field is
 * required."]}` before 5.10; from 5.10 each message an entry of a
 * `validation_error`, its field path joined with `.` (`plural.formula`), null
 * for a bare list, and the code DRF gives that message.
 */
export function validationErrorText(version: Release, errors: JsonValue): string {
  if (!hasTrait(version, 'standardizedErrors')) return serializeFile(errors);
  const entries: JsonValue[] = [];
  flattenErrors(errors, null, entries);
  return serializeFile({ type: 'validation_error', errors: entries });
}

/** Whose error bodies a tree speaks, from its API root's keys (4.x's and 2026.8's differ). */
export function flavourOfRoot(keys: readonly string[]): WeblateVersion {
  return keys.includes('categories') ? '2026.8' : '4';
}

// --- internal ---

const STATUS_CODES: Readonly<Record<number, string>> = {
  400: 'parse_error',
  401: 'not_authenticated',
  403: 'permission_denied',
  404: 'not_found',
  405: 'method_not_allowed',
  415: 'unsupported_media_type',
};

function flattenErrors(errors: JsonValue, attr: string | null, into: JsonValue[]): void {
  if (typeof errors === 'string') {
    into.push({ code: codeOfMessage(errors), detail: errors, attr });
  } else if (Array.isArray(errors)) {
    for (const item of errors as readonly JsonValue[]) flattenErrors(item, attr, into);
  } else if (errors !== null && typeof errors === 'object') {
    for (const [key, value] of Object.entries(errors as Record<string, JsonValue>)) {
      flattenErrors(value, attr === null ? key : `${attr}.${key}`, into);
    }
  }
}

/** DRF's codes of the messages its fields and serializers raise; `invalid` for any other (ValidationError's default). */
const MESSAGE_CODES: readonly [RegExp, string][] = [
  [/^This field is required\.$/, 'required'],
  [/^This field may not be null\.$/, 'null'],
  [/^This field may not be blank\.$/, 'blank'],
  [/^Ensure this field has no more than \d+ characters\.$/, 'max_length'],
  [/^Ensure this value is less than or equal to /, 'max_value'],
  [/^Ensure this value is greater than or equal to /, 'min_value'],
  [/ is not a valid choice\.$/, 'invalid_choice'],
  [/^Null characters are not allowed\.$/, 'null_characters_not_allowed'],
  [/^Surrogate characters are not allowed/, 'surrogate_characters_not_allowed'],
];

function codeOfMessage(message: string): string {
  return MESSAGE_CODES.find(([pattern]) => pattern.test(message))?.[1] ?? 'invalid';
}
