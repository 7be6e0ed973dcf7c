/**
 * The mirror's recipes of docs/mirror.md, held against the command line: the action (action.yml
 * and its scripts), the GitHub Actions workflow that uses it, the cron script, the systemd unit
 * and the page's shell blocks run only commands that exist, with flags those commands take, and
 * use only inputs the action declares. Seen failing on a renamed flag and an undeclared input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from './helpers.ts';

interface Action {
  inputs: Record<string, { required?: boolean }>;
  runs: { using: string; steps: Step[] };
}
interface Step {
  if?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: { schedule: { cron: string }[]; workflow_dispatch?: unknown };
  permissions: Record<string, string>;
  concurrency: { group: string };
  jobs: Record<string, { steps: Step[] }>;
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const action = parse(read('action.yml')) as Action;
const workflow = parse(read('docs/mirror/github-actions.yml')) as Workflow;
const workflowSteps = Object.values(workflow.jobs).flatMap((job) => job.steps);

/** Every `weblate-snapshot <command>` in a text, with the `--flags` on its line. */
function invocations(text: string): { command: string; flags: string[]; line: string }[] {
  return [...text.matchAll(/\bweblate-snapshot (\w[\w-]*)(.*)/g)].map((match) => ({
    command: match[1]!,
    flags: [...match[2]!.matchAll(/(?:^|\s)--([a-z][\w-]*)/g)].map((flag) => flag[1]!),
    line: match[0],
  }));
}

/** The options of a command of the command line (scripts/<command>.ts exports it). */
async function optionsOf(command: string): Promise<string[]> {
  const module = (await import(join(ROOT, 'scripts', `${command}.ts`))) as {
    command?: { options: Record<string, unknown> };
  };
  if (!module.command) throw new Error(`scripts/${command}.ts exports no command`);
  return [...Object.keys(module.command.options), 'help', 'version'];
}

async function expectRunnable(found: ReturnType<typeof invocations>): Promise<void> {
  for (const call of found) {
    const options = await optionsOf(call.command);
    for (const flag of call.flags) expect(options, `${call.line}: --${flag}`).toContain(flag);
  }
}

/** The flags run.sh gives `weblate-snapshot mirror`, from the lines that build its arguments. */
function runScriptFlags(): string[] {
  const lines = read('action/run.sh')
    .split('\n')
    .filter((line) => /\bargs\+?=\(/.test(line));
  return lines
    .flatMap((line) => [...line.matchAll(/\(--([a-z][\w-]*)|\s--([a-z][\w-]*)/g)])
    .map((match) => (match[1] ?? match[2])!);
}

describe('the action', () => {
  it('is a composite action whose steps run its scripts, with inputs it declares', () => {
    expect(action.runs.using).toBe('composite');
    const text = read('action.yml');
    const used = [...text.matchAll(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(0);
    for (const input of used) expect(Object.keys(action.inputs), input).toContain(input);
    for (const input of ['from', 'to', 'base-url', 'endpoint', 'projects', 'region', 'token'])
      expect(Object.keys(action.inputs)).toContain(input);
    const scripts = action.runs.steps.flatMap((step) =>
      step.run ? [...step.run.matchAll(/\$GITHUB_ACTION_PATH\/([\w/.-]+)/g)].map((m) => m[1]!) : [],
    );
    expect(scripts).toEqual(['action/install.sh', 'action/run.sh']);
    for (const script of scripts) expect(() => read(script)).not.toThrow();
  });

  it('passes every input run.sh reads, and run.sh gives mirror only flags it takes', async () => {
    const mirrorStep = action.runs.steps.find((step) => step.run?.includes('run.sh'))!;
    const given = Object.keys(mirrorStep.env ?? {}).sort();
    const readByScript = [...new Set(read('action/run.sh').match(/\bINPUT_[A-Z_]+/g))].sort();
    expect(readByScript).toEqual(given);
    expect(read('action/run.sh')).toContain('exec weblate-snapshot "${args[@]}"');
    const options = await optionsOf('mirror');
    const flags = runScriptFlags();
    expect(flags).toContain('from');
    for (const flag of flags) expect(options, `--${flag}`).toContain(flag);
  });

  it('keeps the working folder of a folder target in the Actions cache, on Node 24', () => {
    const uses = action.runs.steps.map((step) => step.uses).filter(Boolean);
    expect(uses).toEqual([
      'actions/setup-node@v6',
      'actions/cache/restore@v5',
      'actions/cache/save@v5',
    ]);
    const node = action.runs.steps.find((step) => step.uses?.startsWith('actions/setup-node'))!;
    expect(node.with?.['node-version']).toBe(24);
    const restore = action.runs.steps.find((step) => step.uses === 'actions/cache/restore@v5')!;
    expect(restore.with?.key).toMatch(/github\.run_id/);
    expect(restore.with?.['restore-keys']).toBe('weblate-mirror-');
    // A bucket keeps its state in the store: the cache is for a folder target only.
    for (const step of action.runs.steps.filter((step) => step.uses?.startsWith('actions/cache')))
      expect(step.if).toContain("!startsWith(inputs.to, 's3://')");
  });
});

describe('the workflow of docs/mirror.md', () => {
  it('runs hourly, one run at a time, reading the repository only, with OIDC credentials', () => {
    expect(workflow.on.schedule.map((entry) => entry.cron)).toContain('17 * * * *');
    expect(workflow.on.workflow_dispatch).toBeDefined();
    expect(workflow.concurrency.group).toBe('weblate-mirror');
    expect(workflow.permissions).toEqual({ contents: 'read', 'id-token': 'write' });
    const aws = workflowSteps.find((step) => step.uses?.startsWith('aws-actions/'))!;
    expect(aws.uses).toBe('aws-actions/configure-aws-credentials@v6');
    expect(aws.with?.['role-to-assume']).toMatch(/^arn:aws:iam::/);
  });

  it('uses the action with inputs it declares, all it requires among them', () => {
    const step = workflowSteps.find((s) => s.uses?.endsWith('/weblate-snapshot@v1'))!;
    const given = Object.keys(step.with ?? {});
    for (const input of given) expect(Object.keys(action.inputs), input).toContain(input);
    for (const [input, spec] of Object.entries(action.inputs))
      if (spec.required) expect(given).toContain(input);
    for (const input of ['region', 'endpoint', 'base-url']) expect(given).toContain(input);
  });
});

describe('the cron script, the systemd unit and the page', () => {
  it('run one weblate-snapshot mirror each, with flags it takes', async () => {
    const uncommented = (text: string) =>
      text
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join('\n');
    const script = uncommented(read('docs/mirror/mirror.sh'));
    const unit = uncommented(read('docs/mirror/weblate-mirror.service'));
    const found = [...invocations(script), ...invocations(unit)];
    expect(found.map((call) => call.command)).toEqual(['mirror', 'mirror']);
    for (const call of found) expect(call.flags).toContain('work');
    expect(invocations(unit)[0]!.flags).toEqual(
      expect.arrayContaining(['endpoint', 'every', 'listen']),
    );
    expect(script).toMatch(/^PATH=/m);
    expect(script).toContain('--endpoint $ENDPOINT');
    await expectRunnable(found);
  });

  it('shows in its shell blocks only commands and flags that exist', async () => {
    const page = read('docs/mirror.md');
    const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const found = invocations(blocks.join('\n'));
    expect(found.length).toBeGreaterThan(0);
    await expectRunnable(found);
  });
});
