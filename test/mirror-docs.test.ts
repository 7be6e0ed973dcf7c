/**
 * The scheduled mirror of docs/mirror.md: the GitHub Actions workflow parses,
 * runs pull, build and deploy in that order on the folders it caches, and,
 * like the cron script and every shell block of the page, runs only npm
 * scripts that exist, with flags their commands take. Seen failing on a
 * renamed script and on a flag the command does not have.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers.ts';

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
  bin?: Record<string, string>;
};

interface Invocation {
  /** `npm run <script>` or `npx <bin>`. */
  kind: 'npm' | 'npx';
  name: string;
  flags: string[];
  line: string;
}

/** Every `npm run` and `npx` in a shell text, with the `--flags` given to it (after npm's own `--`). */
function invocations(shell: string): Invocation[] {
  const found: Invocation[] = [];
  for (const line of shell.split('\n')) {
    const npm = /\bnpm run (?:--silent |-s )?([\w:-]+)(?: -- (.*))?/.exec(line);
    if (npm) found.push({ kind: 'npm', name: npm[1]!, flags: flagsOf(npm[2] ?? ''), line });
    const npx = /\bnpx ([\w@/.-]+)(.*)/.exec(line);
    if (npx) found.push({ kind: 'npx', name: npx[1]!, flags: flagsOf(npx[2] ?? ''), line });
  }
  return found;
}

function flagsOf(text: string): string[] {
  return [...text.matchAll(/(?:^|\s)--([a-z][\w-]*)/g)].map((match) => match[1]!);
}

/** The options of the command an npm script runs (scripts/<name>.ts exports it). */
async function optionsOf(script: string): Promise<string[]> {
  const module = (await import(join(ROOT, 'scripts', `${script}.ts`))) as {
    command?: { options: Record<string, unknown> };
  };
  if (!module.command) throw new Error(`scripts/${script}.ts exports no command`);
  return [...Object.keys(module.command.options), 'help'];
}

async function expectRunnable(found: Invocation[]): Promise<void> {
  for (const call of found) {
    if (call.kind === 'npx') {
      expect(Object.keys(manifest.bin ?? {}), call.line).toContain(call.name);
      continue;
    }
    expect(Object.keys(manifest.scripts), call.line).toContain(call.name);
    const options = await optionsOf(call.name);
    for (const flag of call.flags) expect(options, `${call.line}: --${flag}`).toContain(flag);
  }
}

const workflow = parse(readFileSync(join(ROOT, 'docs/mirror/github-actions.yml'), 'utf8')) as {
  on: { schedule: { cron: string }[]; workflow_dispatch?: unknown };
  concurrency: { group: string };
  jobs: Record<string, { steps: { run?: string; uses?: string; with?: { path?: string } }[] }>;
};
const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
const runs = steps.flatMap((step) => (step.run ? [step.run] : []));

describe('the scheduled mirror of docs/mirror.md', () => {
  it('runs on GitHub Actions hourly, one run at a time, and by hand', () => {
    expect(workflow.on.schedule.map((entry) => entry.cron)).toContain('17 * * * *');
    expect(workflow.on.workflow_dispatch).toBeDefined();
    expect(workflow.concurrency.group).toBe('weblate-mirror');
  });

  it('restores the last pull and the state folder, pulls, builds, deploys, and saves them again', () => {
    const names = invocations(runs.join('\n')).map((call) => call.name);
    expect(names.filter((name) => ['pull', 'build', 'deploy'].includes(name))).toEqual([
      'pull',
      'pull',
      'build',
      'deploy',
    ]);
    const cached = steps.filter((step) => step.uses?.startsWith('actions/cache/'));
    expect(cached.map((step) => step.uses)).toEqual([
      'actions/cache/restore@v4',
      'actions/cache/save@v4',
    ]);
    for (const step of cached)
      expect(step.with?.path?.trim().split('\n').sort()).toEqual(['dist.state', 'mirror']);
    expect(steps.indexOf(cached[0]!)).toBeLessThan(
      steps.findIndex((step) => step.run?.includes('npm run pull')),
    );
  });

  it('runs in the workflow only npm scripts that exist, with flags their commands take', async () => {
    const found = invocations(runs.join('\n'));
    expect(found.length).toBe(4);
    await expectRunnable(found);
  });

  it('runs in the cron script and in the shell blocks of the page only npm scripts that exist, with flags their commands take', async () => {
    const script = readFileSync(join(ROOT, 'docs/mirror/mirror.sh'), 'utf8');
    const page = readFileSync(join(ROOT, 'docs/mirror.md'), 'utf8');
    const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const found = invocations([script, ...blocks].join('\n'));
    expect(found.map((call) => call.name)).toEqual([
      'pull',
      'build',
      'deploy',
      'pull',
      'build',
      'deploy',
    ]);
    await expectRunnable(found);
    // The weekly full pull is set aside in a variable: it is a flag of pull too.
    expect(script).toContain('full=--full');
    expect(await optionsOf('pull')).toContain('full');
  });
});
