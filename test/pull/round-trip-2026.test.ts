/**
 * Round trips of today's Weblate (the 2026.8 flavour): the content of
 * test/fixtures/current (categories three deep, a glossary, a language
 * outside the catalog, a shared repository, every counter) is built and
 * served by the real sidecar on loopback, pulled with the real command into a
 * new folder, and that folder builds into the same tree byte for byte, with
 * path pages, `?page=N` pages and pages of 1. An incremental pull into that
 * pull rewrites no file when nothing changed, and after a change writes what
 * a full pull writes.
 */
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../../src/build.ts';
import { dirTarget } from '../../src/output/target.ts';
import { defaultPullDeps, pull, type PullReport } from '../../src/pull/pull.ts';
import { RECORD_FILE } from '../../src/pull/record.ts';
import { STATE_FILE } from '../../src/pull/state.ts';
import { openContent } from '../../src/resolve/open.ts';
import type { SettingsOverrides } from '../../src/resolve/resolve.ts';
import { FIXTURES, readTree, tempDir } from '../helpers.ts';
import { startProxy, type Proxy } from '../support/proxy.ts';
import { runCli } from '../support/run-cli.ts';
import { startUpstreamSidecar, type UpstreamSidecar, type Workspace } from '../sidecar/support.ts';

const CURRENT = join(FIXTURES, 'current/content');

const running: { sidecar?: UpstreamSidecar; proxy?: Proxy } = {};

afterEach(async () => {
  await running.sidecar?.stop();
  await running.proxy?.close();
  running.sidecar = undefined;
  running.proxy = undefined;
});

/**
 * The sidecar over a copy of the current fixture, read-only, with the site
 * settings as flags, behind a loopback proxy that keeps one URL when the
 * sidecar starts again; `api` is the API root through the proxy.
 */
async function serveLikeWeblate(
  settings: SettingsOverrides,
  fixture = CURRENT,
  prepare: (content: string) => void = () => undefined,
) {
  const dir = tempDir();
  const space: Workspace = { dir, content: join(dir, 'content'), out: join(dir, 'served') };
  cpSync(fixture, space.content, { recursive: true });
  prepare(space.content);
  const flags = ['--read-only'];
  if (settings.pagination) flags.push('--pagination', settings.pagination);
  if (settings.pageSize) flags.push('--page-size', String(settings.pageSize));
  if (settings.weblateVersion) flags.push('--weblate-version', settings.weblateVersion);
  const start = (more: string[] = []) =>
    startUpstreamSidecar(space, {
      args: [...flags, ...more],
      env: { WEBLATE_SNAPSHOT_TOKENS: '' },
    });
  running.sidecar = await start();
  running.proxy = await startProxy(running.sidecar.origin);
  return {
    dir,
    space,
    api: `${running.proxy.url}${new URL(running.sidecar.api).pathname}`,
    /** Stops the sidecar, lets `edit` change its content, and starts it again behind the same proxy, with `more` flags. */
    async restart(edit: (content: string) => void, more: string[] = []) {
      await running.sidecar!.stop();
      edit(space.content);
      running.sidecar = await start(more);
      running.proxy!.upstream = running.sidecar.origin;
    },
  };
}

/**
 * Every project, category and component setting of 2026.8 away from its
 * default (switches too, each where its file would imply the other value),
 * added to the fixture's files.
 */
function everySetting(content: string): void {
  const add = (file: string, text: string) =>
    writeFileSync(join(content, file), readFileSync(join(content, file), 'utf8') + text);
  add(
    'projects/app/project.yaml',
    'web: https://app.example.org\nsource_review: true\ninstructions: Be brief.\nenable_hooks: false\nlanguage_aliases: "cz:cs"\n' +
      'check_flags: safe-html\ncommit_policy: 30\naccess_control: 1\nuse_shared_tm: false\ncontribute_shared_tm: false\n' +
      'use_workspace_tm: true\ncontribute_workspace_tm: true\nautoclean_tm: true\nenforced_2fa: true\nagreement: Sign first.\n' +
      'new_lang: url\nlanguage_code_style: bcp\nsecondary_language: cs\nadd_message: "add {{ language_name }}"\n' +
      'delete_message: "remove {{ language_name }}"\nmerge_message: merge\naddon_message: addon\npull_message: pull\n' +
      'inherit_license: true\ninherit_pull_message: true\n',
  );
  add(
    'projects/docs/categories/guides.yaml',
    'agreement: Guides agreement\nlanguage_code_style: posix\nsecondary_language: uk\ninherit_new_lang: false\n' +
      'pull_message: guides pull\ninherit_pull_message: true\n',
  );
  add(
    'projects/app/components/android.yaml',
    'vcs: github\ngit_export: https://git.example.org/export/app\npush_branch: l10n\nintermediate: res/values-en/strings.xml\n' +
      'new_base: res/values/base.xml\nlicense: MIT\nlicense_url: https://example.org/mit\nagreement: Android agreement\n' +
      'new_lang: contact\nlanguage_code_style: android\ncheck_flags: "max-length:80"\npriority: 80\nrestricted: true\n' +
      'repoweb: "https://git.example.org/app/{{filename}}"\nreport_source_bugs: bugs@example.org\nmerge_style: merge\n' +
      'commit_message: "android {{ language_name }}"\nallow_translation_propagation: false\nmanage_units: true\n' +
      'enable_suggestions: false\nsuggestion_voting: true\nsuggestion_autoaccept: 2\nlanguage_regex: "^[a-z]+$"\n' +
      'variant_regex: "_(?P<variant>.*)$"\nglossary_color: navy\nscreenshot_filemask: "shots/*.png"\n' +
      'file_format_params: {xml_closing_tags: true}\nhide_glossary_matches: true\ncontribute_project_tm: false\n' +
      'key_filter: "^app_"\nsecondary_language: ar\ninherit_license: true\ninherit_merge_message: false\n',
  );
}

const cases: [string, SettingsOverrides, (content: string) => void][] = [
  ['path pages of 2 (as the fixture says)', {}, () => undefined],
  ['?page=N pages of 2', { pagination: 'query' }, () => undefined],
  ['?page=N pages of 1', { pagination: 'query', pageSize: 1 }, () => undefined],
  ['path pages of 1', { pageSize: 1 }, () => undefined],
  ['every setting away from its default', {}, everySetting],
];

describe.each(cases)('a round trip of the current fixture with %s', (_, settings, prepare) => {
  it('pulls content in the 2026.8 flavour that builds into the tree the sidecar serves, byte for byte', async () => {
    const server = await serveLikeWeblate(settings, CURRENT, prepare);
    const pulled = join(server.dir, 'pulled');
    const result = await runCli('pull', ['--from', server.api, '--out', pulled]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Pulled 2 projects, 5 components, 12 translations and 6 languages from /,
    );
    expect(readFileSync(join(pulled, 'site.yaml'), 'utf8')).toContain(
      '\nweblate_version: "2026.8"\n',
    );
    expect(readdirSync(join(pulled, 'projects/docs/categories')).sort()).toEqual([
      'api.yaml',
      'guides.yaml',
      'internals.yaml',
    ]);
    expect((await openContent(pulled)).ok).toBe(true);

    const rebuilt = join(server.dir, 'rebuilt');
    expect((await build({ contentDir: pulled }, { target: dirTarget(rebuilt) })).errors).toEqual(
      [],
    );
    expectSameTree(readTree(rebuilt), readTree(server.space.out));
  });
});

describe('an incremental pull of the current flavour from the sidecar', () => {
  it('rewrites no file when nothing changed, and writes what a full pull writes after a change', async () => {
    const server = await serveLikeWeblate({ pageSize: 1 });
    const out = join(server.dir, 'mirror');
    expect((await pullInto(server.api, out)).kept).toBeNull();
    const before = stamps(out);

    running.proxy!.log.length = 0;
    const again = await pullInto(server.api, out);
    expect(again).toMatchObject({ files: 0, kept: 5 });
    expect(stamps(out)).toEqual(before);
    // The root, the language, project and category lists, the changes feed, each project's statistics: nothing of a component.
    expect(running.proxy!.log.filter((r) => r.url.includes('/components/'))).toEqual([]);
    expect(running.proxy!.log.some((r) => r.url.includes('/categories/'))).toBe(true);

    await server.restart((dir) => {
      edit(join(dir, 'projects/docs/categories/api.yaml'), 'name: API', 'name: Interfaces');
      edit(
        join(dir, 'projects/docs/components/manual.yaml'),
        '    fuzzy_chars: 240\n',
        '    fuzzy_chars: 200\n',
      );
    });
    const changed = await pullInto(server.api, out);
    expect(changed.kept).toBeGreaterThan(0);
    expect(readFileSync(join(out, 'projects/docs/categories/api.yaml'), 'utf8')).toContain(
      'name: Interfaces\n',
    );
    expect(readFileSync(join(out, 'projects/docs/components/manual.yaml'), 'utf8')).toContain(
      '    fuzzy_chars: 200\n',
    );
    const fresh = join(server.dir, 'full');
    await pullInto(server.api, fresh, true);
    expect(content(out)).toEqual(content(fresh));

    const rebuilt = join(server.dir, 'rebuilt');
    expect((await build({ contentDir: out }, { target: dirTarget(rebuilt) })).errors).toEqual([]);
    expectSameTree(readTree(rebuilt), readTree(server.space.out));
  });
});

describe('a pull into an earlier pull of an instance upgraded from Weblate 4.x to today', () => {
  it('reads everything again and writes the 2026.8 flavour, as a full pull does', async () => {
    const server = await serveLikeWeblate({}, join(FIXTURES, 'minimal/content'));
    const out = join(server.dir, 'mirror');
    await pullInto(server.api, out);
    expect(readFileSync(join(out, 'site.yaml'), 'utf8')).not.toContain('weblate_version');

    await server.restart(() => undefined, ['--weblate-version', '2026.8', '--rebuild']);
    const upgraded = await pullInto(server.api, out);
    expect(upgraded).toMatchObject({ kept: 0 });
    expect(readFileSync(join(out, 'site.yaml'), 'utf8')).toContain('\nweblate_version: "2026.8"\n');
    const fresh = join(server.dir, 'full');
    await pullInto(server.api, fresh, true);
    expect(content(out)).toEqual(content(fresh));
  });
});

async function pullInto(
  from: string,
  out: string,
  full = false,
): Promise<Extract<PullReport, { ok: true }>> {
  const report = await pull({ from, outDir: out, full, http: { retries: 0 } }, defaultPullDeps());
  if (!report.ok)
    throw new Error(`the pull failed: ${report.message}\n${JSON.stringify(report.errors)}`);
  expect(readdirSync(out)).not.toContain(STATE_FILE);
  return report;
}

function edit(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text).toContain(from);
  writeFileSync(file, text.replace(from, to));
}

/** The content a pull wrote, its record aside. */
function content(out: string): Map<string, string> {
  const tree = readTree(out);
  tree.delete(RECORD_FILE);
  return tree;
}

/** Each content file's inode and time (the record aside): a file rewritten, even with the same bytes, gets others. */
function stamps(out: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const path of readdirSync(out, { recursive: true, encoding: 'utf8' })) {
    const info = statSync(join(out, path), { bigint: true });
    if (info.isFile() && path !== RECORD_FILE) files.set(path, `${info.ino}:${info.mtimeNs}`);
  }
  return files;
}

function expectSameTree(actual: Map<string, string>, expected: Map<string, string>): void {
  expect([...actual.keys()]).toEqual([...expected.keys()]);
  for (const [path, text] of expected) expect(actual.get(path), path).toBe(text);
}
