/**
 * `npm run build -- --watch` as a real process over a temporary copy of a
 * fixture: after each kind of change an editor makes, the tree becomes a
 * fresh build of the content; content with errors leaves the tree alone.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../bench/synthetic.ts';
import { buildInMemory, readTree, readTreeMidWrite, scriptArgs, tempDir } from './helpers.ts';
import { workspace, type Workspace } from './sidecar/support.ts';
import { childOutput } from './support/child-output.ts';

const STRINGS = 'projects/alpha/components/strings.yaml';

describe('build --serve', () => {
  it('builds, previews the tree over HTTP and serves each change once the tree shows it', async () => {
    const space = workspace('minimal');
    const server = startWatch(space, [
      '--serve',
      '--port',
      '0',
      '--base-url',
      'http://127.0.0.1:9/mirror',
    ]);
    try {
      await server.waitFor(/watching for changes/);
      const api = /Serving .* at (http:\/\/127\.0\.0\.1:\d+\/mirror\/api\/)\n/.exec(
        server.output(),
      )?.[1];
      expect(api, server.output()).toBeDefined();
      expect(server.output()).toContain(
        'Links to http://127.0.0.1:9/mirror are answered as http://127.0.0.1:',
      );
      const statistics = `${api}translations/hello/app/cs/statistics/`;
      expect(((await (await fetch(statistics)).json()) as { translated: number }).translated).toBe(
        4,
      );
      edit(space, 'projects/hello/components/app.yaml', (t) =>
        t.replace('translated: 4\n', 'translated: 3\n'),
      );
      await server.waitFor(/Updated .* after projects\/hello\/components\/app\.yaml/);
      expect(((await (await fetch(statistics)).json()) as { translated: number }).translated).toBe(
        3,
      );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe('build --watch', () => {
  it('updates the tree after each change and leaves it alone while the content has errors', async () => {
    const space = workspace();
    const watcher = startWatch(space);
    try {
      await watcher.waitFor(/watching for changes/);
      await expectSettled(space);

      edit(space, STRINGS, (t) => t.replace('translated: 4\n', 'translated: 3\n'));
      await watcher.waitFor(
        /Updated .* after projects\/alpha\/components\/strings\.yaml: \d+ files rewritten/,
      );
      await expectSettled(space);

      edit(space, 'languages/de.yaml', (t) => t.replace('German (Germany)', 'Deutsch'));
      await expectSettled(space);

      edit(space, STRINGS, (t) =>
        t.replace('translations:\n', 'translations:\n  fr: {translated: 2}\n'),
      );
      await expectSettled(space);

      edit(space, 'projects/beta/components/docs.yaml', (t) =>
        t.replace('  he:\n    id: 202\n', ''),
      );
      await expectSettled(space);

      const before = readTree(space.out);
      const valid = readFileSync(join(space.content, STRINGS), 'utf8');
      edit(space, STRINGS, (t) => t.replace('translated: 3\n', 'translated: many\n'));
      await watcher.waitFor(
        /strings\.yaml:\d+:\d+ .*nothing was written.*\nWaiting for the next change/s,
      );
      expect(readTree(space.out)).toEqual(before);
      writeFileSync(join(space.content, STRINGS), valid);
      await expectSettled(space);

      writeFileSync(join(space.content, 'projects/stray.yaml'), 'name: Stray\n');
      await watcher.waitFor(
        /projects\/stray\.yaml:1:1 .*expected content files at.*\nWaiting for the next change/s,
      );
      rmSync(join(space.content, 'projects/stray.yaml'));

      // A folder renamed whole, then the link that named it.
      renameSync(join(space.content, 'projects/beta'), join(space.content, 'projects/gamma'));
      edit(space, STRINGS, (t) => t.replace('links: [beta]', 'links: [gamma]'));
      await expectSettled(space);

      rmSync(join(space.content, 'projects/alpha/components/glossary.yaml'));
      await expectSettled(space);

      // A new folder with its files written at once, before any watcher could be set on it.
      mkdirSync(join(space.content, 'projects/delta/components'), { recursive: true });
      writeFileSync(join(space.content, 'projects/delta/project.yaml'), 'name: Delta\n');
      writeFileSync(
        join(space.content, 'projects/delta/components/app.yaml'),
        'name: App\nsource_language: en\nrepo: x\nfilemask: "*.po"\nfile_format: po\ntranslations: {cs: {}}\n',
      );
      await expectSettled(space);
      edit(space, 'projects/delta/components/app.yaml', (t) =>
        t.replace('{cs: {}}', '{cs: {}, de: {}}'),
      );
      await expectSettled(space);
    } finally {
      expect(await watcher.stop()).toBe(0);
    }
    await expectSettled(space);
    expect(watcher.output()).not.toMatch(/error:|Error\b/);
  });
});

describe('build --watch on a larger tree', () => {
  it('sees a change saved right after it says it is watching, three folders deep', async () => {
    const dir = tempDir('wsnap-watch-');
    const space = { dir, content: join(dir, 'content'), out: join(dir, 'dist') };
    await writeSyntheticContent(space.content, { projects: 30, components: 3, languages: 2 });
    const watcher = startWatch(space);
    try {
      await watcher.waitFor(/watching for changes/);
      edit(space, 'projects/project-00030/components/component-003.yaml', (t) =>
        t.replace(/translated: \d+/, 'translated: 0'),
      );
      await watcher.waitFor(
        /Updated .* after projects\/project-00030\/components\/component-003\.yaml/,
      );
    } finally {
      expect(await watcher.stop()).toBe(0);
    }
  });
});

function edit(space: Workspace, file: string, change: (text: string) => string): void {
  const path = join(space.content, file);
  writeFileSync(path, change(readFileSync(path, 'utf8')));
}

function startWatch(space: Workspace, extra: string[] = ['--watch']) {
  const args = [...scriptArgs('build'), ...extra, '--content', space.content, '--out', space.out];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = childOutput(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    output: output.text,
    /** Output seen by earlier waits is not matched again. */
    async waitFor(pattern: RegExp) {
      await output.waitFor(pattern);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/**
 * Waits until the tree on disk is a fresh build of the content, and fails with the difference if
 * it never is. The bound is the test's timeout: on a busy disk an update can take many seconds.
 */
async function expectSettled(space: Workspace): Promise<void> {
  const fresh = await buildInMemory(space.content);
  expect(fresh.report.errors).toEqual([]);
  let tree = readTreeMidWrite(space.out);
  for (let attempt = 0; attempt < 12_000 && !sameFiles(tree, fresh.files); attempt++) {
    // at most 5 minutes, longer than any test's timeout
    await pause(25);
    tree = readTreeMidWrite(space.out);
  }
  expect([...tree.keys()].sort()).toEqual([...fresh.files.keys()].sort());
  for (const [path, text] of fresh.files) expect(tree.get(path), path).toBe(text);
}

function sameFiles(tree: ReadonlyMap<string, string>, files: ReadonlyMap<string, string>): boolean {
  return tree.size === files.size && [...files].every(([path, text]) => tree.get(path) === text);
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
