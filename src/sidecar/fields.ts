/**
 * Field checks worded as Django REST framework words them (CharField,
 * IntegerField, ChoiceField), so a client gets the 400 bodies a Weblate 4.x
 * server sends: `{"name":["This field may not be blank."]}`.
 */
import type { JsonValue } from '../output/serialize.ts';
import type { Fields } from './body.ts';

export type Checked<T> = { ok: true; value: T } | { ok: false; errors: JsonValue };

export const REQUIRED = 'This field is required.';

/** Collects the errors of several fields into one DRF error object, keyed by field. */
export class FieldErrors {
  private readonly errors: Record<string, JsonValue> = {};

  /** The value of a check, or undefined after recording its errors under `field`. */
  take<T>(field: string, checked: Checked<T> | undefined): T | undefined {
    if (!checked) return undefined;
    if (checked.ok) return checked.value;
    this.errors[field] = checked.errors;
    return undefined;
  }

  add(field: string, message: string): void {
    this.errors[field] = [message];
  }

  get any(): boolean {
    return Object.keys(this.errors).length > 0;
  }

  get body(): JsonValue {
    return this.errors;
  }
}

/** The value of a field of a body, or undefined when it is absent. */
export function fieldOf(data: Fields, name: string): unknown {
  return Object.hasOwn(data, name) ? data[name] : undefined;
}

/** A CharField: text (numbers are taken as their text), whitespace trimmed, not blank unless allowed. */
export function checkText(
  value: unknown,
  options: { maxLength: number; allowBlank?: boolean },
): Checked<string> {
  if (value === null) return fail('This field may not be null.');
  if (typeof value !== 'string' && (typeof value !== 'number' || !Number.isFinite(value)))
    return fail('Not a valid string.');
  const text = String(value).trim();
  if (text === '' && !options.allowBlank) return fail('This field may not be blank.');
  if (text.includes('\0')) return fail('Null characters are not allowed.');
  const surrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.exec(
    text,
  );
  if (surrogate)
    return fail(
      `Surrogate characters are not allowed: U+${surrogate[0].charCodeAt(0).toString(16).toUpperCase()}.`,
    );
  if (text.length > options.maxLength)
    return fail(`Ensure this field has no more than ${options.maxLength} characters.`);
  return { ok: true, value: text };
}

/** An IntegerField: an integer, or its text (`"12"`, `"12.0"`), within bounds. */
export function checkInteger(
  value: unknown,
  options: { min: number; max: number },
): Checked<number> {
  if (value === null) return fail('This field may not be null.');
  let number: number | null = null;
  if (typeof value === 'number' && Number.isInteger(value)) number = value;
  if (typeof value === 'string' && value.length <= 1000) {
    const text = value.trim().replace(/\.0*$/, '');
    if (/^[+-]?\d+$/.test(text)) number = Number(text);
  }
  if (number === null) return fail('A valid integer is required.');
  if (number > options.max)
    return fail(`Ensure this value is less than or equal to ${options.max}.`);
  if (number < options.min)
    return fail(`Ensure this value is greater than or equal to ${options.min}.`);
  return { ok: true, value: number };
}

/** A ChoiceField: one of the choices, compared as text as DRF compares them. */
export function checkChoice<T extends string | number>(
  value: unknown,
  choices: readonly T[],
): Checked<T> {
  if (value === null) return fail('This field may not be null.');
  const text =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : null;
  const found = text === null ? undefined : choices.find((choice) => String(choice) === text);
  if (found === undefined) return fail(`"${text ?? JSON.stringify(value)}" is not a valid choice.`);
  return { ok: true, value: found };
}

export function fail(message: string): { ok: false; errors: JsonValue } {
  return { ok: false, errors: [message] };
}
