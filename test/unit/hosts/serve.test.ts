/**
 * serve.json within the limits the serve CLI checks it against (at most 50
 * header rules, sources of at most 100 characters, header values of printable
 * characters), and its header rules read as serve-handler applies them:
 * every rule whose glob matches the file served, in order, a later one
 * replacing a header an earlier one set. The globs use `*` (one segment) and
 * `**` only. The real serve CLI runs this file in test/e2e/serve.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { serveConfig } from '../../../src/hosts/serve.ts';
import { FIXTURES, testSettings } from '../../helpers.ts';
import { CURRENT_FIXTURE, fixtureTree } from './tree.ts';

function globRegex(glob: string): RegExp {
  const body = glob
    .split('/')
    .map((part) =>
      part === '**' ? '.*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]+'),
    )
    .join('/');
  return new RegExp(`^${body}$`);
}

describe('serve.json', () => {
  const settings = testSettings({
    baseUrl: 'https://l10n.example.org/mirror',
    webUrl: 'https://l10n.example.org',
  });

  it.each([
    ['4', settings],
    ['2026.8', { ...settings, weblateVersion: '2026.8' as const }],
  ])('stays within what the serve CLI accepts (flavour %s)', (_, settings) => {
    const config = serveConfig(settings);
    expect(config.headers.length).toBeLessThanOrEqual(50);
    for (const rule of config.headers) {
      expect(rule.source.length).toBeLessThanOrEqual(100);
      for (const { key, value } of rule.headers) {
        expect(key).toMatch(/^[a-zA-Z0-9_!#$%&'*+.^`|~-]+$/);
        expect(value).toMatch(/^[\u0020-\u007e\u00a0-\u00ff]+$/);
      }
    }
    expect(config).toMatchObject({ directoryListing: false, cleanUrls: false });
  });

  it('rewrites each depth under the base path, with parameters that cannot match a dot', () => {
    const { rewrites } = serveConfig(settings);
    expect(rewrites[0]).toEqual({ source: '/mirror/api', destination: '/api/index.json' });
    expect(rewrites[2]).toEqual({
      source: '/mirror/api/:s1([^/.]+)/:s2([^/.]+)',
      destination: '/api/:s1/:s2/index.json',
    });
    expect(rewrites.length).toBe(8);
  });

  it.each([join(FIXTURES, 'features/content'), CURRENT_FIXTURE[1]])(
    'gives every file of the tree of %s JSON headers, the Allow of its resource and the CORS header',
    async (contentDir) => {
      const tree = await fixtureTree(contentDir);
      const rules = serveConfig(tree.settings).headers.map((rule) => ({
        ...rule,
        regex: globRegex(rule.source),
      }));
      for (const resource of tree.resources) {
        const headers: Record<string, string> = {};
        for (const rule of rules.filter((r) => r.regex.test(resource.file))) {
          for (const { key, value } of rule.headers) headers[key] = value;
        }
        expect(headers, resource.file).toEqual({
          'Content-Type': 'application/json',
          Vary: 'Accept',
          Allow: resource.allow,
          'Access-Control-Allow-Origin': '*',
        });
      }
    },
  );
});
