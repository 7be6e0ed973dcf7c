/**
 * Errors. A user's mistake is a value (ContentError, UsageError), collected and
 * printed without a stack; a bug is a thrown Error whose message starts with
 * "Internal error:".
 */

/** One problem in the content, pinned to a place in a file. */
export interface ContentError {
  /** Path of the file, as given to the loader (relative to the working directory when possible). */
  file: string;
  line: number;
  column: number;
  /** Dotted path of the field inside the file, e.g. `translations.cs.fuzzy`; `` for the file itself. */
  path: string;
  /** What was expected and what was found: `expected a non-negative integer (got -1)`. */
  message: string;
}

/** A bad command line: unknown flag, missing value. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/**
 * A failure a later run resumes: rate limited, the network or a store down.
 * Printed without a stack; the command exits 75 (EX_TEMPFAIL) so a scheduler
 * can tell it from broken content.
 */
export class TemporaryError extends Error {
  override name = 'TemporaryError';
}

/** Throws an internal error: an invariant the code relies on did not hold. */
export function internalError(message: string): never {
  throw new Error(`Internal error: ${message}`);
}

export function formatContentError(error: ContentError): string {
  const place = `${error.file}:${error.line}:${error.column}`;
  const line = error.path
    ? `${place}  ${error.path}  ${error.message}`
    : `${place}  ${error.message}`;
  return escapeControls(line);
}

/** Sorts by file, then line, then column, then field path: the order they are printed in. */
export function sortContentErrors(errors: readonly ContentError[]): ContentError[] {
  return [...errors].sort(
    (a, b) =>
      compareStrings(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      compareStrings(a.path, b.path),
  );
}

/** Warnings, one a line after `warning: `, and what they mean. */
export function formatContentWarnings(warnings: readonly ContentError[]): string {
  const lines = sortContentErrors(warnings).map(
    (warning) => `warning: ${formatContentError(warning)}`,
  );
  const count = warnings.length === 1 ? '1 warning' : `${warnings.length} warnings`;
  return `${lines.join('\n')}\n${count}: the build goes on (--strict makes warnings errors).`;
}

export function formatContentErrors(errors: readonly ContentError[]): string {
  const lines = sortContentErrors(errors).map(formatContentError);
  const count = errors.length === 1 ? '1 error' : `${errors.length} errors`;
  return `${lines.join('\n')}\n${count} in the content; nothing was written.`;
}

/** Code-point order: the same on every machine, whatever its locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Text for a terminal: control characters written as escapes (`\n`, `\x1b`), so no name can move the cursor or fake a line. */
export function escapeControls(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- control characters are what this escapes
    /[\u0000-\u001f\u007f-\u009f]/g,
    (c) => CONTROL_ESCAPES[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}

// --- internal ---

const CONTROL_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
