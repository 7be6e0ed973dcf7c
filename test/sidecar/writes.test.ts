/**
 * The sidecar's writes over real HTTP against a real process: every status code and body the issue lists, the content files as
 * edited (comments kept), and after each write a tree that is byte for byte a
 * fresh build of the edited content.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers.ts';
import {
  AUTH,
  call,
  expectJson,
  expectTreeOfContent,
  JSON_BODY,
  KEY,
  OTHER_KEY,
  startSidecar,
  workspace,
  type RunningSidecar,
} from './support.ts';

const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
const PERMISSION = { detail: 'You do not have permission to perform this action.' };

describe('the sidecar refuses writes without a valid key', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());

  it.each([
    ['POST', 'languages/'],
    ['PATCH', 'languages/de/'],
    ['DELETE', 'translations/alpha/strings/cs/'],
    ['POST', 'projects/'],
  ])(
    'answers %s %s without credentials with 401 and WWW-Authenticate: Token',
    async (method, path) => {
      const served = await call(
        sidecar.api + path,
        method,
        { name: 'x' },
        { 'Content-Type': 'application/json' },
      );
      expectJson(served, 401, NOT_AUTHENTICATED);
      expect(served.headers.get('www-authenticate')).toBe('Token');
    },
  );

  it.each([
    ['Token wrong-key', 'Invalid token.'],
    [`Bearer ${KEY}x`, 'Invalid token.'],
    ['Token', 'Invalid token header. No credentials provided.'],
    [`Token ${KEY} extra`, 'Invalid token header. Token string should not contain spaces.'],
  ])('answers Authorization: %s with 401 %j', async (authorization, detail) => {
    const served = await call(`${sidecar.api}languages/de/`, 'DELETE', undefined, {
      Authorization: authorization,
    });
    expectJson(served, 401, { detail });
    expect(served.headers.get('www-authenticate')).toBe('Token');
  });

  it('treats another scheme as no credentials', async () => {
    expectJson(
      await call(`${sidecar.api}languages/de/`, 'DELETE', undefined, {
        Authorization: `Basic ${KEY}`,
      }),
      401,
      NOT_AUTHENTICATED,
    );
  });

  it('answers a method the route allows but the sidecar does not implement with 403 once the key is good', async () => {
    for (const [method, path] of [
      ['POST', 'projects/'],
      ['PUT', 'projects/alpha/'],
      ['DELETE', 'components/alpha/strings/'],
      ['POST', 'components/alpha/strings/lock/'],
    ]) {
      const served = await call(
        sidecar.api + path,
        method,
        {},
        { Authorization: `Bearer ${OTHER_KEY}`, 'Content-Type': 'application/json' },
      );
      expectJson(served, 403, PERMISSION);
    }
  });

  it('left the content and the tree as they were', async () => {
    await expectTreeOfContent(space);
    expect(readFileSync(join(space.content, 'languages/de.yaml'), 'utf8')).toBe(
      readFileSync(join(FIXTURES, 'features/content/languages/de.yaml'), 'utf8'),
    );
  });
});

describe('POST /api/languages/', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());
  const post = (body: unknown, headers: Record<string, string> = JSON_BODY) =>
    call(`${sidecar.api}languages/`, 'POST', body, headers);

  it('creates a language: 201, the Language object as the tree then holds it, Location its url', async () => {
    const served = await post({
      code: 'tlh_YY',
      name: 'Klingon (Y)',
      direction: 'rtl',
      population: '12',
      plural: { number: 3, formula: 'n==1 ? 0 : n==2 ? 1 : 2' },
    });
    expect(served.status).toBe(201);
    const body = JSON.parse(served.text);
    expect(body).toMatchObject({
      code: 'tlh_YY',
      name: 'Klingon (Y)',
      direction: 'rtl',
      population: 12,
      plural: { number: 3, source: 0 },
    });
    expect(served.headers.get('location')).toBe(body.url);
    const detail = await call(sidecar.local(body.url));
    expect(detail.text).toBe(served.text);
    expect(readFileSync(join(space.out, 'api/languages/tlh_YY/index.json'), 'utf8')).toBe(
      served.text,
    );
    expect(readFileSync(join(space.content, 'languages/tlh_YY.yaml'), 'utf8')).toBe(
      'name: Klingon (Y)\ndirection: rtl\npopulation: 12\nplural:\n  number: 3\n  formula: "n==1 ? 0 : n==2 ? 1 : 2"\n',
    );
    const list = JSON.parse((await call(`${sidecar.api}languages/`)).text);
    expect(list.count).toBe(
      JSON.parse(readFileSync(join(space.out, 'api/languages/index.json'), 'utf8')).count,
    );
    await expectTreeOfContent(space);
  });

  it('publishes a catalog code nothing used yet, with the catalog fields it was not given', async () => {
    const served = await post({ code: 'fr', plural: { number: 2, formula: 'n > 1' } });
    expect(served.status).toBe(201);
    expect(JSON.parse(served.text)).toMatchObject({ code: 'fr', name: 'French', direction: 'ltr' });
    await expectTreeOfContent(space);
  });

  it.each([
    ['de (published, with a file)', 'de'],
    ['cs (published by its translations)', 'cs'],
    ['tlh_yy (another case of a published code)', 'tlh_yy'],
  ])('refuses a duplicate code %s with a bare list', async (_, code) => {
    expectJson(await post({ code, name: 'Again', plural: { number: 2, formula: 'n != 1' } }), 400, [
      'Language with this Language code already exists.',
    ]);
  });

  it('refuses a body without plural with a bare list, and an empty plural as a required field', async () => {
    expectJson(await post({ code: 'xx_a', name: 'A' }), 400, [
      'No valid plural data was provided.',
    ]);
    expectJson(await post({ code: 'xx_a', name: 'A', plural: {} }), 400, {
      plural: ['This field is required.'],
    });
  });

  it('answers field errors as DRF does, all fields at once, nested for plural', async () => {
    const served = await post({
      code: 'ca@valencia',
      name: '  ',
      direction: 'up',
      population: -1,
      plural: { number: 2, formula: 'n !=' },
    });
    expectJson(served, 400, {
      code: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
      name: ['This field may not be blank.'],
      direction: ['"up" is not a valid choice.'],
      population: ['Ensure this value is greater than or equal to 0.'],
      plural: { formula: ['Could not evaluate plural formula: the formula ends too early'] },
    });
    expectJson(await post({ name: 'x'.repeat(101), population: 'many', plural: 'n != 1' }), 400, {
      code: ['This field is required.'],
      name: ['Ensure this field has no more than 100 characters.'],
      population: ['A valid integer is required.'],
      plural: { non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] },
    });
    expectJson(await post({ code: 'x'.repeat(51), plural: { number: 2, formula: 'n' } }), 400, {
      code: ['Ensure this field has no more than 50 characters.'],
      plural: { formula: ['The formula must give a plural form from 0 to 1 for every n.'] },
    });
    expectJson(await post({ code: 'xx_new', plural: { number: 2, formula: 'n != 1' } }), 400, {
      name: ['This field is required.'],
    });
    expectJson(
      await post({ code: '-x', name: 'X', plural: { number: 2, formula: 'n != 1' } }),
      400,
      {
        code: ['Enter a language code that starts with a letter or a digit.'],
      },
    );
  });

  it('answers malformed JSON 400, a body that is not an object 400, another media type 415, more than 1 MiB 413', async () => {
    const malformed = await post('{"code": ', JSON_BODY);
    expect(malformed.status).toBe(400);
    expect(JSON.parse(malformed.text).detail).toMatch(/^JSON parse error - /);
    expectJson(await post([1, 2]), 400, {
      non_field_errors: ['Invalid data. Expected a dictionary, but got list.'],
    });
    expectJson(await post('code=x', { ...AUTH, 'Content-Type': 'text/plain' }), 415, {
      detail: 'Unsupported media type "text/plain" in request.',
    });
    const huge = await post(JSON.stringify({ code: 'xx', name: 'n'.repeat(1024 * 1024) }));
    expectJson(huge, 413, { detail: 'Request body too large.' });
    expect(huge.headers.get('allow')).toBe('GET, POST, HEAD, OPTIONS');
  });

  it('answers a change the content checks refuse with every error, and writes nothing', async () => {
    expectJson(
      await post({ code: 'IT', name: 'Italiano', plural: { number: 2, formula: 'n != 1' } }),
      400,
      {
        non_field_errors: [
          'languages/IT.yaml:1:1  expected the catalog\'s spelling "it" as the file name (got "IT")',
        ],
      },
    );
    expect(existsSync(join(space.content, 'languages/IT.yaml'))).toBe(false);
  });

  it('reads a form body for the flat fields (a plural needs JSON)', async () => {
    const form = { ...AUTH, 'Content-Type': 'application/x-www-form-urlencoded' };
    expectJson(await post('code=xx_form&name=Form', form), 400, [
      'No valid plural data was provided.',
    ]);
  });

  it('left the content valid and the tree its build after every refusal', async () => {
    expect(existsSync(join(space.content, 'languages/xx_a.yaml'))).toBe(false);
    await expectTreeOfContent(space);
  });
});

describe('PUT and PATCH /api/languages/<code>/', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());

  it('renames a language: the language, each translation into it and its statistics show the new name; the comment stays', async () => {
    const served = await call(
      `${sidecar.api}languages/de/`,
      'PATCH',
      { name: 'Deutsch' },
      JSON_BODY,
    );
    expect(served.status).toBe(200);
    expect(JSON.parse(served.text)).toMatchObject({
      code: 'de',
      name: 'Deutsch',
      population: 80000000,
    });
    expect(JSON.parse((await call(`${sidecar.api}languages/de/`)).text).name).toBe('Deutsch');
    expect(JSON.parse((await call(`${sidecar.api}languages/de/statistics/`)).text).name).toBe(
      'Deutsch',
    );
    for (const component of ['alpha/glossary', 'alpha/shared', 'beta/docs']) {
      const translation = JSON.parse(
        (await call(`${sidecar.api}translations/${component}/de/`)).text,
      );
      expect(translation.language.name, component).toBe('Deutsch');
      expect(
        JSON.parse((await call(`${sidecar.api}translations/${component}/de/statistics/`)).text)
          .name,
        component,
      ).toBe('Deutsch');
    }
    expect(readFileSync(join(space.content, 'languages/de.yaml'), 'utf8')).toBe(
      '# Overrides two fields of a catalog language; the rest comes from the catalog.\nname: Deutsch\npopulation: 80000000\n',
    );
    await expectTreeOfContent(space);
  });

  it('gives a catalog language its own file holding only the changed fields', async () => {
    const served = await call(
      `${sidecar.api}languages/cs/`,
      'PUT',
      { code: 'cs', name: 'Čeština', direction: 'ltr', population: 10 },
      JSON_BODY,
    );
    expect(served.status).toBe(200);
    expect(JSON.parse(served.text)).toMatchObject({
      code: 'cs',
      name: 'Čeština',
      population: 10,
      direction: 'ltr',
    });
    expect(readFileSync(join(space.content, 'languages/cs.yaml'), 'utf8')).toBe(
      'name: Čeština\npopulation: 10\n',
    );
    await expectTreeOfContent(space);
  });

  it('guesses the direction again when it is set to ""; accepts a plural without storing it, as Weblate does', async () => {
    await call(`${sidecar.api}languages/eo/`, 'PATCH', { direction: 'rtl' }, JSON_BODY);
    expect(readFileSync(join(space.content, 'languages/eo.yaml'), 'utf8')).toBe(
      '# A catalog language nothing translates into: published because it has a file.\ndirection: rtl\n',
    );
    const served = await call(
      `${sidecar.api}languages/eo/`,
      'PATCH',
      { direction: '', plural: { number: 1, formula: '0' } },
      JSON_BODY,
    );
    expect(JSON.parse(served.text)).toMatchObject({
      direction: 'ltr',
      plural: { number: 2, formula: 'n != 1' },
    });
    await expectTreeOfContent(space);
  });

  it('requires code in a PUT, refuses a rename, checks the fields, answers 404 for an unknown code', async () => {
    expectJson(await call(`${sidecar.api}languages/de/`, 'PUT', { name: 'X' }, JSON_BODY), 400, {
      code: ['This field is required.'],
    });
    expectJson(
      await call(
        `${sidecar.api}languages/de/`,
        'PATCH',
        { code: 'de_AT', population: 1.5 },
        JSON_BODY,
      ),
      400,
      {
        code: [
          'Renaming a language is not supported here: create the new code, then delete this one.',
        ],
        population: ['A valid integer is required.'],
      },
    );
    expectJson(
      await call(
        `${sidecar.api}languages/de/`,
        'PATCH',
        { plural: { formula: 'n ? 0' } },
        JSON_BODY,
      ),
      400,
      {
        plural: { formula: ['Could not evaluate plural formula: expected ":"'] },
      },
    );
    expectJson(await call(`${sidecar.api}languages/fr/`, 'PATCH', { name: 'X' }, JSON_BODY), 404, {
      detail: 'Not found.',
    });
    expectJson(await call(`${sidecar.api}languages/fr/`, 'PATCH', '{', JSON_BODY), 404, {
      detail: 'Not found.',
    });
    expect(JSON.parse((await call(`${sidecar.api}languages/de/`)).text).name).toBe('Deutsch');
  });
});

describe('DELETE /api/translations/<p>/<c>/<l>/ and /api/languages/<code>/', () => {
  const space = workspace();
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space)));
  afterAll(async () => sidecar.stop());
  const remove = (path: string) => call(sidecar.api + path, 'DELETE', undefined, AUTH);
  const json = async (path: string) => JSON.parse((await call(sidecar.api + path)).text);

  it('removes a translation: 204, gone from every list, the counts and statistics recomputed, the comment kept', async () => {
    const before = {
      component: await json('components/alpha/strings/statistics/'),
      project: await json('projects/alpha/statistics/'),
      language: await json('languages/cs/statistics/'),
    };
    const served = await remove('translations/alpha/strings/cs/');
    expect(served.status).toBe(204);
    expect(served.text).toBe('');
    expect(served.headers.get('content-type')).toBeNull();
    expect((await call(`${sidecar.api}translations/alpha/strings/cs/`)).status).toBe(404);
    expect((await call(`${sidecar.api}translations/alpha/strings/cs/statistics/`)).status).toBe(
      404,
    );
    const listed = async (path: string) => {
      const found: string[] = [];
      for (let url: string | null = sidecar.api + path; url;) {
        const page = JSON.parse((await call(sidecar.local(url))).text);
        found.push(
          ...page.results.map((item: { url?: string; code?: string }) => item.url ?? item.code),
        );
        url = page.next;
      }
      return found;
    };
    expect(
      (await listed('translations/')).filter((url) => url.endsWith('/alpha/strings/cs/')),
    ).toEqual([]);
    expect(
      (await listed('components/alpha/strings/translations/')).filter((url) =>
        url.endsWith('/cs/'),
      ),
    ).toEqual([]);
    expect((await json('components/alpha/strings/statistics/')).count).toBe(
      before.component.count - 1,
    );
    expect((await json('projects/alpha/statistics/')).total).toBeLessThan(before.project.total);
    expect((await json('languages/cs/statistics/')).total).toBeLessThan(before.language.total);
    const text = readFileSync(
      join(space.content, 'projects/alpha/components/strings.yaml'),
      'utf8',
    );
    expect(text).not.toMatch(/^ {2}cs:/m);
    expect(text).toMatch(/^ {2}ar:\n {4}id: 101\n/m);
    await expectTreeOfContent(space);
  });

  it('refuses the source translation, derived or listed, with 403; an unknown one is a 404', async () => {
    expectJson(await remove('translations/alpha/strings/en/'), 403, {
      detail: 'Can not delete translation',
    });
    expectJson(await remove('translations/beta/docs/en/'), 403, {
      detail: 'Can not delete translation',
    });
    expectJson(await remove('translations/alpha/strings/cs/'), 404, { detail: 'Not found.' });
    expectJson(await remove('translations/alpha/nope/de/'), 404, { detail: 'Not found.' });
  });

  it('refuses to delete a source language, naming the components', async () => {
    expectJson(await remove('languages/en/'), 400, [
      'Language "en" is the source language of alpha/strings, alpha/shared, alpha/glossary, beta/docs and beta/empty; deleting it would ' +
        'delete those components. Change their source_language or delete them first.',
    ]);
  });

  it('deletes a language with its file and its translations in every component; the comments stay', async () => {
    expect((await remove('languages/de/')).status).toBe(204);
    expect(existsSync(join(space.content, 'languages/de.yaml'))).toBe(false);
    for (const component of ['alpha/glossary', 'alpha/shared', 'beta/docs']) {
      const [project, name] = component.split('/');
      expect(
        readFileSync(join(space.content, `projects/${project}/components/${name}.yaml`), 'utf8'),
        component,
      ).not.toMatch(/^ {2}de:/m);
      expect((await call(`${sidecar.api}translations/${component}/de/`)).status).toBe(404);
    }
    expect(
      readFileSync(join(space.content, 'projects/beta/components/docs.yaml'), 'utf8'),
    ).toContain('# The source translation, given explicitly instead of derived.');
    expect((await call(`${sidecar.api}languages/de/`)).status).toBe(404);
    expectJson(await remove('languages/de/'), 404, { detail: 'Not found.' });
    await expectTreeOfContent(space);
  });

  it('deletes a language defined only by its file, and one outside the catalog', async () => {
    expect((await remove('languages/eo/')).status).toBe(204);
    expect((await remove('languages/tlh_XX/')).status).toBe(204);
    expect(existsSync(join(space.content, 'languages/tlh_XX.yaml'))).toBe(false);
    await expectTreeOfContent(space);
  });
});

describe('the sidecar with --read-only', () => {
  const space = workspace('minimal');
  let sidecar: RunningSidecar;
  beforeAll(
    async () =>
      (sidecar = await startSidecar(space, {
        args: ['--read-only'],
        env: { WEBLATE_SNAPSHOT_TOKENS: '' },
      })),
  );
  afterAll(async () => sidecar.stop());

  it('says so, serves reads and answers every write 401 (no key can be valid)', async () => {
    expect(sidecar.output()).toContain('(read-only: every write refused; Ctrl+C to stop)');
    expect((await call(sidecar.api)).status).toBe(200);
    expectJson(
      await call(`${sidecar.api}languages/`, 'POST', {}, { 'Content-Type': 'application/json' }),
      401,
      NOT_AUTHENTICATED,
    );
    expectJson(await call(`${sidecar.api}languages/`, 'POST', {}, JSON_BODY), 401, {
      detail: 'Invalid token.',
    });
  });
});

describe('the sidecar with --read-only and keys', () => {
  const space = workspace('minimal');
  let sidecar: RunningSidecar;
  beforeAll(async () => (sidecar = await startSidecar(space, { args: ['--read-only'] })));
  afterAll(async () => sidecar.stop());

  it('answers a write with a valid key 403', async () => {
    expectJson(await call(`${sidecar.api}languages/`, 'POST', {}, JSON_BODY), 403, PERMISSION);
  });
});
