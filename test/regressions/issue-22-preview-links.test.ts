/**
 * Issue 22, item 2: the README's preview turned the status site off. Building with --base-url
 * http://127.0.0.1:8080 made the web and base URLs differ (site.yaml sets web_url), so the pages
 * vanished, and the tree left behind was not the one site.yaml describes. Now `npm run serve`
 * answers the tree built as site.yaml says as if it lived at the preview's address, links moved in
 * what it answers (JSON, HTML, SVG, CSV), the status site on, and the files untouched.
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readTree, ROOT, scriptArgs, tempDir } from '../helpers.ts';
import { runScript } from '../support/run-script.ts';

const ELSEWHERE = 'https://weblate.example.org/mirrored';

describe('the preview answers a tree as if it lived at its address', () => {
  it("follows the README's quick start: a plain build, then the status site and API previewed at 127.0.0.1, the tree as site.yaml says", async () => {
    const quickStart = /## Quick start\n\n```sh\n([\s\S]*?)```/.exec(
      readFileSync(join(ROOT, 'README.md'), 'utf8'),
    )?.[1];
    const commands = quickStart?.split('\n').map((line) => line.replace(/#.*$/, '').trim());
    expect(commands).toContain('npm ci && npm run build');
    expect(commands).toContain('npm run serve');

    const dir = tempDir('wsnap-preview-');
    cpSync(join(ROOT, 'content'), join(dir, 'content'), { recursive: true });
    const built = await runScript('build', [], { cwd: dir });
    expect(built.code, built.stderr).toBe(0);
    const out = join(dir, 'dist');
    const before = readTree(out);
    const settings = JSON.parse(readFileSync(`${out}.state/settings.json`, 'utf8')) as {
      site: unknown;
      siteYaml: unknown;
    };
    expect(settings.site).toEqual(settings.siteYaml);

    const preview = await startPreview(out);
    try {
      const { origin } = new URL(preview.url);
      const root = await (await fetch(preview.url)).text();
      expect(root).toContain(`"projects":"${origin}/api/projects/"`);
      expect(root).not.toContain('l10n.example.org');
      const head = await fetch(preview.url, { method: 'HEAD' });
      expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(root)));

      const page = await fetch(`${origin}/projects/demo-app/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const csv = await (
        await fetch(`${origin}/exports/stats/demo-app/android/?format=csv`)
      ).text();
      expect(csv).toContain(`${origin}/projects/demo-app/android/`);
      expect(csv).not.toContain('l10n.example.org');
      expect(preview.output()).toContain(
        `Links to https://l10n.example.org are answered as ${origin}; the files keep them as built.`,
      );
    } finally {
      await preview.stop();
    }
    expect(readTree(out)).toEqual(before);
  });

  it('keeps the path of a base URL that has one, and moves only whole URLs', async () => {
    const dir = tempDir('wsnap-preview-');
    const out = join(dir, 'dist');
    const content = join(dir, 'content');
    cpSync(join(FIXTURES, 'features/content'), content, { recursive: true });
    // A link that starts like the base URL but is not under it.
    const project = join(content, 'projects/alpha/project.yaml');
    const text = readFileSync(project, 'utf8');
    writeFileSync(project, text.replace(/^web: .*$/m, `web: ${ELSEWHERE}`));
    expect((await runScript('build', ['--content', content, '--out', out])).code).toBe(0);
    const preview = await startPreview(out);
    try {
      const { origin } = new URL(preview.url);
      expect(preview.url).toBe(`${origin}/mirror/api/`);
      const root = (await (await fetch(preview.url)).json()) as { projects: string };
      expect(root.projects).toBe(`${origin}/mirror/api/projects/`);
      const alpha = await (await fetch(`${root.projects}alpha/`)).text();
      expect(alpha).toContain(`"web":"${ELSEWHERE}"`);
      expect(alpha).toContain(`"url":"${origin}/mirror/api/projects/alpha/"`);
      expect(alpha).not.toContain('https://weblate.example.org/mirror/');
    } finally {
      await preview.stop();
    }
  });
});

/** `npm run serve` on a free port, its URL read from what it prints (bounded wait). */
async function startPreview(out: string) {
  const child = spawn(process.execPath, [...scriptArgs('serve'), '--out', out, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise((done) => child.once('exit', done));
  for (let attempt = 0; attempt < 300 && !/to stop\)\n/.test(output); attempt++) {
    if (child.exitCode !== null) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  const url = / at (http:\/\/127\.0\.0\.1:\d+\S*\/api\/) /.exec(output)?.[1];
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
  };
  if (!url) {
    await stop();
    throw new Error(`the preview did not start:\n${output}`);
  }
  return { url, output: () => output, stop };
}
