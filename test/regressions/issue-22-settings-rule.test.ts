/**
 * Issue 22, item 1: a tree kept its settings silently, and site.yaml edits stopped counting. After
 * a build with --base-url, a plain build kept the flag, an edit of base_url in site.yaml changed
 * nothing, and no command said so. Now a flag holds for the build that gives it; site.yaml is the
 * lasting source; the sidecar and --watch, which keep a tree's flags, say which, from where and how
 * to change them; every build and sidecar says the settings in effect when one differs from site.yaml.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptArgs } from '../helpers.ts';
import { runCli } from '../support/run-cli.ts';
import { startSidecar, workspace, type Workspace } from '../sidecar/support.ts';

const PREVIEW = 'http://127.0.0.1:8080';

const build = (space: Workspace, ...args: string[]) =>
  runCli('build', ['--content', space.content, '--out', space.out, ...args]);

/** Where the tree's API root links its projects. */
const projectsLink = (space: Workspace) =>
  (JSON.parse(readFileSync(join(space.out, 'api/index.json'), 'utf8')) as { projects: string })
    .projects;

describe('settings: a flag holds for its run, site.yaml lasts', () => {
  it('a plain build after a --base-url build takes site.yaml again, and an edit of site.yaml counts', async () => {
    const space = workspace('minimal');
    expect((await build(space, '--base-url', PREVIEW)).code).toBe(0);
    expect(projectsLink(space)).toBe(`${PREVIEW}/api/projects/`);

    const plain = await build(space);
    expect(plain.code).toBe(0);
    expect(projectsLink(space)).toBe('http://snapshot.test/api/projects/');
    expect(plain.stderr).toContain(`base URL ${PREVIEW} → http://snapshot.test`);

    const site = join(space.content, 'site.yaml');
    writeFileSync(site, 'base_url: https://l10n.example.net\n');
    const edited = await build(space);
    expect(edited.code).toBe(0);
    expect(edited.stdout).toMatch(/^Built \d+ files/);
    expect(projectsLink(space)).toBe('https://l10n.example.net/api/projects/');
  });

  it('a build says the settings in effect with their sources when one differs from site.yaml, and nothing when none does', async () => {
    const space = workspace('minimal');
    const flagged = await build(space, '--base-url', PREVIEW);
    expect(flagged.stderr).toContain(
      `Settings in effect: base URL ${PREVIEW} (--base-url; site.yaml: http://snapshot.test), ` +
        `web URL ${PREVIEW} (the base URL, as site.yaml has no web_url; site.yaml: http://snapshot.test), ` +
        'Weblate version 4 (site.yaml), pages on (site.yaml).\n',
    );
    const plain = await build(space);
    expect(plain.stderr).not.toContain('Settings in effect');
  });

  it('the sidecar on a tree built with a flag says what it keeps, where from, and how to change it', async () => {
    const space = workspace('minimal');
    expect((await build(space, '--base-url', PREVIEW)).code).toBe(0);
    const sidecar = await startSidecar(space, { args: ['--read-only'] });
    await sidecar.stop();
    expect(sidecar.output()).toContain(
      `base URL ${PREVIEW} (kept from ${space.out}/, built with --base-url; site.yaml: http://snapshot.test)`,
    );
    expect(sidecar.output()).toContain(
      'To change a kept setting, give its flag (the sidecar also needs --rebuild), or run npm run build without it to go back to site.yaml.',
    );
  });

  it('build --watch on a tree built with a flag says what it keeps too', async () => {
    const space = workspace('minimal');
    expect((await build(space, '--base-url', PREVIEW)).code).toBe(0);
    const output = await watchUntilReady(space);
    expect(output).toContain(
      `base URL ${PREVIEW} (kept from ${space.out}/, built with --base-url;`,
    );
    expect(output).toContain('To change a kept setting, give its flag');
  });
});

/** Runs build --watch until it says it is watching (bounded), stops it, and gives its output. */
async function watchUntilReady(space: Workspace): Promise<string> {
  const args = [...scriptArgs('build'), '--watch', '--content', space.content, '--out', space.out];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((done) => child.once('exit', done));
  for (let attempt = 0; attempt < 600 && !/watching for changes/.test(output); attempt++) {
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  child.kill('SIGTERM');
  await exited;
  expect(output).toMatch(/watching for changes/);
  return output;
}
