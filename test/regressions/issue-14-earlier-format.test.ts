/**
 * A tree written by an earlier version of the tool, with the settings it keeps: its host files had no
 * CORS and it had no status site, yet the output format was not bumped, so a build updated it in place
 * and left those files as they were; and a setting newer than the tree's record (edit_url) was named as
 * changed ("edit URL unset → null"). Now the format is part of what a tree is trusted for, and a build
 * says why it rewrites the tree whole.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Session } from '../../src/session/session.ts';
import { describeSettingsChange, EARLIER_FORMAT } from '../../src/tree/settings.ts';
import { testSettings } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { workspace } from '../sidecar/support.ts';

describe('a tree built by an earlier version of the tool', () => {
  it('is rewritten whole, and the build says so first', async () => {
    const space = await builtByAnEarlierVersion();
    const again = await runCli('build', ['--content', space.content, '--out', space.out]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain(
      'was built with other settings (written by an earlier version of weblate-snapshot, whose files differ): writing a whole new tree.',
    );
    expect(again.stdout).toMatch(/^Built \d+ files/);
    const third = await runCli('build', ['--content', space.content, '--out', space.out]);
    expect(third.stderr).not.toContain('other settings');
    expect(third.stdout).toMatch(/^Updated .* in place: 0 files rewritten/);
  });

  it('is rewritten whole by the sidecar and --watch too, and they say so first (their session said nothing)', async () => {
    const space = await builtByAnEarlierVersion();
    const said: string[] = [];
    const opened = await Session.open({
      contentDir: space.content,
      outDir: space.out,
      onSettingsChange: (change) => said.push(change),
    });
    if (!opened.ok) throw new Error('the session does not open');
    await opened.session.close();
    expect(said).toEqual([EARLIER_FORMAT]);
    const again: string[] = [];
    const reopened = await Session.open({
      contentDir: space.content,
      outDir: space.out,
      onSettingsChange: (change) => again.push(change),
    });
    if (!reopened.ok) throw new Error('the session does not open');
    await reopened.session.close();
    expect(again).toEqual([]);
  });

  it('does not take a setting its record lacks for a change', () => {
    const settings = testSettings({ baseUrl: 'https://l10n.example.org' });
    const older: Partial<typeof settings> = { ...settings };
    delete older.editUrl;
    expect(
      describeSettingsChange({ overrides: {}, site: older as typeof settings }, { settings }),
    ).toBeNull();
    expect(
      describeSettingsChange(
        { overrides: {}, site: settings },
        { settings: { ...settings, editUrl: 'https://hosted.example.org' } },
      ),
    ).toBe('edit URL unset → https://hosted.example.org');
  });
});

/** A tree built of the minimal fixture whose record says it was written by another output format. */
async function builtByAnEarlierVersion(): Promise<ReturnType<typeof workspace>> {
  const space = workspace('minimal');
  expect((await runCli('build', ['--content', space.content, '--out', space.out])).code).toBe(0);
  // The record of the tree names its folder and the fingerprint of the settings and output format it was written with.
  const record = `${space.out}.state/tree`;
  const [tree = '', ...rest] = readFileSync(record, 'utf8').split('\n');
  writeFileSync(record, [tree.replace(/:[^:]+$/, ':earlier'), ...rest].join('\n'));
  return space;
}
