/**
 * Issue 25, item 2: the CloudFront Function of a 5.10 tree sends `?format=csv` and
 * `?format=json-flat` of the statistics to the files beside their JSON (json-flat of an object is
 * its JSON), refuses them elsewhere, and the upload script types the CSV files as Weblate does.
 * The function runs in a fresh V8 context with CloudFront's event objects.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { renderCloudFrontFunction, renderS3Upload } from '../../src/hosts/cloudfront.ts';
import { testSettings } from '../helpers.ts';

type Handler = (event: unknown) => { uri?: string; statusCode?: number };

const settings = testSettings({
  baseUrl: 'https://l10n.example.org',
  weblateVersion: '5.10',
  pages: false,
});

function viewerRequest(handler: Handler, uri: string, query: Record<string, string>) {
  const querystring = Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, { value }]),
  );
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '127.0.0.1' },
    request: { method: 'GET', uri, querystring, headers: {}, cookies: {} },
  });
}

describe('the CloudFront Function of a 5.10 tree', () => {
  const handler = runInNewContext(`${renderCloudFrontFunction(settings)}\nhandler;`, {}) as Handler;

  it.each([
    ['/api/translations/p/c/cs/statistics/', { format: 'csv' }, 'statistics/index.csv'],
    ['/api/translations/p/c/cs/statistics/', { format: 'json-flat' }, 'statistics/index.json'],
    ['/api/projects/p/languages/', { format: 'csv' }, 'languages/index.csv'],
    ['/api/components/p/c/statistics/', { format: 'json-flat' }, 'statistics/index.json-flat.json'],
    [
      '/api/components/p/c/statistics/',
      { format: 'csv', page: '2' },
      'statistics/~page/2/index.csv',
    ],
    ['/api/languages/cs/statistics', { format: 'json' }, 'statistics/index.json'],
  ])('sends %s %o to its file', (uri, query, file) => {
    expect(viewerRequest(handler, uri, query).uri).toMatch(new RegExp(`/${file}$`));
  });

  it('answers the formats with a 404 where Weblate has no such renderer', () => {
    expect(viewerRequest(handler, '/api/projects/', { format: 'csv' }).statusCode).toBe(404);
    expect(viewerRequest(handler, '/api/projects/p/', { format: 'json-flat' }).statusCode).toBe(
      404,
    );
    expect(
      viewerRequest(handler, '/api/projects/p/statistics/', { format: 'xml' }).statusCode,
    ).toBe(404);
  });

  // Kept 800 bytes under CloudFront Functions' 10 KB, room for what a later release adds.
  it.each(['5.10', '2026.8', '2026.11'])(
    "stays 800 bytes within CloudFront Functions' 10 KB with the status site (%s)",
    (release) => {
      const site = testSettings({
        baseUrl: 'https://l10n.example.org/mirror',
        weblateVersion: release,
        pages: true,
      });
      expect(Buffer.byteLength(renderCloudFrontFunction(site))).toBeLessThanOrEqual(
        10 * 1024 - 800,
      );
    },
  );

  it('uploads the CSV files as text/csv; charset=utf-8', () => {
    expect(renderS3Upload(settings)).toContain(
      "--exclude '*' --include '*.csv' --content-type 'text/csv; charset=utf-8'",
    );
  });
});
