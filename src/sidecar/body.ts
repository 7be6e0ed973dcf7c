/**
 * Request bodies of the writes, read as DRF's default parsers read them:
 * JSON or a form (flat fields only), at most 1 MiB. Failures are answers:
 * 413 for a body too large, 415 for another media type, 400 for JSON that
 * does not parse or is not an object.
 */
import { ERRORS } from '../api/answers.ts';
import { detail, errorAnswer, invalid, type Answer } from './answer.ts';

/** The largest request body accepted, in bytes. */
export const MAX_BODY = 1024 * 1024;

export type BodyResult = { ok: true; data: Fields } | { ok: false; answer: Answer };

/** The fields of a body; read with `Object.hasOwn`, so keys such as `__proto__` are plain keys. */
export type Fields = Record<string, unknown>;

/** Reads and parses a request's body. An empty body is an empty set of fields. */
export async function readFields(request: Request): Promise<BodyResult> {
  const bytes = await readLimited(request);
  if (bytes === 'too large') return { ok: false, answer: errorAnswer(ERRORS.bodyTooLarge) };
  if (bytes === 'cut')
    return {
      ok: false,
      answer: detail(400, 'Bad request: the body ended before it was complete.'),
    };
  if (bytes.length === 0) return { ok: true, data: Object.create(null) as Fields };
  const type = request.headers.get('content-type') ?? '';
  const media = type.split(';')[0]!.trim().toLowerCase();
  if (media === 'application/json') return parseJson(bytes);
  if (media === 'application/x-www-form-urlencoded') return parseForm(bytes);
  return { ok: false, answer: detail(415, `Unsupported media type "${type}" in request.`) };
}

/** Python's name for the type of a JSON value, as DRF's messages show it. */
function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    default:
      return 'dict';
  }
}

/** DRF's message for a body or a nested object that is not a map. */
export function notADictionary(value: unknown): string {
  return `Invalid data. Expected a dictionary, but got ${pythonType(value)}.`;
}

// --- internal ---

/** The body's bytes; `too large` when it passes MAX_BODY (reading stops there); `cut` when the client went away before its end. */
async function readLimited(request: Request): Promise<Uint8Array | 'too large' | 'cut'> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY) return 'too large';
  if (!request.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader: ReadableStreamDefaultReader<Uint8Array> = request.body.getReader();
  for (;;) {
    let read: Awaited<ReturnType<typeof reader.read>>;
    try {
      read = await reader.read();
    } catch {
      return 'cut';
    }
    if (read.done) break;
    size += read.value.length;
    if (size > MAX_BODY) {
      await reader.cancel().catch(() => undefined);
      return 'too large';
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

function parseJson(bytes: Uint8Array): BodyResult {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    const reason =
      error instanceof TypeError ? 'the body is not valid UTF-8' : (error as Error).message;
    return { ok: false, answer: detail(400, `JSON parse error - ${reason}`) };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, answer: invalid({ non_field_errors: [notADictionary(value)] }) };
  }
  return { ok: true, data: value as Fields };
}

function parseForm(bytes: Uint8Array): BodyResult {
  const data = Object.create(null) as Fields;
  // As Django's QueryDict, a field given twice takes its last value.
  for (const [key, value] of new URLSearchParams(Buffer.from(bytes).toString('utf8')))
    data[key] = value;
  return { ok: true, data };
}
