/** `npm run generate-content`: writes a synthetic content folder at a chosen scale. */
import { defineCommand, runMain } from '../src/cli/command.ts';
import { countOf } from '../src/cli/progress.ts';
import { UsageError } from '../src/errors.ts';
import { scaleFor, translationCount, writeSyntheticContent } from '../bench/synthetic.ts';

const command = defineCommand({
  name: 'generate-content',
  description:
    'Write a synthetic content folder (deterministic for a seed) for benchmarks and experiments.',
  options: {
    out: {
      type: 'string',
      valueName: 'DIR',
      description: 'content folder to write',
      default: '.bench/content',
    },
    translations: {
      type: 'string',
      valueName: 'N',
      description: 'about N translations (50 components of 10 languages per project)',
    },
    projects: { type: 'string', valueName: 'N', description: 'number of projects' },
    components: {
      type: 'string',
      valueName: 'N',
      description: 'components per project',
      default: '50',
    },
    languages: {
      type: 'string',
      valueName: 'N',
      description: 'translated languages per component (at most 50)',
      default: '10',
    },
    seed: { type: 'string', valueName: 'N', description: 'random seed', default: '1' },
  },
  epilog:
    'Example (100,000 translations):\n  npm run generate-content -- --projects 200 --components 50 --languages 10',
  async run(args, io) {
    const number = (name: string, text: string | undefined) => {
      const value = Number(text);
      if (!Number.isInteger(value) || value < 1)
        throw new UsageError(`--${name} expects a positive integer (got "${text}")`);
      return value;
    };
    const scale = args.projects
      ? {
          projects: number('projects', args.projects),
          components: number('components', args.components),
          languages: number('languages', args.languages),
        }
      : scaleFor(number('translations', args.translations ?? '100000'));
    const files = await writeSyntheticContent(args.out, {
      ...scale,
      seed: number('seed', args.seed),
    });
    io.out(
      `Wrote ${countOf(files, 'file')} to ${args.out}/: ${countOf(translationCount(scale), 'translation')} ` +
        `(${countOf(scale.projects, 'project')} × ${countOf(scale.components, 'component')} × ${countOf(scale.languages, 'language')}, ` +
        'plus the source translation of each component).\n',
    );
    return 0;
  },
});

await runMain(command);
