/**
 * Issue 27: the connection tests waited out the sidecar's 20 s request limit. `sidecar
 * --request-timeout SECONDS` now sets it (its headers' limit half of it), which
 * issue-22-sidecar-connections.test.ts gives to close slow clients within a few seconds; a value
 * too small for the headers' half is a usage error, before anything is written.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { workspace } from '../sidecar/support.ts';
import { runScript } from '../support/run-script.ts';

describe('sidecar --request-timeout', () => {
  it('refuses a value under 2 s with a one-line usage error, before it starts', async () => {
    const space = workspace('minimal');
    const failed = await runScript('sidecar', [
      ...['--content', space.content, '--out', space.out, '--port', '0', '--read-only'],
      ...['--request-timeout', '1'],
    ]);
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain(
      '--request-timeout expects an integer from 2 to 3600 (got "1")',
    );
    expect(failed.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(space.out)).toBe(false);
  });
});
