/** API keys: where they come from, and how an Authorization header is judged. */
import { describe, expect, it } from 'vitest';
import {
  authenticate,
  createKeyring,
  parseTokensFile,
  parseTokensVariable,
} from '../../../src/sidecar/auth.ts';

describe('keys', () => {
  it('reads one key a line from a tokens file, skipping blank lines and # comments', () => {
    expect(
      parseTokensFile(
        '# deploy keys\nwlu_one-0123456789\n\n  wlp_two-0123456789  \r\n# old: wlu_zero\n',
        'keys.txt',
      ),
    ).toEqual({
      ok: true,
      keys: ['wlu_one-0123456789', 'wlp_two-0123456789'],
    });
  });

  it('refuses a line with a space, naming the file and line', () => {
    expect(parseTokensFile('wlu_one-0123456789\nnot a key\n', 'keys.txt')).toEqual({
      ok: false,
      message: 'keys.txt:2: expected a key of printable ASCII characters without spaces',
    });
  });

  it('reads keys from the environment, separated by commas or newlines', () => {
    const [a, b, c] = ['a'.repeat(16), 'b'.repeat(16), 'c'.repeat(16)];
    expect(parseTokensVariable(` ${a}, ${b}\n${c},,`)).toEqual({ ok: true, keys: [a, b, c] });
    expect(parseTokensVariable(`${a},b é`)).toMatchObject({ ok: false });
  });
});

describe('authenticate', () => {
  const keyring = createKeyring(['wlu_one', 'wlp_two']);

  it.each([
    [null, { kind: 'anonymous' }],
    ['Basic d2x1X29uZQ==', { kind: 'anonymous' }],
    ['Token wlu_one', { kind: 'authenticated' }],
    ['bearer   wlp_two ', { kind: 'authenticated' }],
    ['TOKEN wlu_one', { kind: 'authenticated' }],
    ['Token wlu_on', { kind: 'invalid', detail: 'Invalid token.' }],
    ['Token wlu_onex', { kind: 'invalid', detail: 'Invalid token.' }],
    ['Token', { kind: 'invalid', detail: 'Invalid token header. No credentials provided.' }],
    [
      'Token wlu_one wlp_two',
      { kind: 'invalid', detail: 'Invalid token header. Token string should not contain spaces.' },
    ],
  ])('judges %j', (header, credentials) => {
    expect(authenticate(header, keyring)).toEqual(credentials);
  });

  it('knows no key in an empty keyring', () => {
    expect(authenticate('Token anything', createKeyring([]))).toEqual({
      kind: 'invalid',
      detail: 'Invalid token.',
    });
  });
});
