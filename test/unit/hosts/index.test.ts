/** Which host files a build writes, and where. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build } from '../../../src/build.ts';
import { hostFiles } from '../../../src/hosts/index.ts';
import { memoryTarget } from '../../../src/output/target.ts';
import { FIXTURES, testSettings } from '../../helpers.ts';

const settings = testSettings({ baseUrl: 'https://l10n.example.org' });

describe('hostFiles', () => {
  it('writes every host under hosts/ and, at the root, only files no host misreads', () => {
    expect(hostFiles(settings).map((file) => file.path)).toEqual([
      '404.html',
      'serve.json',
      '.nojekyll',
      'hosts/netlify/_redirects',
      'hosts/netlify/_headers',
      'hosts/cloudflare/_redirects',
      'hosts/cloudflare/_headers',
      'hosts/nginx/weblate-snapshot.conf',
      'hosts/cloudfront/function.js',
      'hosts/s3/upload.sh',
      'hosts/s3/cors.json',
    ]);
    expect(hostFiles(settings)[0]!.data).toBe('{"detail":"Not found."}\n');
  });

  it.each(['netlify', 'cloudflare'] as const)(
    'puts the _redirects and _headers of --host %s at the root',
    (host) => {
      const files = new Map(hostFiles(settings, { host }).map((file) => [file.path, file.data]));
      expect(files.get('_redirects')).toBe(files.get(`hosts/${host}/_redirects`));
      expect(files.get('_headers')).toBe(files.get(`hosts/${host}/_headers`));
    },
  );
});

describe('a build for a host', () => {
  it('refuses ?page= pagination for Cloudflare Pages, pointing at site.yaml, and writes nothing', async () => {
    const contentDir = join(FIXTURES, 'query-pagination/content');
    const target = memoryTarget();
    const report = await build({ contentDir, host: 'cloudflare' }, { target });
    expect(report.errors).toEqual([
      expect.objectContaining({
        file: `${contentDir}/site.yaml`,
        line: 3,
        column: 13,
        path: 'pagination',
      }),
    ]);
    expect(report.errors[0]!.message).toMatch(/^expected "path" with --host cloudflare/);
    expect(target.files.size).toBe(0);
  });

  it('accepts the same site for Netlify', async () => {
    const target = memoryTarget();
    const report = await build(
      { contentDir: join(FIXTURES, 'query-pagination/content'), host: 'netlify' },
      { target },
    );
    expect(report.errors).toEqual([]);
    expect(target.files.get('_redirects')).toContain(' page=:page ');
  });
});
