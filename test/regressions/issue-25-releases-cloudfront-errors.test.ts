/**
 * Issue 25, trait standardizedErrors, in the CloudFront Function: it worded every 5.x tree's
 * errors in 5.10's drf-standardized-errors form, where Weblate 5.0-5.9 answers DRF's
 * `{"detail": …}`. The function runs in a fresh V8 context with CloudFront's event objects.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { renderCloudFrontFunction } from '../../src/hosts/cloudfront.ts';
import { testSettings } from '../helpers.ts';

type Answer = { statusCode?: number; body?: string; headers?: Record<string, { value: string }> };
type Handler = (event: unknown) => Answer;

function ask(release: string, method: string, uri: string, query: Record<string, string> = {}) {
  const settings = testSettings({
    baseUrl: 'https://l10n.example.org',
    weblateVersion: release,
    pages: false,
  });
  const handler = runInNewContext(`${renderCloudFrontFunction(settings)}\nhandler;`, {}) as Handler;
  const querystring = Object.fromEntries(
    Object.entries(query).map(([key, value]) => [key, { value }]),
  );
  return handler({
    version: '1.0',
    context: { eventType: 'viewer-request' },
    viewer: { ip: '127.0.0.1' },
    request: { method, uri, querystring, headers: {}, cookies: {} },
  });
}

describe.each([
  [
    '5.4',
    '{"detail":"Not found."}\n',
    '{"detail":"Authentication credentials were not provided."}\n',
  ],
  [
    '5.10',
    '{"type":"client_error","errors":[{"code":"not_found","detail":"Not found.","attr":null}]}\n',
    '{"type":"client_error","errors":[{"code":"not_authenticated","detail":"Authentication credentials were not provided.","attr":null}]}\n',
  ],
])('the CloudFront Function of a %s tree', (release, notFound, notAuthenticated) => {
  it('answers an unknown format with the release’s 404 body', () => {
    const answer = ask(release, 'GET', '/api/projects/', { format: 'xml' });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).toBe(notFound);
  });

  it('answers an anonymous write with the release’s 401 body and its challenge', () => {
    const answer = ask(release, 'DELETE', '/api/projects/hello/');
    expect(answer.statusCode).toBe(401);
    expect(answer.body).toBe(notAuthenticated);
    expect(answer.headers?.['www-authenticate']?.value).toBe('Token');
  });
});
