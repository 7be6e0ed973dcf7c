/**
 * The nginx file's parameters and shape. What it serves is checked against a
 * real nginx in test/e2e/nginx.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/api/routes.ts';
import { renderNginxConfig } from '../../../src/hosts/nginx.ts';
import { testSettings } from '../../helpers.ts';

const site = (baseUrl: string) => testSettings({ baseUrl });

describe('the nginx configuration', () => {
  it.each([
    ['http://127.0.0.1:8080', 'listen 127.0.0.1:8080;'],
    ['http://localhost:9000', 'listen 127.0.0.1:9000;'],
    ['https://l10n.example.org', 'listen 80;'],
    ['http://l10n.example.org:8081/mirror', 'listen 8081;'],
  ])('listens where %s is served', (baseUrl, listen) => {
    expect(renderNginxConfig(site(baseUrl))).toContain(`    ${listen}\n`);
  });

  it('takes the root and the listen address as parameters', () => {
    const text = renderNginxConfig(site('https://l10n.example.org'), {
      root: '/srv/snapshot',
      listen: '[::]:8443',
    });
    expect(text).toContain('    root /srv/snapshot;\n');
    expect(text).toContain('    listen [::]:8443;\n');
    expect(text).toContain('    server_name l10n.example.org;\n');
    expect(text).toContain('terminate TLS in front of this server');
  });

  it('has one location per route, each with its Allow, under the base path', () => {
    const text = renderNginxConfig(site('https://example.github.io/l10n'));
    const locations =
      text.match(/^ {4}location ~ "\^\/l10n\(\?<weblate_snapshot_dir>\/api[^"]*" \{$/gm) ?? [];
    expect(locations.length).toBe(ROUTES.length);
    for (const route of ROUTES) expect(text).toContain(`# ${route.kind}\n`);
    expect(text.match(/add_header Allow "[^"]+" always;/g)?.length).toBe(ROUTES.length);
  });
});
