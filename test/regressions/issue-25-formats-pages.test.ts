/**
 * Issue 25, item 2: from 5.10 a component's page links its statistics in every format Weblate
 * answers them in, as files of the tree (every host serves a file; only some map a query), and
 * each link leads to a file the build wrote.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildInMemory, FIXTURES } from '../helpers.ts';

describe.each(['5.10', '2026.11'])("a %s component's page", (release) => {
  it('links the statistics as JSON, CSV and flat JSON, each a file of the tree', async () => {
    const built = await buildInMemory(join(FIXTURES, 'release-5.10/content'), {
      weblateVersion: release,
    });
    const page = built.files.get('projects/hello/app/index.html')!;
    const list = '/mirror/api/components/hello/app/statistics/';
    expect(page).toContain(
      `<a href="${list}">API</a>, <a href="${list}index.csv">CSV</a>, <a href="${list}index.json-flat.json">flat JSON</a>`,
    );
    for (const file of ['index.json', 'index.csv', 'index.json-flat.json'])
      expect(built.files.has(`api/components/hello/app/statistics/${file}`), file).toBe(true);
  });
});
