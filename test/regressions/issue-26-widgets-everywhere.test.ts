/**
 * Issue 26, item 3: Weblate serves its PNG badge and bitmap widgets for every object, not only
 * for a project. With `png_widgets: all` (site.yaml, or `--png-widgets all`) the widget folders
 * of a component, a project's language and a translation hold them too, in both flavours' URL
 * forms, and nginx serves them as PNG; by default (`projects`) none of them is written.
 */
import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { renderCloudflareHeaders } from '../../src/hosts/cloudflare.ts';
import { FIXTURES, scriptArgs, tempDir, testSettings } from '../helpers.ts';
import { buildFor, freePort, get, startNginxForTree, type Started } from '../e2e/servers.ts';
import { decodePng, hex } from '../support/png.ts';

const run = promisify(execFile);

const flavours = [
  {
    flavour: '4',
    fixture: 'minimal',
    base: '',
    folders: ['widgets/hello/-/app/', 'widgets/hello/cs/', 'widgets/hello/cs/app/'],
    /** How many translations the component (the first folder's) has. */
    languages: 2,
  },
  {
    flavour: '2026.8',
    fixture: 'current',
    base: '/mirror',
    folders: ['widget/docs/guides/manual/', 'widget/docs/-/cs/', 'widget/docs/guides/manual/cs/'],
    languages: 3,
  },
] as const;

/** The PNGs each of those folders holds: the width and height Weblate draws them at, their background. */
const SIZED = [
  ['287x66-grey.png', 287, 66, '#e6e6e6', [4, 33]],
  ['287x66-white.png', 287, 66, '#ffffff', [4, 33]],
  ['287x66-black.png', 287, 66, '#222222', [4, 33]],
  ['88x31-grey.png', 88, 31, '#e6e6e6', [3, 15]],
  ['88x31-white.png', 88, 31, '#ffffff', [3, 15]],
  ['88x31-black.png', 88, 31, '#222222', [3, 15]],
] as const;

/** Whether the project's widgets page offers a folder's PNG badge and bitmap widgets (each color). */
function offersPngs(out: string, base: string, folder: string): boolean[] {
  const project = folder.split('/')[1]!;
  const page = readFileSync(join(out, 'widgets', project, 'index.html'), 'utf8');
  return ['status-badge.png', '287x66-grey.png', '88x31-grey.png', '88x31-black.png'].map((name) =>
    page.includes(`${base}/${folder}${name}`),
  );
}

const servers: Started[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
});

/** A copy of a fixture's content with lines added to its site.yaml. */
function contentWith(fixture: string, siteLines: string): string {
  const content = join(tempDir('wsnap-widgets-'), 'content');
  cpSync(join(FIXTURES, fixture, 'content'), content, { recursive: true });
  appendFileSync(join(content, 'site.yaml'), siteLines);
  return content;
}

async function built(fixture: string, siteLines: string, args: string[] = []) {
  const port = await freePort();
  const out = join(tempDir('wsnap-widgets-'), 'dist');
  const content = contentWith(fixture, `pages: true\n${siteLines}`);
  return buildFor(content, port, out, args);
}

/** A PNG's width and height, and the color at a point of its background. */
function pngAt(bytes: Buffer, [x, y]: readonly [number, number]): [number, number, string] {
  const image = decodePng(bytes);
  return [image.width, image.height, hex(image.at(x, y))];
}

describe.each(flavours)('the PNG widgets below a project (flavour $flavour)', (case_) => {
  it('are written with png_widgets: all, at their sizes, and nginx serves them as PNG', async () => {
    const site = await built(case_.fixture, 'png_widgets: all\n');
    for (const folder of case_.folders) {
      for (const [name, width, height, background, point] of SIZED) {
        const png = readFileSync(join(site.out, folder, name));
        expect(pngAt(png, point), folder + name).toEqual([width, height, background]);
      }
      // The PNG badge is the SVG badge's drawing: as wide, 20 high.
      const svg = readFileSync(join(site.out, folder, 'svg-badge.svg'), 'utf8');
      const badge = pngAt(readFileSync(join(site.out, folder, 'status-badge.png')), [0, 0]).slice(
        0,
        2,
      );
      expect(badge).toEqual([Number(/width="(\d+)"/.exec(svg)![1]), 20]);
    }
    // The widgets page lists components and languages within the project, not translations.
    for (const folder of case_.folders.slice(0, 2))
      expect(offersPngs(site.out, case_.base, folder), folder).toEqual([true, true, true, true]);
    if (spawnSync('nginx', ['-v']).status !== 0) return;
    servers.push(await startNginxForTree(site.out, join(dirname(site.out), 'nginx'), site.origin));
    for (const folder of case_.folders) {
      const answer = await get(`${site.origin}${case_.base}/${folder}88x31-black.png`);
      expect(answer.status, folder).toBe(200);
      expect(answer.headers.get('content-type')).toBe('image/png');
    }
  });

  it('give a component its language badge by default, counting its translations', async () => {
    const site = await built(case_.fixture, '');
    const component = case_.folders[0];
    const badge = readFileSync(join(site.out, component, 'language-badge.svg'), 'utf8');
    expect(badge).toContain(`<title>languages: ${case_.languages}</title>`);
    const page = readFileSync(
      join(site.out, 'widgets', component.split('/')[1]!, 'index.html'),
      'utf8',
    );
    expect(page).toContain(`${case_.base}/${component}language-badge.svg`);
  });

  it('are not written by default', async () => {
    const site = await built(case_.fixture, '');
    for (const folder of case_.folders) {
      expect(existsSync(join(site.out, folder, 'svg-badge.svg')), folder).toBe(true);
      for (const name of ['status-badge.png', ...SIZED.map(([file]) => file)])
        expect(existsSync(join(site.out, folder, name)), folder + name).toBe(false);
    }
    for (const folder of case_.folders.slice(0, 2))
      expect(offersPngs(site.out, case_.base, folder), folder).toEqual([
        false,
        false,
        false,
        false,
      ]);
  });
});

describe("Cloudflare Pages' _headers with png_widgets: all", () => {
  it.each(['4', '2026.11'] as const)(
    'stay within 100 rules, typing the widgets by extension (flavour %s)',
    (version) => {
      const settings = testSettings({
        baseUrl: 'https://l10n.example.org/mirror',
        weblateVersion: version,
        pages: true,
        pngWidgets: 'all',
      });
      const headers = renderCloudflareHeaders(settings);
      // A rule is a path line; its headers are indented below it.
      expect(headers.split('\n').filter((line) => line.startsWith('/')).length).toBeLessThanOrEqual(
        100,
      );
      expect(headers).not.toContain('image/svg+xml');
    },
  );
});

describe('--png-widgets', () => {
  it('overrides site.yaml', async () => {
    const site = await built('minimal', 'png_widgets: projects\n', ['--png-widgets', 'all']);
    expect(existsSync(join(site.out, 'widgets/hello/cs/app/287x66-grey.png'))).toBe(true);
  });

  it('is said among the settings in effect, and leaving it out takes the PNGs away', async () => {
    const out = join(tempDir('wsnap-widgets-'), 'dist');
    const build = [...scriptArgs('build'), '--content', contentWith('minimal', ''), '--out', out];
    const first = await run(process.execPath, [...build, '--png-widgets', 'all']);
    expect(first.stdout + first.stderr).toContain(
      'PNG widgets all (--png-widgets; site.yaml: projects)',
    );
    expect(existsSync(join(out, 'widgets/hello/cs/app/88x31-grey.png'))).toBe(true);
    const second = await run(process.execPath, build);
    expect(second.stdout + second.stderr).toContain('(PNG widgets all → projects)');
    expect(existsSync(join(out, 'widgets/hello/cs/app/88x31-grey.png'))).toBe(false);
  });

  it('refuses another value, naming the flag, and writes nothing', async () => {
    const out = join(tempDir('wsnap-widgets-'), 'dist');
    const content = contentWith('minimal', '');
    const build = [...scriptArgs('build'), '--content', content, '--out', out];
    const failed = await run(process.execPath, [...build, '--png-widgets', 'every']).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain('--png-widgets expects "projects" or "all" (got "every")');
    expect(failed?.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(out)).toBe(false);
  });
});
