/**
 * Issue 24: `pull` and `mirror` both read a live Weblate; their --token and
 * --project are one declaration, so a change to either reaches both, and
 * both take the key from WEBLATE_TOKEN when --token is not given.
 */
import { describe, expect, it } from 'vitest';
import { command as mirror } from '../../scripts/mirror.ts';
import { command as pull } from '../../scripts/pull.ts';
import { upstreamToken } from '../../src/cli/upstream-options.ts';

describe('the upstream flags of pull and mirror', () => {
  it('are the same declarations in both commands', () => {
    expect(mirror.options.token).toBe(pull.options.token);
    expect(mirror.options.project).toBe(pull.options.project);
  });

  it('take the key from --token, else WEBLATE_TOKEN, else none', () => {
    expect(upstreamToken('wlu_flag', { WEBLATE_TOKEN: 'wlu_env' })).toBe('wlu_flag');
    expect(upstreamToken(undefined, { WEBLATE_TOKEN: 'wlu_env' })).toBe('wlu_env');
    expect(upstreamToken(undefined, { WEBLATE_TOKEN: '' })).toBeUndefined();
  });
});
