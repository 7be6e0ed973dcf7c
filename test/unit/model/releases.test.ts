/**
 * The table of releases: what hasTrait answers for real releases, patch levels and the two legacy
 * names, and the 5.17 trait no golden shows (a component sharing another's repository).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasTrait, isRelease, shapesOf } from '../../../src/model/releases.ts';
import { buildInMemory, tempDir, writeFiles } from '../../helpers.ts';

describe('hasTrait', () => {
  it('keys a trait on its release and the patch levels after it', () => {
    expect(hasTrait('5.9', 'noStatsExports')).toBe(false);
    expect(hasTrait('5.10', 'noStatsExports')).toBe(true);
    expect(hasTrait('5.10.4', 'largePagination4')).toBe(false);
    expect(hasTrait('2026.5', 'largePagination4')).toBe(true);
  });

  it('gives the legacy names the traits of the bytes they always built', () => {
    expect(shapesOf('4')).toBe('4');
    expect(hasTrait('4', 'currentPluralTypes')).toBe(false);
    expect(shapesOf('2026.8')).toBe('2026.8');
    expect(hasTrait('2026.8', 'noStatsExports')).toBe(false);
    expect(hasTrait('2026.8', 'largePagination4')).toBe(true);
    expect(hasTrait('2026.8.1', 'noStatsExports')).toBe(true);
  });

  it('accepts the releases of the table only', () => {
    expect(['4', '4.14', '5.0.1', '5.17', '2026.8', '2026.11'].every(isRelease)).toBe(true);
    expect(['4.13', '5', '5.18', '2026.4', '2026.12', 'latest'].some(isRelease)).toBe(false);
  });
});

describe('sharedRepositorySettings', () => {
  const shared = async (version: string) => {
    const dir = join(tempDir(), 'content');
    const component = (name: string, lines: string[]) =>
      [
        `name: ${name}`,
        'source_language: en',
        'file_format: po',
        'source: {total: 1}',
        ...lines,
        '',
      ].join('\n');
    writeFiles(dir, {
      'site.yaml': `base_url: https://l10n.test\nweblate_version: "${version}"\n`,
      'projects/p/project.yaml': 'name: P\n',
      'projects/p/components/main.yaml': component('Main', [
        'repo: https://git.example.org/p.git',
        'filemask: po/*.po',
        'push_on_commit: false',
      ]),
      'projects/p/components/other.yaml': component('Other', [
        'repo: weblate://p/main',
        'filemask: other/*.po',
      ]),
    });
    const built = await buildInMemory(dir);
    expect(built.report.errors).toEqual([]);
    const body = built.files.get('api/components/p/other/index.json')!.toString();
    return (JSON.parse(body) as { push_on_commit: boolean }).push_on_commit;
  };

  it("shows the shared component's push_on_commit from 5.17, its own before", async () => {
    expect(await shared('5.16')).toBe(true);
    expect(await shared('5.17')).toBe(false);
  });
});
