/**
 * Every link resolves: build each content tree to disk, read every JSON file,
 * and check that each API URL in it (everything but `file_url`, the raw file
 * outside the snapshot) names a file of the tree (a URL's path decoded once,
 * as a host does); then follow `next` from the first page of every list and
 * check that it visits every item exactly once. In the 2026.8 flavour the
 * project metrics are outside the snapshot too, and what Weblate refuses an
 * anonymous reader (repository status, reports, machinery settings) has no
 * file: the preview and the hosts answer it 401 or 403.
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../src/build.ts';
import { dirTarget } from '../src/output/target.ts';
import { collectLinks, FIXTURES, isPage, ROOT, readTree, tempDir } from './helpers.ts';

const trees = [
  ['the default content', join(ROOT, 'content')],
  ['fixture "features" (page size 2)', join(FIXTURES, 'features/content')],
  ['fixture "minimal"', join(FIXTURES, 'minimal/content')],
  ['fixture "current" (2026.8)', join(FIXTURES, 'current/content')],
] as const;

/** Links without a file: the raw translation files, and in 2026.8 the metrics and what is refused to an anonymous reader. */
const OUTSIDE: Record<string, readonly string[]> = {
  '4': ['file_url'],
  '2026.8': [
    'file_url',
    'machinery_settings',
    'memory',
    'metrics_url',
    'reports',
    'reports_url',
    'repository_url',
  ],
};

describe.each(trees)('links of %s', (_, contentDir) => {
  const out = join(tempDir(), 'dist');
  let files: Map<string, string>;
  let base: string;
  let outside: readonly string[];

  // The API tree; host configuration files sit beside it.
  // The API tree's JSON; host configuration files sit beside it, the statistics' CSV in it.
  const apiFiles = () =>
    [...files].filter(([path]) => path.startsWith('api/') && path.endsWith('.json'));

  const fileOfUrl = (url: string) => {
    const path = url.slice(base.length);
    return decodeURIComponent(`${path.slice(1)}index.json`);
  };

  it('builds', async () => {
    const report = await build({ contentDir }, { target: dirTarget(out) });
    expect(report.errors).toEqual([]);
    files = readTree(out);
    expect(files.size).toBe(report.files);
    const root = JSON.parse(files.get('api/index.json')!) as Record<string, string>;
    base = root.projects!.replace(/\/api\/projects\/$/, '');
    outside = OUTSIDE['categories' in root ? '2026.8' : '4']!;
  });

  it('every API link names a file of the tree', () => {
    const broken: string[] = [];
    let checked = 0;
    for (const [file, text] of apiFiles()) {
      collectLinks(JSON.parse(text), (key, url) => {
        if (outside.includes(key) || !url.startsWith(`${base}/api/`)) return;
        checked++;
        if (!files.has(fileOfUrl(url))) broken.push(`${file}: ${key} → ${url}`);
      });
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(apiFiles().length);
  });

  it('only the links known to be outside the tree lead outside it', () => {
    const found = new Set<string>();
    for (const [, text] of apiFiles()) {
      collectLinks(JSON.parse(text), (key, url) => {
        if (url.startsWith(`${base}/api/`) && !files.has(fileOfUrl(url))) found.add(key);
      });
    }
    expect([...found].sort()).toEqual(files.size > 0 ? [...outside] : []);
  });

  it('following next from the first page of every list visits every item once', () => {
    const firstPages = apiFiles().filter(
      ([path, text]) => !path.includes('~page/') && isPage(JSON.parse(text)),
    );
    expect(firstPages.length).toBeGreaterThan(10);
    for (const [path, text] of firstPages) {
      let page = JSON.parse(text);
      const count = page.count;
      const seen: string[] = [];
      const visited = new Set<string>([path]);
      let currentFile = path;
      let previousUrl: string | null = null;
      for (let guard = 0; guard < 10_000; guard++) {
        expect(page.previous).toBe(previousUrl);
        seen.push(...page.results.map((item: unknown) => JSON.stringify(item)));
        if (page.next === null) break;
        const nextFile = fileOfUrl(page.next);
        expect(visited.has(nextFile), `${path} repeats ${nextFile}`).toBe(false);
        visited.add(nextFile);
        previousUrl = `${base}/${currentFile.replace(/index\.json$/, '').replaceAll('%', '%25')}`;
        currentFile = nextFile;
        page = JSON.parse(files.get(nextFile)!);
        expect(page.count).toBe(count);
      }
      expect(seen.length, path).toBe(count);
      expect(new Set(seen).size, path).toBe(count);
    }
  });

  it('replaces the tree as a whole and leaves no temporary folder', async () => {
    await build({ contentDir }, { target: dirTarget(out) });
    expect(readTree(out)).toEqual(files);
    expect(readdirSync(dirname(out))).toEqual(['dist']);
  });
});
