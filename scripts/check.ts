/** `npm run check`: validates a content folder without writing anything. */
import { openTreeContent } from '../src/tree/extra-groups.ts';
import { defineCommand, runIfMain } from '../src/cli/command.ts';
import { contentFolder } from '../src/cli/folders.ts';
import { countOf } from '../src/cli/progress.ts';
import { SETTINGS_OPTIONS, settingsOverrides } from '../src/cli/settings-options.ts';
import { formatContentErrors, formatContentWarnings } from '../src/errors.ts';

export const command = defineCommand({
  name: 'check',
  description:
    'Validate a content folder: list every error with its file, line and column, and write nothing.',
  options: {
    content: {
      type: 'string',
      valueName: 'DIR',
      description: 'content folder to read',
      default: 'content',
    },
    ...SETTINGS_OPTIONS,
    strict: {
      type: 'boolean',
      description: 'treat warnings (such as words or characters left out beside a count) as errors',
    },
  },
  json: true,
  async run(args, io) {
    const content = contentFolder(args.content);
    const result = await openTreeContent(content, {
      settings: settingsOverrides(args),
      strict: args.strict,
    });
    if (!result.ok) {
      io.summary?.({ content, errors: result.errors.length });
      io.err(formatContentErrors(result.errors) + '\n');
      return 1;
    }
    if (result.warnings.length > 0) io.err(formatContentWarnings(result.warnings) + '\n');
    const { projects, components, translations, languages } = result.model;
    io.summary?.({
      content,
      projects: projects.length,
      components: components.length,
      translations: translations.length,
      languages: languages.length,
      errors: 0,
      warnings: result.warnings.length,
    });
    io.out(
      `${content}/ is valid: ${countOf(projects.length, 'project')}, ${countOf(components.length, 'component')}, ` +
        `${countOf(translations.length, 'translation')}, ${countOf(languages.length, 'language')}.\n`,
    );
    return 0;
  },
});

await runIfMain(import.meta, command);
