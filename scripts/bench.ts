/** `npm run bench`: the performance benchmark. */
import { formatBench, benchTargets } from '../bench/report.ts';
import { scaleTooSmall, timeTool } from '../bench/processes.ts';
import { benchSuffix, runBench, type FloorKind } from '../bench/run.ts';
import { scaleFor } from '../bench/synthetic.ts';
import { defineCommand, runIfMain } from '../src/cli/command.ts';
import { UsageError } from '../src/errors.ts';
import { isRelease, NEWEST_RELEASE, RELEASE_RANGE } from '../src/model/releases.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const command = defineCommand({
  name: 'bench',
  description:
    'Generate (or reuse) a synthetic instance, build it in full and compare with a raw-write floor measured in the same run; ' +
    'then time rebuilds after one counter change and one language rename, a sidecar DELETE, GET throughput of the sidecar and of serve, ' +
    'and a mirror refresh (one counter changed upstream: incremental pull, cold build, deploy to a local S3-protocol server).',
  options: {
    translations: {
      type: 'string',
      valueName: 'N',
      description: 'about N translations (50 components of 10 languages per project)',
      default: '100000',
    },
    projects: {
      type: 'string',
      valueName: 'N',
      description: 'number of projects (instead of --translations)',
    },
    components: {
      type: 'string',
      valueName: 'N',
      description: 'components per project, with --projects',
      default: '50',
    },
    languages: {
      type: 'string',
      valueName: 'N',
      description: 'languages per component, with --projects',
      default: '10',
    },
    dir: {
      type: 'string',
      valueName: 'DIR',
      description: 'working folder (content is kept for reuse; trees are removed)',
      default: '.bench',
    },
    rounds: {
      type: 'string',
      valueName: 'N',
      description: 'full build and floor measured N times, one after the other',
      default: '1',
    },
    'get-seconds': {
      type: 'string',
      valueName: 'S',
      description: 'seconds of load for each GET throughput measurement',
      default: '10',
    },
    'build-only': {
      type: 'boolean',
      description: 'measure only the full build and the floor (what the 1,000,000 target asks)',
    },
    floor: {
      type: 'string',
      valueName: 'tree|render|none',
      description:
        'with --build-only, the floor each round measures: the built tree read back and written again; ' +
        'the floor alone, fed by the renderer (no tree built or read back); or none, the build alone. ' +
        'On a disk that holds the tree only once, run render and none each on a new file system',
      default: 'tree',
    },
    'weblate-version': {
      type: 'string',
      valueName: `4.14…${NEWEST_RELEASE}`,
      description:
        "which Weblate's API the synthetic instance speaks (5.0 and later add categories)",
      default: '4',
    },
    pages: {
      type: 'string',
      valueName: 'on|off',
      description: 'whether the tree holds the status site (pages, badges, exports)',
      default: 'on',
    },
    'png-widgets': {
      type: 'string',
      valueName: 'projects|all',
      description: "which widget folders hold the PNG widgets: projects' only, or every object's",
      default: 'projects',
    },
    'refresh-only': {
      type: 'boolean',
      description: 'measure only the mirror refresh (its upstream tree is built first, untimed)',
    },
    'requests-only': {
      type: 'boolean',
      description:
        'count only the requests a refresh makes of the upstream (served from memory, no tree built): ' +
        'nothing changed, one counter changed, a sweep',
    },
    'store-only': {
      type: 'string',
      valueName: 's3|memory',
      description:
        'measure only the store target (deploy --content): a first publish, then one counter changed, ' +
        'against the local S3 server or a store in memory that keeps keys, sizes and hashes',
    },
    tool: {
      type: 'string',
      valueName: 'BIN',
      description:
        'the weblate-snapshot bin whose cold build and refresh are timed (default: this repository, packed and installed)',
    },
  },
  epilog:
    'Examples:\n  npm run bench\n  npm run bench -- --translations 1000000 --build-only\n  npm run bench -- --weblate-version 2026.8\n  npm run bench -- --refresh-only\n  npm run bench -- --translations 1000000 --requests-only\n  npm run bench -- --store-only s3\n  npm run bench -- --translations 1000000 --store-only memory',
  async run(args, io) {
    const integer = (name: string, text: string) => {
      const value = Number(text);
      if (!Number.isInteger(value) || value < 1)
        throw new UsageError(`--${name} expects a positive integer (got "${text}")`);
      return value;
    };
    const weblateVersion = args['weblate-version'];
    if (!isRelease(weblateVersion))
      throw new UsageError(`--weblate-version expects ${RELEASE_RANGE} (got "${weblateVersion}")`);
    if (args.pages !== 'on' && args.pages !== 'off')
      throw new UsageError(`--pages expects "on" or "off" (got "${args.pages}")`);
    const pages = args.pages === 'on';
    if (args['png-widgets'] !== 'projects' && args['png-widgets'] !== 'all')
      throw new UsageError(
        `--png-widgets expects "projects" or "all" (got "${args['png-widgets']}")`,
      );
    const pngWidgets: 'projects' | 'all' = args['png-widgets'] === 'all' ? 'all' : 'projects';
    const scale = args.projects
      ? {
          projects: integer('projects', args.projects),
          components: integer('components', args.components),
          languages: integer('languages', args.languages),
          weblateVersion,
          pages,
          pngWidgets,
        }
      : {
          ...scaleFor(integer('translations', args.translations)),
          weblateVersion,
          pages,
          pngWidgets,
        };
    const floor = floorKind(args.floor);
    if (floor !== 'tree' && !args['build-only'])
      throw new UsageError(`--floor ${floor} goes with --build-only`);
    const tooSmall = scaleTooSmall(scale, {
      buildOnly: args['build-only'],
      storeOnly: args['store-only'],
    });
    if (tooSmall) throw new UsageError(tooSmall);
    if (args.tool) timeTool(args.tool);
    await runBench({
      scale,
      dir: args.dir,
      rounds: integer('rounds', args.rounds),
      getSeconds: integer('get-seconds', args['get-seconds']),
      buildOnly: args['build-only'],
      floor,
      refreshOnly: args['refresh-only'],
      requestsOnly: args['requests-only'],
      storeOnly: storeOnly(args['store-only']),
      log: (line) => io.err(`${line}\n`),
      measured: (result) => {
        const file = join(
          args.dir,
          `results-${result.scale.translations}${benchSuffix(scale)}.json`,
        );
        writeFileSync(
          file,
          JSON.stringify({ ...result, targets: benchTargets(result) }, null, 2) + '\n',
        );
        io.out(`${formatBench(result)}\nFigures also in ${file}.\n`);
      },
    });
    return 0;
  },
});

function floorKind(text: string): FloorKind {
  if (text === 'tree' || text === 'render' || text === 'none') return text;
  throw new UsageError(`--floor expects "tree", "render" or "none" (got "${text}")`);
}

function storeOnly(text: string | undefined): 's3' | 'memory' | undefined {
  if (text === undefined || text === 's3' || text === 'memory') return text;
  throw new UsageError(`--store-only expects "s3" or "memory" (got "${text}")`);
}

await runIfMain(import.meta, command);
