/**
 * inferRelease: the release a pull writes, from the API root's keys and how long the component
 * statistics pages are against the other lists' pages (issue 25).
 */
import { describe, expect, it } from 'vitest';
import { NEWEST_RELEASE } from '../../../src/model/releases.ts';
import { inferPageSize, inferRelease } from '../../../src/pull/map.ts';
import type { ListObservation, PulledInstance } from '../../../src/pull/walk.ts';

const API = 'https://weblate.example.org/api';
const ROOT_5 = ['projects', 'components', 'languages', 'categories'];

function instance(
  rootKeys: readonly string[] | undefined,
  statisticsPage: number,
  flavour: '4' | '2026.8' = '2026.8',
): PulledInstance {
  const lists: ListObservation[] = [
    { url: `${API}/projects/`, count: 5, firstPageLength: 2, next: `${API}/projects/?page=2` },
    {
      url: `${API}/components/p/c/statistics/`,
      count: 20,
      firstPageLength: statisticsPage,
      next: `${API}/components/p/c/statistics/?page=2`,
    },
  ];
  return {
    apiRoot: `${API}/`,
    lists,
    languages: [],
    projects: [],
    partial: false,
    date: null,
    warnings: [],
    flavour,
    ...(rootKeys ? { rootKeys } : {}),
  };
}

describe('inferRelease', () => {
  it('tells 5.0-5.9, 5.10 and 5.11 on by the statistics pages of a root without suggestions', () => {
    expect(inferRelease(instance(ROOT_5, 2))).toBe('5.2');
    expect(inferRelease(instance(ROOT_5, 4))).toBe('5.10');
    expect(inferRelease(instance(ROOT_5, 8))).toBe('5.11');
  });

  it('tells 5.0.1 and 5.1 ("5.1") from 5.2-5.9 by statistics of 21 counters', () => {
    expect(inferRelease({ ...instance(ROOT_5, 2), statisticsCounters: 21 })).toBe('5.1');
    expect(inferRelease({ ...instance(ROOT_5, 2), statisticsCounters: 33 })).toBe('5.2');
  });

  it('tells a later release by the fields its projects and components were seen with', () => {
    const seen = (project: string[], component: string[]) =>
      inferRelease({ ...instance(ROOT_5, 2), fieldsSeen: { project, component } });
    expect(seen(['name'], ['name'])).toBe('5.2');
    expect(seen(['labels_url'], ['name'])).toBe('5.3');
    expect(seen(['labels_url'], ['linked_component'])).toBe('5.4');
    expect(seen(['labels_url', 'machinery_settings'], ['key_filter'])).toBe('5.9');
  });

  it('writes the newest release for a root with suggestions whose statistics answer CSV', () => {
    const current = instance([...ROOT_5, 'suggestions'], 8);
    expect(inferRelease(current)).toBe(NEWEST_RELEASE);
    expect(inferRelease({ ...current, statisticsFormats: true })).toBe(NEWEST_RELEASE);
  });

  it('writes "2026.8" for a snapshot built as "2026.8" (no CSV), or a root not read', () => {
    const legacy = { ...instance([...ROOT_5, 'suggestions'], 8), statisticsFormats: false };
    expect(inferRelease(legacy)).toBe('2026.8');
    expect(inferRelease(instance(undefined, 8))).toBe('2026.8');
  });

  it('writes "4" for a 4.x instance', () => {
    expect(inferRelease(instance(['projects'], 2, '4'))).toBe('4');
  });

  it('reads the page size with the factor of the release it tells', () => {
    expect(inferPageSize(instance(ROOT_5, 4).lists, '5.10')).toBe(2);
    expect(inferPageSize(instance(ROOT_5, 2).lists, '5.0')).toBe(2);
  });
});
