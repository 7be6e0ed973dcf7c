/**
 * Issue 24: a first publish at a million translations in under 1 GiB. The PNG widgets' thread
 * (an isolate, the fonts, its pixmaps) and the renderings kept to share between projects (up to
 * 48 MB) were held once the last PNG was rendered, through the record's write, which runs without
 * a pause in which the idle thread could end. A publish now lets them go once its uploads are over.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeSyntheticContent } from '../../bench/synthetic.ts';
import { packageFile } from '../../src/package-files.ts';
import { Rasteriser } from '../../src/status-site/rasteriser.ts';
import { renderBadge } from '../../src/status-site/badges.ts';
import { compiledModule, ROOT, tempDir } from '../helpers.ts';
import { TEST_AWS_ENV, useLocalS3 } from '../support/s3-proxy.ts';

const BUCKET = 'released';
const servers = useLocalS3(BUCKET);
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const FONTS = ['data/fonts/DejaVuSans.ttf', 'data/fonts/DejaVuSans-Bold.ttf'].map((path) =>
  fileURLToPath(packageFile(path)),
);

/** Two first publishes of the same content in one process, to two prefixes: each one's PNGs drawn. */
const CHILD = `
import { publishContent } from '${compiledModule('src/deploy/publish.ts')}';
import { s3Store } from '${compiledModule('src/deploy/s3.ts')}';
const [content, endpoint] = process.argv.slice(2);
const store = () => s3Store({ bucket: '${BUCKET}', endpoint, region: null });
const drawn = [];
for (const prefix of ['one', 'two']) {
  const report = await publishContent(
    {
      contentDir: content,
      target: { bucket: '${BUCKET}', prefix, endpoint },
      state: { bucket: '${BUCKET}', key: prefix + '/.weblate-snapshot/state' },
      waitMs: 0,
      cacheControl: null,
      concurrency: 8,
      retries: 2,
      allowBaseUrl: true,
    },
    { store, stateStore: store, sleep: async () => {}, random: () => 0.5, now: Date.now },
  );
  if (!report.ok) throw new Error(report.message);
  drawn.push(report.pngsDrawn);
}
console.log(JSON.stringify(drawn));
`;

describe('the PNG renderings', () => {
  it('are all let go once a publish is over: the next publish draws every one again', async () => {
    const dir = tempDir();
    const content = join(dir, 'content');
    await writeSyntheticContent(content, { projects: 1, components: 2, languages: 2 });
    // A file, not -e: with --input-type=module the PNG worker's CommonJS source would be read as a module.
    const script = join(dir, 'publish-twice.mjs');
    writeFileSync(script, CHILD);
    const { stdout } = await run(process.execPath, [script, content, servers.s3.url], {
      cwd: ROOT,
      env: { ...process.env, ...TEST_AWS_ENV },
    });
    const [first, second] = JSON.parse(stdout.trim().split('\n').pop()!) as number[];
    expect(first).toBeGreaterThan(0);
    expect(second).toBe(first);
  }, 120_000);

  it('released end the thread and forget what was drawn, which is then drawn again', () => {
    const rasteriser = new Rasteriser({
      resvgPath: require.resolve('@resvg/resvg-js'),
      fontFiles: FONTS,
    });
    try {
      const badge = renderBadge(42);
      const bytes = rasteriser.render(badge);
      rasteriser.render(badge);
      expect([rasteriser.drawn, rasteriser.workersStarted]).toEqual([1, 1]);
      rasteriser.release();
      expect(Buffer.from(rasteriser.render(badge)).equals(Buffer.from(bytes))).toBe(true);
      expect([rasteriser.drawn, rasteriser.workersStarted]).toEqual([2, 2]);
    } finally {
      rasteriser.close();
    }
  }, 60_000);
});
