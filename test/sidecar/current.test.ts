/**
 * The sidecar serving the 2026.8 flavour, a real process over HTTP: its
 * answers in the order DRF's dispatch checks a request there (format, key,
 * permissions, then method), every error in drf-standardized-errors' body
 * with the headers of the 4 flavour (Allow, Vary, WWW-Authenticate on a 401),
 * and writes to a component inside categories at its encoded path, after
 * which the tree is byte for byte a fresh build (category statistics too).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUTH,
  call,
  expectTreeOfContent,
  JSON_BODY,
  startSidecar,
  workspace,
  type RunningSidecar,
  type Served,
} from './support.ts';

const error = (code: string, detail: string, attr: string | null = null) => ({
  type: 'client_error',
  errors: [{ code, detail, attr }],
});
const NOT_AUTHENTICATED = error(
  'not_authenticated',
  'Authentication credentials were not provided.',
);

/** The status, Content-Type and raw body (the bytes are the point: key order, compact JSON). */
function expectBody(served: Served, status: number, body: unknown): void {
  expect({
    status: served.status,
    type: served.headers.get('content-type'),
    text: served.text,
  }).toEqual({
    status,
    type: 'application/json',
    text: `${JSON.stringify(body)}\n`,
  });
}

describe('the sidecar serving the 2026.8 flavour', () => {
  const space = workspace('current');
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());

  it('answers an anonymous write 401 whatever the method, with WWW-Authenticate and the Allow of the route', async () => {
    for (const [method, path] of [
      ['POST', 'components/'],
      ['DELETE', 'translations/docs/guides%252Fmanual/cs/'],
      ['PUT', 'languages/'],
    ]) {
      const served = await call(
        sidecar.api + path,
        method,
        {},
        { 'Content-Type': 'application/json' },
      );
      expectBody(served, 401, NOT_AUTHENTICATED);
      expect(served.headers.get('www-authenticate')).toBe('Token');
      expect(served.headers.get('vary')).toBe('Accept');
    }
    expect((await call(`${sidecar.api}components/`, 'POST')).headers.get('allow')).toBe(
      'GET, HEAD, OPTIONS',
    );
  });

  it('answers a wrong key 401 on a read too, and a method the route lacks 405 once the key is good', async () => {
    const wrong = await call(`${sidecar.api}projects/`, 'GET', undefined, {
      Authorization: 'Token nope',
    });
    expectBody(wrong, 401, error('authentication_failed', 'Invalid token.'));
    expect(wrong.headers.get('www-authenticate')).toBe('Token');
    expectBody(
      await call(`${sidecar.api}languages/`, 'PUT', {}, JSON_BODY),
      405,
      error('method_not_allowed', 'Method "PUT" not allowed.'),
    );
  });

  it('refuses what Weblate refuses an anonymous reader: the repository 403, reports and machinery settings 401', async () => {
    const forbidden = error(
      'permission_denied',
      'You do not have permission to perform this action.',
    );
    expectBody(
      await call(`${sidecar.api}components/docs/guides%252Fmanual/repository/`),
      403,
      forbidden,
    );
    expectBody(await call(`${sidecar.api}projects/docs/reports/`), 401, NOT_AUTHENTICATED);
    expectBody(
      await call(`${sidecar.api}projects/docs/machinery_settings/`),
      401,
      NOT_AUTHENTICATED,
    );
    // A key holder is refused too: the snapshot holds no reports.
    expectBody(await call(`${sidecar.api}reports/`, 'GET', undefined, AUTH), 403, forbidden);
  });

  it('answers unknown paths, pages and formats 404', async () => {
    expectBody(await call(`${sidecar.api}projects/nope/`), 404, error('not_found', 'Not found.'));
    expectBody(
      await call(`${sidecar.api}projects/?page=99`),
      404,
      error('not_found', 'Invalid page.'),
    );
    expectBody(
      await call(`${sidecar.api}projects/docs/?format=xml`, 'DELETE', undefined, AUTH),
      404,
      error('not_found', 'Not found.'),
    );
  });

  it('answers bad bodies 400 (validation errors flattened, with their codes), 415 and 413', async () => {
    const invalid = await call(
      `${sidecar.api}languages/`,
      'POST',
      { code: 'xx_YY', name: 'X', population: -1 },
      JSON_BODY,
    );
    expectBody(invalid, 400, {
      type: 'validation_error',
      errors: [
        {
          code: 'min_value',
          detail: 'Ensure this value is greater than or equal to 0.',
          attr: 'population',
        },
      ],
    });
    const nested = await call(
      `${sidecar.api}languages/`,
      'POST',
      { code: 'xx_YY', name: 'X', plural: { number: 'two' } },
      JSON_BODY,
    );
    expectBody(nested, 400, {
      type: 'validation_error',
      errors: [{ code: 'invalid', detail: 'A valid integer is required.', attr: 'plural.number' }],
    });
    const malformed = await call(`${sidecar.api}languages/`, 'POST', '{"code":', JSON_BODY);
    expectBody(
      malformed,
      400,
      error('parse_error', 'JSON parse error - Unexpected end of JSON input'),
    );
    const media = await call(`${sidecar.api}languages/`, 'POST', 'code=x', {
      ...AUTH,
      'Content-Type': 'text/plain',
    });
    expectBody(
      media,
      415,
      error('unsupported_media_type', 'Unsupported media type "text/plain" in request.'),
    );
    const large = await call(
      `${sidecar.api}languages/`,
      'POST',
      { name: 'x'.repeat(2 * 1024 * 1024) },
      JSON_BODY,
    );
    expectBody(large, 413, error('error', 'Request body too large.'));
  });

  it('refuses to delete a source translation 403, at the encoded path of a component inside categories', async () => {
    const served = await call(
      `${sidecar.api}translations/docs/guides%252Fmanual/en/`,
      'DELETE',
      undefined,
      AUTH,
    );
    expectBody(served, 403, error('permission_denied', 'Can not delete translation'));
  });

  it('deletes a translation of a component inside categories, and the tree is a fresh build after it', async () => {
    const before = JSON.parse((await call(`${sidecar.api}categories/5/statistics/`)).text) as {
      total: number;
    };
    const served = await call(
      `${sidecar.api}translations/docs/guides%252Fmanual/cs/`,
      'DELETE',
      undefined,
      AUTH,
    );
    expect(served.status).toBe(204);
    expect((await call(`${sidecar.api}translations/docs/guides%252Fmanual/cs/`)).status).toBe(404);
    const after = JSON.parse((await call(`${sidecar.api}categories/5/statistics/`)).text) as {
      total: number;
    };
    expect(after.total).toBe(before.total - 40);
    await expectTreeOfContent(space);
  });

  it('creates a language and answers it in the current shape, id first', async () => {
    const served = await call(
      `${sidecar.api}languages/`,
      'POST',
      { code: 'xx_YY', name: 'Test', plural: { number: 1, formula: '0' } },
      JSON_BODY,
    );
    expect(served.status).toBe(201);
    expect(Object.keys(JSON.parse(served.text) as object)[0]).toBe('id');
    expect(JSON.parse(served.text)).toMatchObject({
      code: 'xx_YY',
      plural: { number: 1, formula: '0', type: 0 },
    });
    await expectTreeOfContent(space);
  });
});
