import { describe, expect, it } from 'vitest';
import { describeTarget, keyOf, parseEndpoint, parseTarget } from '../../../src/deploy/target.ts';

describe('a deploy target', () => {
  it.each([
    ['s3://snap', { bucket: 'snap', prefix: '' }, 'api/index.json'],
    ['s3://snap/', { bucket: 'snap', prefix: '' }, 'api/index.json'],
    [
      's3://snap/l10n/weblate/',
      { bucket: 'snap', prefix: 'l10n/weblate' },
      'l10n/weblate/api/index.json',
    ],
  ])('reads %s, and keys files under its prefix', (text, expected, key) => {
    const parsed = parseTarget(text, null);
    expect(parsed).toEqual({ ok: true, value: { ...expected, endpoint: null } });
    if (parsed.ok) expect(keyOf(parsed.value, 'api/index.json')).toBe(key);
  });

  it.each([
    [
      'https://snap.s3.amazonaws.com/',
      '--to expects s3://BUCKET or s3://BUCKET/PREFIX (got "https://snap.s3.amazonaws.com/")',
    ],
    [
      's3://',
      '--to expects a bucket name of letters, digits, ".", "-" and "_" after s3:// (got "")',
    ],
    ['s3://snap/b//c', '--to expects a prefix of path segments without "//", "." or ".."'],
    ['s3://snap/b/../c', '--to expects a prefix of path segments without "//", "." or ".."'],
  ])('refuses %s', (text, message) => {
    const parsed = parseTarget(text, null);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it('takes an http(s) endpoint without credentials, and names it with the target', () => {
    expect(parseEndpoint('http://127.0.0.1:9000/')).toEqual({
      ok: true,
      value: 'http://127.0.0.1:9000',
    });
    expect(parseEndpoint('https://key:secret@s3.example.org')).toMatchObject({ ok: false });
    expect(parseEndpoint('s3.example.org')).toMatchObject({ ok: false });
    const target = parseTarget('s3://snap/l10n', 'http://127.0.0.1:9000');
    expect(target.ok && describeTarget(target.value)).toBe(
      's3://snap/l10n at http://127.0.0.1:9000',
    );
  });
});
