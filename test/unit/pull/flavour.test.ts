import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  detectFlavour,
  statisticsCountersOf,
  type FlavourEvidence,
} from '../../../src/pull/flavour.ts';
import { FIXTURES } from '../../helpers.ts';

/** A recorded body: `api/<path>/index.json` of a fixture's responses; the first result of a list with `first`. */
function body(fixture: string, path: string, first = false): Record<string, unknown> {
  const parsed = JSON.parse(
    readFileSync(join(FIXTURES, fixture, 'responses/api', path, 'index.json'), 'utf8'),
  );
  return first ? parsed.results[0] : parsed;
}

/** Everything a pull of the fixture reads that tells the flavour. */
function evidenceOf(fixture: string, component: string): FlavourEvidence {
  return {
    root: body(fixture, ''),
    language: body(fixture, 'languages', true),
    project: body(fixture, 'projects', true),
    statistics: body(fixture, `components/${component}/statistics`, true),
    translation: body(fixture, `components/${component}/translations`, true),
  };
}

const WEBLATE_4 = evidenceOf('pull-recorded', 'fossapp/glossary');
const CURRENT = evidenceOf('pull-recorded-current', 'grass/desktop%2Fwxpy');

describe('detectFlavour', () => {
  it('places the recorded Weblate 4.14 answers in the 4 flavour', () => {
    expect(detectFlavour(WEBLATE_4)).toEqual({ ok: true, version: '4' });
  });

  it('places the recorded answers of a current Weblate in the 2026.8 flavour', () => {
    expect(detectFlavour(CURRENT)).toEqual({ ok: true, version: '2026.8' });
  });

  it.each<[string, Partial<FlavourEvidence>]>([
    ['the root alone', {}],
    ['the root and a language', { language: CURRENT.language }],
    [
      'the root, a language and a project',
      { language: CURRENT.language, project: CURRENT.project },
    ],
  ])('places a current instance from %s (what a walk has read when it starts)', (_, seen) => {
    expect(detectFlavour({ root: CURRENT.root, ...seen })).toEqual({ ok: true, version: '2026.8' });
  });

  it('takes a statistics layout or a share URL in neither form as saying nothing', () => {
    const statistics = { total: 1, code: 'cs' };
    const translation = { share_url: 'https://weblate.example.org/something/else/' };
    expect(detectFlavour({ ...WEBLATE_4, statistics, translation })).toEqual({
      ok: true,
      version: '4',
    });
  });

  it("places 4.x's statistics beside today's objects (Weblate 5.0 and 5.1) in today's flavour", () => {
    expect(detectFlavour({ ...CURRENT, statistics: WEBLATE_4.statistics })).toEqual({
      ok: true,
      version: '2026.8',
    });
    expect(statisticsCountersOf(WEBLATE_4.statistics)).toBe(21);
    expect(statisticsCountersOf(CURRENT.statistics)).toBe(33);
  });

  it.each<[string, Partial<FlavourEvidence>, string]>([
    [
      'a language with an id under a 4.x root',
      { root: WEBLATE_4.root },
      'the API root lists no categories, as in Weblate 4.x; but a language has an id, a project links its categories, ' +
        'statistics have 33 counters, total_chars third, share URLs read /engage/<project>/-/<language>/, as in Weblate 5.x and later',
    ],
    [
      "4.x's share URLs beside today's objects",
      { translation: WEBLATE_4.translation },
      'share URLs read /engage/<project>/<language>/, as in Weblate 4.x; but the API root lists categories, a language has an id, ' +
        'a project links its categories, statistics have 33 counters, total_chars third, as in Weblate 5.x and later',
    ],
  ])('refuses %s, saying which bodies point where', (_, mixed, reason) => {
    expect(detectFlavour({ ...CURRENT, ...mixed })).toEqual({ ok: false, reason });
  });
});
